//! The `state` frame: a panel snapshot sent on join and after every turn.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::{MediaRef, Scalar};

/// A rule system's vital meter (HP, sanity, mana, ...) as generic data; `label` is
/// already in this viewer's locale. Entries arrive in render order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    pub id: String,
    pub label: String,
    #[serde(with = "super::num")]
    pub value: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub max: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `state.character` — the viewer's own active character.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Character {
    pub name: String,
    pub system: String,
    pub resources: Vec<Resource>,
    /// v2.3: the sheet's characteristics only, in the pack's own (wire) order —
    /// render as-is; each key is a name `.st <key>=<n>` accepts.
    pub attributes: Map<String, Value>,
    pub status_effects: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar: Option<MediaRef>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `state.party` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartyMember {
    pub name: String,
    pub online: bool,
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<Resource>>,
    /// An AI-played companion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar: Option<MediaRef>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `state.scene`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `state.clock`. The spec leaves `time`'s type open, so it is a scalar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    pub time: Scalar,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<i64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `state.initiative` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    pub name: String,
    pub value: i64,
    pub current: bool,
}

/// `state.usage` — rolling per-room LLM token/cache aggregate. The context pair
/// describes the most recent turn; the rest are session sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub context_tokens: u64,
    pub context_window: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_hit_tokens: u64,
    pub cache_miss_tokens: u64,
}

wire_enum! {
    /// `state.variables[].kind`.
    pub enum VariableKind { Number = "number", Bool = "bool", Text = "text", Enum = "enum" }
}

/// One module variable (player-visible subset; MVU leaves have ids `mvu.…`).
/// Entries arrive in definition order: render as-is, don't sort.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    pub id: String,
    /// Already localized to the room's locale.
    pub label: String,
    pub kind: VariableKind,
    pub value: Scalar,
    /// Present only on bounded number variables (render as a meter).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub min: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub max: Option<f64>,
    /// Keeper connections only: a row not yet `.var expose`d (dim or lock-mark it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Variable {
    pub fn is_hidden(&self) -> bool {
        self.hidden == Some(true)
    }
}

/// One claimable pregen; `claimed_by` is a member id, `""` while unclaimed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pregen {
    pub name: String,
    pub claimed_by: String,
}

/// One discovered rule system (v2.3) and the dialect word that makes a character in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemInfo {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub make_char: Option<String>,
}

/// `state` — a full snapshot (not a diff).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<Character>,
    pub party: Vec<PartyMember>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene: Option<Scene>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    pub initiative: Vec<InitiativeEntry>,
    pub online: u32,
    /// Omitted until the room's first completed AI-KP turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Omitted when the room has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<Vec<Variable>>,
    /// Omitted when no roster exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pregens: Option<Vec<Pregen>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub systems: Option<Vec<SystemInfo>>,
    /// `true` right after a campaign wipe: ALSO clear local chat scrollback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reset: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl State {
    pub fn is_reset(&self) -> bool {
        self.reset == Some(true)
    }
}
