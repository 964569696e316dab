//! The engine's reply frames, shared by every rule: `error` with the engine's wording,
//! `admin_error`, the `system` narrative line and the `dice` frame.

use serde_json::{json, Map, Value};

use crate::model::ids::new_id;
use crate::model::room::RoomState;

/// The engine's English wording for each error code.
pub fn message(code: &str) -> &'static str {
    match code {
        "bad_key" => "Unknown access key.",
        "bad_frame" => "Malformed message.",
        "input_too_long" => "Messages may contain at most 4,000 characters. Nothing was sent.",
        "rate_limited" => "You're sending messages too quickly. Please wait a moment.",
        "join_timeout" => "No join message arrived in time.",
        "too_many_connections" => "Too many connections.",
        "server_error" => "Something went wrong on the server.",
        "forbidden" => "That action requires a keeper key.",
        "demo_unavailable" => "The sample adventure is not available in this room.",
        "media_disabled" => "Media uploads are disabled in this room.",
        "media_rate_limited" => "Too many uploads. Please wait a minute.",
        "media_bad_offer" => "The upload offer was malformed.",
        "media_bad_mime" => "That file type is not supported.",
        "media_too_large" => "That file is too large.",
        "media_bad_hash" => "The upload's sha256 is malformed.",
        "media_quota_exceeded" => "This room's media storage is full.",
        "media_size_mismatch" => "The upload's size did not match its offer.",
        "media_hash_mismatch" => "The upload's bytes did not match their sha256.",
        "media_bad_upload" => "Unknown or expired upload.",
        "media_bad_svg" => "That SVG uses features that are not allowed.",
        "media_not_found" => "Media not found.",
        _ => "Error.",
    }
}

pub fn error(code: &str) -> Value {
    json!({"type": "error", "code": code, "message": message(code)})
}

pub fn admin_error(code: &str, message: &str) -> Value {
    json!({"type": "admin_error", "code": code, "message": message})
}

pub fn system_frame(text: &str) -> Value {
    json!({"type": "narrative", "id": new_id(), "speaker": "system", "text": text, "format": "plain"})
}

/// Every member gets the reply under its own frame id, as the engine sends them.
pub fn system_all(st: &RoomState, text: &str) {
    st.broadcast_with(|_| Some(system_frame(text)));
}

pub fn dice_frame(actor: &str, body: Map<String, Value>) -> Value {
    let mut f = Map::new();
    f.insert("type".into(), json!("dice"));
    f.insert("actor".into(), json!(actor));
    f.extend(body);
    Value::Object(f)
}
