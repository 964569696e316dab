//! Server → client frames: the session, chat and dice ones live here; media/audio,
//! ui/panels and state have their own modules.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::admin::*;
use super::codes::ErrorFrame;
use super::common::Role;
use super::media::*;
use super::state::State;
use super::ui_block::{UiFrame, UiManifest};

tagged_union! {
    /// Every server → client frame of 2.3, admin frames included. A `type` this
    /// client does not know decodes to `Unknown` (minor versions are additive).
    pub enum ServerFrame (tag = "type", unknown = frame_type) {
        ;
        Welcome(Welcome) = "welcome",
        Error(ErrorFrame) = "error",
        MediaAccept(MediaAccept) = "media_accept",
        Media(MediaFrame) = "media",
        MediaEnabled(MediaEnabled) = "media_enabled",
        AudioLibraryItem(AudioLibraryItem) = "audio_library_item",
        AudioControl(AudioControl) = "audio_control",
        AudioState(AudioState) = "audio_state",
        Narrative(Narrative) = "narrative",
        NarrativeDelta(NarrativeDelta) = "narrative_delta",
        Dice(Dice) = "dice",
        Ui(UiFrame) = "ui",
        UiManifest(UiManifest) = "ui_manifest",
        PanelEvent(PanelEvent) = "panel_event",
        State(State) = "state",
        PackCards(PackCards) = "pack_cards",
        Presence(Presence) = "presence",
        System(SystemFrame) = "system",
        TurnStatus(TurnStatus) = "turn_status",
        Pong(Pong) = "pong",
        AdminConfig(AdminConfig) = "admin_config",
        AdminModels(AdminModels) = "admin_models",
        AdminKeys(AdminKeys) = "admin_keys",
        AdminRoomOp(AdminRoomOp) = "admin_room_op",
        AdminError(AdminError) = "admin_error",
        AdminSkills(AdminSkills) = "admin_skills",
        AdminRules(AdminRules) = "admin_rules",
        AdminGenerated(AdminGenerated) = "admin_generated",
        AdminUpdate(AdminUpdate) = "admin_update",
    }
}

impl<'de> Deserialize<'de> for ServerFrame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        crate::codec::decode_server_value(value).map_err(serde::de::Error::custom)
    }
}

/// `welcome.you`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct You {
    pub id: String,
    pub name: String,
    pub role: Role,
}

/// `welcome` — sent once, on a successful join.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Welcome {
    /// The SERVER's protocol version; a different major must be refused
    /// (see [`crate::version`]).
    pub protocol: String,
    /// `media`, `audio`, and optionally `imagegen`, `demo`, `update`.
    pub features: Vec<String>,
    pub room: String,
    pub you: You,
    pub locale: String,
    pub server: String,
    /// The server's own release version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Welcome {
    pub fn has_feature(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

wire_enum! {
    /// Who a narrative line is from. Unknown speakers render as ordinary lines.
    pub enum Speaker { Kp = "kp", Player = "player", System = "system", Npc = "npc" }
}

wire_enum! {
    /// `narrative.format`.
    pub enum TextFormat { Markdown = "markdown", Plain = "plain" }
}

/// `narrative` — one COMPLETE line. When `id` matches a draft built from
/// `narrative_delta`s, this text REPLACES the draft.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Narrative {
    pub id: String,
    pub speaker: Speaker,
    /// The player's name, or the NPC's for `speaker:"npc"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub text: String,
    pub format: TextFormat,
}

impl Narrative {
    /// An EMPTY final text discards the draft: remove the bubble, never render it.
    pub fn is_discard(&self) -> bool {
        self.text.is_empty()
    }
}

/// `narrative_delta` — a text delta to append to draft bubble `id` (markdown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NarrativeDelta {
    pub id: String,
    pub speaker: Speaker,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub text: String,
}

wire_enum! {
    /// `dice.kind`.
    pub enum DiceKind {
        Roll = "roll",
        Check = "check",
        Subsystem = "subsystem",
        Opposed = "opposed",
        Init = "init",
    }
}

