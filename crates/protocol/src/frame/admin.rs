//! Admin (keeper-gated) frames, both directions. A non-keeper connection gets
//! `admin_error{code:"forbidden"}` for every request.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::codes::AdminErrorCode;
use super::common::Role;

// ---- client → server ----------------------------------------------------------

/// `admin_set_model`. Omitted fields reuse the provider's saved credential (same
/// endpoint only); `Some("")` explicitly clears that field.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminSetModel {
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

/// `admin_set_imagegen` — same endpoint/key isolation rule as `admin_set_model`.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminSetImagegen {
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}

/// `admin_list_models` — all optional: omit everything to list the current provider.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdminListModels {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

/// `admin_mint_key` — for the caller's own room (`room` may be omitted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdminMintKey {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

/// `admin_update_key` — by stable non-secret id; demoting the last keeper is refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminUpdateKey {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

/// `admin_delete_key`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminDeleteKey {
    pub id: String,
}

/// `admin_delete_room` — deletes the room's access keys only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminDeleteRoom {
    pub room: String,
}

/// `admin_export_room` — a server-side backup file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminExportRoom {
    pub room: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// `admin_import_room` — restore a server-side backup, optionally remapped to `room`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminImportRoom {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
}

/// `admin_delete_room_data` — keys, KV state and vectors; `backup` defaults to true.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminDeleteRoomData {
    pub room: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

wire_enum! {
    /// How much `admin_reset_room` wipes (default `story`).
    pub enum ResetScope { Story = "story", Chars = "chars", All = "all" }
}

/// `admin_reset_room` — restart a campaign in place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminResetRoom {
    pub room: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ResetScope>,
}

/// `admin_list_skills` — `locale` asks for names localized to the client's UI language.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdminListSkills {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

/// `admin_enable_skill` — replies a fresh `admin_skills`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminEnableSkill {
    pub id: String,
    pub on: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

wire_enum! {
    /// What the forge authors (`admin_generate` / `admin_generated`).
    pub enum GenerateKind { Skill = "skill", Rule = "rule", Module = "module" }
}

/// `admin_generate` — a slow LLM call; the client spins until `admin_generated`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminGenerate {
    pub kind: GenerateKind,
    pub description: String,
}

// ---- server → client ----------------------------------------------------------

/// The display-safe image-generation status (the key is never in cleartext).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageGenStatus {
    pub provider: String,
    pub base_url: String,
    pub model: String,
    pub size: String,
    pub api_key_masked: String,
    pub has_key: bool,
    pub configured: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_providers: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

wire_enum! {
    /// `admin_config.subscription_status`; `""` (or absence) is the API-key path.
    pub enum SubscriptionStatus { ApiKeyPath = "", LoggedIn = "logged_in", LoggedOut = "logged_out" }
}

/// `admin_config` — the live, display-safe LLM config.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminConfig {
    pub provider: String,
    pub chat_model: String,
    pub base_url: String,
    pub api_key_masked: String,
    pub providers: Vec<String>,
    pub saved_providers: Vec<String>,
    pub override_active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imagegen: Option<ImageGenStatus>,
    /// `Some(false)` removes a stale demo affordance; `true` alone authorizes nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub using_demo: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_status: Option<SubscriptionStatus>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_models` — empty `models` means "fall back to a free-text field".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminModels {
    pub provider: String,
    pub models: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imagegen: Option<ImageGenStatus>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One roster entry of `admin_keys`; the key value itself is masked. The engine
/// also sends `purpose` / `expires_at`, kept in `extra`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyEntry {
    pub id: String,
    pub key_masked: String,
    pub room: String,
    pub name: String,
    pub role: Role,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_keys.minted` — the freshly minted key, in cleartext, exactly ONCE.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct MintedKey {
    pub key: String,
    pub room: String,
    pub name: String,
    pub role: Role,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_keys` — the caller's own room-key roster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminKeys {
    pub keys: Vec<KeyEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minted: Option<MintedKey>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

wire_enum! {
    /// `admin_room_op.action`.
    pub enum RoomOpAction { Export = "export", Import = "import", Delete = "delete", Reset = "reset" }
}

/// `admin_room_op` — result of export/import/full-delete/reset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminRoomOp {
    pub action: RoomOpAction,
    pub room: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(with = "super::num")]
    pub keys: f64,
    #[serde(with = "super::num")]
    pub store_rows: f64,
    #[serde(with = "super::num")]
    pub vector_points: f64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub media_files: Option<f64>,
    /// Present on a reset op, echoing the applied scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ResetScope>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_error` — a localized failure notice; does not close the connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminError {
    pub code: AdminErrorCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One `admin_skills` entry; `enabled` reflects the caller's room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillInfo {
    pub id: String,
    pub name: String,
    pub description: String,
    pub content_rating: String,
    pub enabled: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_skills`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminSkills {
    pub skills: Vec<SkillInfo>,
}

/// One `admin_rules` entry; `built_in` marks a shipped system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSystemInfo {
    pub id: String,
    pub built_in: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `admin_rules`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminRules {
    pub systems: Vec<RuleSystemInfo>,
}

/// `admin_generated` — the forge's outcome. For `module`, `detail` is the only
/// signal of whether it actually landed in the room (`ok` = a valid document).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminGenerated {
    pub kind: GenerateKind,
    pub ok: bool,
    pub id: String,
    pub name: String,
    pub error: String,
    pub detail: String,
}

wire_enum! {
    /// `admin_update.status`.
    pub enum UpdateStatus { Restarting = "restarting", Failed = "failed" }
}

/// `admin_update` — the reply to `admin_update_server`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminUpdate {
    pub status: UpdateStatus,
    /// On `failed`: the tail of the command's combined stdout/stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// `Debug` for frames that carry a secret: every field but the secret, which reads `"…"`.
/// Secrets never reach a log line, even through `{:?}`.
macro_rules! debug_redacted {
    ($ty:ident { $($field:ident),* } secret $secret:ident) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($field), &self.$field))*
                    .field(stringify!($secret), &RedactedSecret)
                    .finish()
            }
        }
    };
}
pub(crate) use debug_redacted;

/// Prints in place of a secret.
pub(crate) struct RedactedSecret;

impl std::fmt::Debug for RedactedSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"…\"")
    }
}

debug_redacted!(AdminSetModel { provider, chat_model, base_url } secret api_key);
debug_redacted!(AdminSetImagegen { provider, base_url, model, size } secret api_key);
debug_redacted!(AdminListModels { provider, base_url } secret api_key);
debug_redacted!(MintedKey { room, name, role, extra } secret key);
