//! Per-connection session logic: join/leave, frame dispatch, and the input choke. What a
//! frame then does is the rules' part; this side decides only when and in what order.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::model::room::{Member, Room};
use crate::rules::context::Context;
use crate::rules::reply::error;
use crate::rules::state::broadcast_state;
use crate::rules::{admin, commands, media, packs};

/// The join sequence, all under the room lock so no live frame can land inside it:
/// welcome, presence to all, replay, state to all, then this viewer's manifest.
pub fn join(ctx: &Context, room: &Arc<Room>, member: &Member) {
    // Read before taking the room lock (admin code never holds both at once).
    let imagegen = (ctx.admin.lock())
        .unwrap_or_else(|e| e.into_inner())
        .imagegen_configured();
    let mut st = room.lock();
    // Spec order: media, audio, imagegen, demo, update.
    let mut features = vec!["media", "audio"];
    if imagegen {
        features.push("imagegen");
    }
    if st.saved.history.is_empty() && ctx.story.is_some() {
        features.push("demo");
    }
    if member.is_keeper() && ctx.cfg.update_command.is_some() {
        features.push("update");
    }
    member.send(&json!({
        "type": "welcome", "protocol": protocol::PROTOCOL_VERSION, "features": features,
        "room": room.name,
        "you": {"id": member.id, "name": member.name, "role": member.role},
        "locale": ctx.cfg.locale, "server": "loreweaver/1",
        "version": env!("CARGO_PKG_VERSION"),
    }));
    st.live.members.push(member.clone());
    let presence = st.presence();
    st.broadcast(&presence);
    for frame in st.replay() {
        member.send(&frame);
    }
    broadcast_state(&st, false);
    let manifest = packs::manifest_frame(&ctx.packs, &st.saved.packs, member.is_keeper());
    member.send(&manifest);
}

pub fn leave(room: &Arc<Room>, member: &Member) {
    let mut st = room.lock();
    st.live.members.retain(|m| m.conn != member.conn);
    st.live.pending.retain(|_, p| p.conn != member.conn);
    let presence = st.presence();
    st.broadcast(&presence);
    broadcast_state(&st, false);
    drop(st);
    room.persist();
}

/// Inputs from one connection run one at a time, in order, on their own task, so the
/// read loop keeps answering pings and admin frames during a long Keeper turn.
pub fn input_queue(
    ctx: Arc<Context>,
    room: Arc<Room>,
    member: Member,
) -> mpsc::UnboundedSender<String> {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            commands::run_input(&ctx, &room, &member, &text).await;
        }
    });
    tx
}

fn allow_input(ctx: &Context, room: &Room, member: &Member) -> bool {
    let limits = &ctx.cfg.limits;
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
    ctx: &Context,
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
    if !allow_input(ctx, room, member) {
        member.send(&error("rate_limited"));
        return;
    }
    let _ = inputs.send(text);
}

pub async fn on_line(
    ctx: &Arc<Context>,
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
            Some(text) => submit(ctx, room, member, inputs, text.to_string()),
            None => member.send(&error("bad_frame")),
        },
        "panel_intent" => panel_intent(ctx, room, member, inputs, &frame),
        "list_pack_cards" => {
            if !allow_input(ctx, room, member) {
                return member.send(&error("rate_limited"));
            }
            member.send(&json!({"type": "pack_cards", "cards": packs::cards(&ctx.packs)}));
        }
        "media_offer" => media::offer(ctx, room, member, &frame),
        "media_set_enabled" => media::set_enabled(room, member, &frame),
        "avatar_set" => media::avatar_set(room, member, &frame),
        k if k.starts_with("admin_") => admin::dispatch(ctx, room, member, &frame).await,
        _ => member.send(&error("bad_frame")),
    }
}

fn panel_intent(
    ctx: &Context,
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
    let allowed = packs::panel_ids(&ctx.packs, &enabled, member.is_keeper());
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
    submit(ctx, room, member, inputs, text);
}