/// A graded check's neutral outcome. Color by the flags, shade by `tier`; `id` is
/// the rule system's own vocabulary — presentation only, never branch on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub id: String,
    /// Already localized.
    pub label: String,
    pub success: bool,
    pub critical: bool,
    pub fumble: bool,
    /// The ladder ordinal; higher is better.
    #[serde(with = "super::num")]
    pub tier: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub margin: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `dice` — one roll/check; never carries keeper secrets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dice {
    pub actor: String,
    pub kind: DiceKind,
    pub expr: String,
    #[serde(with = "super::num::vec")]
    pub rolls: Vec<f64>,
    #[serde(with = "super::num")]
    pub total: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub target: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub effective_target: Option<f64>,
    /// For `kind:"subsystem"`: which subsystem ran (e.g. a sanity check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsystem: Option<String>,
    /// Present on graded checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// System-declared roll data, surfaced verbatim; for `opposed` it carries
    /// `left`/`right`/`winner` (see the typed accessors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Map<String, Value>>,
    /// Fields beyond 2.3's list (the engine sends e.g. `skill`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

wire_enum! {
    /// `detail.winner` of an opposed check.
    pub enum Winner { Left = "left", Right = "right", Tie = "tie" }
}

/// One side of an opposed check: `detail.left` / `detail.right`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpposedSide {
    pub name: String,
    #[serde(with = "super::num")]
    pub total: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub target: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Dice {
    /// `detail.left`, when present and well-formed.
    pub fn opposed_left(&self) -> Option<OpposedSide> {
        self.detail_field("left")
    }

    /// `detail.right`, when present and well-formed.
    pub fn opposed_right(&self) -> Option<OpposedSide> {
        self.detail_field("right")
    }

    /// `detail.winner`, when present.
    pub fn opposed_winner(&self) -> Option<Winner> {
        self.detail_field("winner")
    }

    /// One `detail` entry read as `T`; `None` when absent or not shaped like `T`
    /// (detail is opaque by contract, so a mismatch is not an error).
    pub fn detail_field<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let value = self.detail.as_ref()?.get(key)?;
        serde_json::from_value(value.clone()).ok()
    }
}

/// `panel_event` — an opaque payload for one tier-2 panel's own code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelEvent {
    pub panel: String,
    pub payload: Value,
}

wire_enum! {
    /// `pack_cards.cards[].kind` (v2.3): decides the import verb.
    pub enum CardKind { Character = "character", World = "world" }
}

/// One installed-pack card file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackCard {
    /// Exactly what `.import <ref>` accepts.
    pub r#ref: String,
    pub pack: String,
    pub name: String,
    /// Absent from a pre-2.3 server; see [`PackCard::kind_or_default`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CardKind>,
}

impl PackCard {
    /// A missing kind means `character`.
    pub fn kind_or_default(&self) -> CardKind {
        self.kind.clone().unwrap_or(CardKind::Character)
    }
}

/// `pack_cards` (v2.2) — `cards` is empty, not absent, when there are none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackCards {
    pub cards: Vec<PackCard>,
}

/// One `presence.players` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PresencePlayer {
    pub id: String,
    pub name: String,
    pub online: bool,
}

/// `presence` — the connected-player roster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Presence {
    pub players: Vec<PresencePlayer>,
    pub online: u32,
}

wire_enum! {
    /// `system.level`.
    pub enum SystemLevel { Info = "info", Warn = "warn" }
}

/// `system` — an out-of-band notice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemFrame {
    pub level: SystemLevel,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spinner: Option<bool>,
}

wire_enum! {
    /// `turn_status.activity` (2.3.1): the coarse kind of work a tool round opened with.
    pub enum Activity {
        Reading = "reading",
        Dice = "dice",
        Cast = "cast",
        Bookkeeping = "bookkeeping",
    }
}

/// `turn_status` — ephemeral AI-KP activity. A repeated `busy` refreshes the one
/// indicator; it is not a second turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TurnStatus {
    Busy {
        actor: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        activity: Option<Activity>,
        /// Counts tool rounds from 1; absent on the opening busy.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
    },
    Idle,
}

/// `pong{t}` — echoes the ping's `t`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pong {
    #[serde(with = "super::num")]
    pub t: f64,
}
