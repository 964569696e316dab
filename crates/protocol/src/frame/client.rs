//! Client → server frames.

use serde::{Deserialize, Serialize};

use super::admin::*;

tagged_union! {
    /// Every client → server frame of 2.3, admin frames included. The first frame a
    /// client sends MUST be `join`.
    pub enum ClientFrame (tag = "type", unknown = frame_type) {
        /// v2.2: ask for installed packs' card files (filenames only).
        ListPackCards = "list_pack_cards",
        AdminGetConfig = "admin_get_config",
        AdminListKeys = "admin_list_keys",
        AdminListRules = "admin_list_rules",
        /// Run the operator-configured self-update; needs the `update` feature.
        AdminUpdateServer = "admin_update_server",
        ;
        Join(Join) = "join",
        Input(Input) = "input",
        MediaOffer(MediaOffer) = "media_offer",
        MediaSetEnabled(MediaSetEnabled) = "media_set_enabled",
        AvatarSet(AvatarSet) = "avatar_set",
        PanelIntent(PanelIntent) = "panel_intent",
        Ping(Ping) = "ping",
        AdminSetModel(AdminSetModel) = "admin_set_model",
        AdminSetImagegen(AdminSetImagegen) = "admin_set_imagegen",
        AdminListModels(AdminListModels) = "admin_list_models",
        AdminMintKey(AdminMintKey) = "admin_mint_key",
        AdminUpdateKey(AdminUpdateKey) = "admin_update_key",
        AdminDeleteKey(AdminDeleteKey) = "admin_delete_key",
        AdminDeleteRoom(AdminDeleteRoom) = "admin_delete_room",
        AdminExportRoom(AdminExportRoom) = "admin_export_room",
        AdminImportRoom(AdminImportRoom) = "admin_import_room",
        AdminDeleteRoomData(AdminDeleteRoomData) = "admin_delete_room_data",
        AdminResetRoom(AdminResetRoom) = "admin_reset_room",
        AdminListSkills(AdminListSkills) = "admin_list_skills",
        AdminEnableSkill(AdminEnableSkill) = "admin_enable_skill",
        AdminGenerate(AdminGenerate) = "admin_generate",
    }
}

impl ClientFrame {
    /// `input{text}` — exactly what the player typed.
    pub fn input(text: impl Into<String>) -> Self {
        Self::Input(Input { text: text.into() })
    }

    /// `ping{t}`.
    pub fn ping(t: f64) -> Self {
        Self::Ping(Ping { t })
    }
}

impl<'de> Deserialize<'de> for ClientFrame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        crate::codec::decode_client_value(value).map_err(serde::de::Error::custom)
    }
}

/// `join` — authenticate and bind the connection to a room.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Join {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<ClientInfo>,
}

super::admin::debug_redacted!(Join { name, client } secret key);

/// `join.client` — who is connecting (informational; join carries no protocol version).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientInfo {
    pub name: String,
    pub version: String,
}

/// `input` — a command line or player utterance, verbatim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub text: String,
}

/// `media_offer` — upload metadata, sent before the byte channel is opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaOffer {
    pub name: String,
    pub mime: String,
    pub size: u64,
    pub sha256: String,
}

/// `media_set_enabled` — keeper-only room switch for player uploads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaSetEnabled {
    pub enabled: bool,
}

/// `avatar_set` — bind an uploaded image to the caller's own active character.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AvatarSet {
    pub hash: String,
}

wire_enum! {
    /// `panel_intent.kind`.
    pub enum PanelIntentKind { Choice = "choice", Input = "input", Roll = "roll" }
}

/// `panel_intent` — a module-panel interaction, routed as if the member typed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelIntent {
    /// `<packId>/<panelId>`; must be in this member's own manifest.
    pub panel: String,
    pub kind: PanelIntentKind,
    /// Capped at [`PanelIntent::MAX_VALUE_CHARS`] server-side (`input_too_long`).
    pub value: String,
}

impl PanelIntent {
    /// The server's cap on `value`, in characters.
    pub const MAX_VALUE_CHARS: usize = 2000;
}

/// `ping{t}`; the server echoes `t` in `pong`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ping {
    #[serde(with = "super::num")]
    pub t: f64,
}
