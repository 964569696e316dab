//! Per-connection session logic: join/leave, frame dispatch, and the input choke.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::room::{Member, Room};
use crate::state::{broadcast_state, state_for};
use crate::table::Table;

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

/// The join sequence, all under the room lock so no live frame can land inside it:
/// welcome, presence to all, replay, state to all, then this viewer's manifest.
pub fn join(table: &Table, room: &Arc<Room>, member: &Member) {
    // Read before taking the room lock (admin code never holds both at once).
    let imagegen = (table.admin.lock())
        .unwrap_or_else(|e| e.into_inner())
        .imagegen_configured();
    let mut st = room.lock();
    // Spec order: media, audio, imagegen, demo, update.
    let mut features = vec!["media", "audio"];
    if imagegen {
        features.push("imagegen");
    }
    if st.saved.history.is_empty() && table.story.is_some() {
        features.push("demo");
    }
    if member.is_keeper() && table.cfg.update_command.is_some() {
        features.push("update");
    }
    member.send(&json!({
        "type": "welcome", "protocol": protocol::PROTOCOL_VERSION, "features": features,
        "room": room.name,
        "you": {"id": member.id, "name": member.name, "role": member.role},
        "locale": table.cfg.locale, "server": "loreweaver/1",
        "version": env!("CARGO_PKG_VERSION"),
    }));
    st.live.members.push(member.clone());
    let presence = st.presence();
    st.broadcast(&presence);
    for frame in st.replay() {
        member.send(&frame);
    }
    broadcast_state(&st, false);
    let manifest = crate::packs::manifest_frame(table, &st.saved.packs, member.is_keeper());
    member.send(&manifest);
}

pub fn leave(_table: &Table, room: &Arc<Room>, member: &Member) {
    let mut st = room.lock();
    st.live.members.retain(|m| m.conn != member.conn);
    st.live.pending.retain(|_, p| p.conn != member.conn);
    let presence = st.presence();
    st.broadcast(&presence);
    broadcast_state(&st, false);
    drop(st);
    room.persist();
}

/// The member's current role per the keystore (a demoted or deleted key loses its
/// powers mid-connection, as the engine re-authorizes each frame). `None`: revoked.
pub fn current_role(table: &Table, room: &Room, member: &Member) -> Option<String> {
    table.keys.by_member(&member.id, &room.name).map(|e| e.role)
}

/// Inputs from one connection run one at a time, in order, on their own task, so the
/// read loop keeps answering pings and admin frames during a long Keeper turn.
pub fn input_queue(
    table: Arc<Table>,
    room: Arc<Room>,
    member: Member,
) -> mpsc::UnboundedSender<String> {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            crate::commands::run_input(&table, &room, &member, &text).await;
        }
    });
    tx
}

fn allow_input(table: &Table, room: &Room, member: &Member) -> bool {
    let limits = &table.cfg.limits;
    let now = Instant::now();
    let mut st = room.lock();
    let live = &mut st.live;
    let mine = live.inputs.entry(member.id.clone()).or_default();
    while mine
        .front()
        .is_some_and(|t| now.duration_since(*t) > limits.input_window)
    {
        mine.pop_front();
    }
    while live
        .room_inputs
        .front()
        .is_some_and(|t| now.duration_since(*t) > limits.input_window)
    {
        live.room_inputs.pop_front();
    }
    if mine.len() >= limits.inputs_per_member || live.room_inputs.len() >= limits.inputs_per_room {
        return false;
    }
    mine.push_back(now);
    live.room_inputs.push_back(now);
    true
}

/// Length and rate checks, then queue. Shared by `input` and `panel_intent`.
fn submit(
    table: &Table,
    room: &Room,
    member: &Member,
    inputs: &mpsc::UnboundedSender<String>,
    text: String,
) {
    if text.chars().count() > 4000 {
        member.send(&error("input_too_long"));
        return;
    }
    if text.trim().is_empty() {
        return;
    }
    if !allow_input(table, room, member) {
        member.send(&error("rate_limited"));
        return;
    }
    let _ = inputs.send(text);
}

pub async fn on_line(
    table: &Arc<Table>,
    room: &Arc<Room>,
    member: &Member,
    inputs: &mpsc::UnboundedSender<String>,
    line: &str,
) {
    let frame: Value = match serde_json::from_str(line) {
        Ok(v @ Value::Object(_)) => v,
        _ => return member.send(&error("bad_frame")),
    };
    let kind = frame.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "ping" => member
            .send(&json!({"type": "pong", "t": frame.get("t").cloned().unwrap_or(Value::Null)})),
        "input" => match frame.get("text").and_then(Value::as_str) {
            Some(text) => submit(table, room, member, inputs, text.to_string()),
            None => member.send(&error("bad_frame")),
        },
        "panel_intent" => panel_intent(table, room, member, inputs, &frame),
        "list_pack_cards" => {
            if !allow_input(table, room, member) {
                return member.send(&error("rate_limited"));
            }
            member.send(&json!({"type": "pack_cards", "cards": crate::packs::cards(table)}));
        }
        "media_offer" => crate::media::offer(table, room, member, &frame),
        "media_set_enabled" => crate::media::set_enabled(table, room, member, &frame),
        "avatar_set" => crate::media::avatar_set(table, room, member, &frame),
        k if k.starts_with("admin_") => crate::admin::dispatch(table, room, member, &frame).await,
        _ => member.send(&error("bad_frame")),
    }
}

fn panel_intent(
    table: &Table,
    room: &Arc<Room>,
    member: &Member,
    inputs: &mpsc::UnboundedSender<String>,
    frame: &Value,
) {
    let panel = frame.get("panel").and_then(Value::as_str).unwrap_or("");
    let kind = frame.get("kind").and_then(Value::as_str).unwrap_or("");
    let Some(value) = frame.get("value").and_then(Value::as_str) else {
        return member.send(&error("bad_frame"));
    };
    if panel.is_empty() || !matches!(kind, "choice" | "input" | "roll") {
        return member.send(&error("bad_frame"));
    }
    if value.chars().count() > 2000 {
        return member.send(&error("input_too_long"));
    }
    let value = value.trim();
    if value.is_empty() {
        return member.send(&error("bad_frame"));
    }
    let enabled = room.lock().saved.packs.clone();
    let allowed = crate::packs::panel_ids(table, &enabled, member.is_keeper());
    if !allowed.iter().any(|p| p == panel) {
        return member.send(&error("forbidden"));
    }
    let text = if kind == "roll" {
        format!(
            ".r {}",
            value.split_whitespace().collect::<Vec<_>>().join(" ")
        )
    } else {
        value.to_string()
    };
    submit(table, room, member, inputs, text);
}

/// One member's state (after a private change like an avatar).
pub fn send_state(room: &Room, member: &Member) {
    let st = room.lock();
    member.send(&state_for(&st, member, false));
}
