//! The scripted Keeper: plays the story's next beat with the engine's turn shape —
//! busy, per-round busy, streamed deltas with dice/npc frames between them, the closing
//! narrative, ui frames, panel events to manifest holders, idle, state.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::model::ids::new_id;
use crate::model::room::{Member, Room, RoomState};
use crate::rules::config::Pacing;
use crate::rules::context::Context;
use crate::rules::reply::dice_frame;
use crate::rules::state::broadcast_state;
use crate::rules::story::Story;
use crate::rules::{audio, dice, packs, systems};

const FALLBACK: &str =
    "The Keeper considers your action, and the scene waits on your next move. What do you do?";

pub async fn run_turn(ctx: &Arc<Context>, room: &Arc<Room>, member: &Member, _text: &str) {
    let pacing = ctx.cfg.pacing.clone();
    let (actor, pc_name, beat) = {
        let mut st = room.lock();
        let actor = st.display_name(&member.id, &member.name);
        let pc_name = st
            .character(&member.id)
            .map(|c| c.name.clone())
            .unwrap_or_else(|| member.name.clone());
        st.broadcast(&json!({"type": "turn_status", "status": "busy", "actor": actor}));
        let n = st.saved.beat;
        st.saved.beat += 1;
        let beat = ctx.story.as_ref().and_then(|s| s.beat(n)).cloned();
        (actor, pc_name, beat)
    };
    let steps = match &beat {
        Some(b) => {
            if let Some(scene) = &b.scene {
                room.lock().saved.scene = Some(scene.clone());
            }
            b.steps.clone()
        }
        None => vec![json!({"say": FALLBACK})],
    };
    let draft_id = new_id();
    let mut draft = String::new();
    let mut ui = Vec::new();
    let mut panel_events = Vec::new();
    let mut round = 0;
    for step in &steps {
        let step = fill_value(step, &pc_name, &member.name);
        let Some((kind, body)) = step.as_object().and_then(|o| o.iter().next()) else {
            continue;
        };
        match kind.as_str() {
            "round" => {
                round += 1;
                let activity = body.as_str().unwrap_or("reading");
                room.lock().broadcast(
                    &json!({"type": "turn_status", "status": "busy", "actor": actor,
                    "activity": activity, "round": round}),
                );
                tokio::time::sleep(pacing.beat).await;
            }
            "say" => {
                let text = body.as_str().unwrap_or("").to_string();
                let text = if draft.is_empty() {
                    text
                } else {
                    format!(" {text}")
                };
                stream(room, &draft_id, &text, &pacing).await;
                draft.push_str(&text);
            }
            "abandon" => {
                // A draft the Keeper superseded: streamed, then closed with an empty text.
                let id = new_id();
                stream(room, &id, body.as_str().unwrap_or(""), &pacing).await;
                room.lock().broadcast(&json!({"type": "narrative", "id": id, "speaker": "kp", "text": "", "format": "markdown"}));
            }
            "dice" => {
                tokio::time::sleep(pacing.beat).await;
                let mut st = room.lock();
                if let Some(frame) = dice(&mut st, member, &actor, body) {
                    st.publish_event(frame);
                }
            }
            "npc" => {
                tokio::time::sleep(pacing.beat).await;
                let frame = json!({"type": "narrative", "id": new_id(), "speaker": "npc",
                    "name": body["name"], "text": body["text"], "format": "markdown"});
                room.lock().publish_event(frame);
            }
            "ui" => ui.push(resolve_blocks(ctx.story.as_ref(), body)),
            "panel_event" => panel_events.push(body.clone()),
            "var" => apply_var(&mut room.lock(), body),
            "audio" => {
                let action = body["action"].as_str().unwrap_or("play");
                let media = body["media"].as_str().unwrap_or("");
                let layer = body["layer"].as_str().unwrap_or("bgm");
                let mut st = room.lock();
                audio::audio_command(
                    &mut st,
                    &keeper_stand_in(member),
                    layer,
                    &format!("{action} {media}"),
                    false,
                );
            }
            _ => tracing::warn!(step = %kind, "unknown story step skipped"),
        }
    }
    let mut st = room.lock();
    if !draft.is_empty() {
        st.publish_line(json!({"type": "narrative", "id": draft_id, "speaker": "kp", "text": draft, "format": "markdown"}));
    }
    for frame in &ui {
        st.broadcast(frame);
    }
    deliver_panel_events(&ctx.packs, &st, &panel_events);
    st.broadcast(&json!({"type": "turn_status", "status": "idle"}));
    broadcast_state(&st, false);
}

/// Streams `text` as a few deltas at the configured pace, without holding the room lock
/// while sleeping (so other members' frames and joins interleave naturally).
async fn stream(room: &Room, id: &str, text: &str, pacing: &Pacing) {
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    for chunk in words.chunks(6) {
        let piece: String = chunk.concat();
        room.lock().broadcast(
            &json!({"type": "narrative_delta", "id": id, "speaker": "kp", "text": piece}),
        );
        tokio::time::sleep(pacing.delta).await;
    }
}

/// Replaces `{pc}` / `{player}` anywhere in a step (names JSON-escaped, so any name is safe).
fn fill_value(step: &Value, pc: &str, player: &str) -> Value {
    let esc = |s: &str| {
        let quoted = serde_json::to_string(s).unwrap_or_default();
        quoted[1..quoted.len() - 1].to_string()
    };
    let text = step
        .to_string()
        .replace("{pc}", &esc(pc))
        .replace("{player}", &esc(player));
    serde_json::from_str(&text).unwrap_or_else(|_| step.clone())
}

/// Story audio steps run with keeper rights, whoever's turn triggered them.
fn keeper_stand_in(member: &Member) -> Member {
    Member {
        role: "keeper".into(),
        ..member.clone()
    }
}

fn dice(st: &mut RoomState, member: &Member, actor: &str, body: &Value) -> Option<Value> {
    let kind = body["kind"].as_str().unwrap_or("check");
    match kind {
        "roll" => {
            let r = dice::roll(body["expr"].as_str().unwrap_or("1d6")).ok()?;
            let mut b = Map::new();
            b.insert("kind".into(), json!("roll"));
            b.insert("expr".into(), json!(r.expr));
            b.insert("rolls".into(), json!(r.rolls));
            b.insert("total".into(), json!(r.total));
            b.insert("detail".into(), json!({"modifier": r.modifier}));
            Some(dice_frame(body["actor"].as_str().unwrap_or(actor), b))
        }
        "subsystem" => {
            let spec = body["loss"].as_str().unwrap_or("0/1d2");
            let ch = st.character_mut(&member.id)?;
            let check = systems::sanity_check(ch, spec).ok()?;
            Some(dice_frame(actor, check.frame))
        }
        "opposed" => {
            let (l, r) = (dice::d100(), dice::d100());
            let (lt, rt) = (
                body["left_target"].as_i64().unwrap_or(50),
                body["right_target"].as_i64().unwrap_or(50),
            );
            let (lo, ro) = (systems::coc_outcome(l, lt), systems::coc_outcome(r, rt));
            let (ltier, rtier) = (
                lo["tier"].as_i64().unwrap_or(0),
                ro["tier"].as_i64().unwrap_or(0),
            );
            let winner = if ltier > rtier {
                "left"
            } else if rtier > ltier {
                "right"
            } else {
                "tie"
            };
            let mut b = Map::new();
            b.insert("kind".into(), json!("opposed"));
            b.insert(
                "expr".into(),
                json!(body["expr"].as_str().unwrap_or("Opposed")),
            );
            b.insert("rolls".into(), json!([l, r]));
            b.insert("total".into(), json!(l));
            b.insert("detail".into(), json!({
                "left": {"name": body["left"].as_str().unwrap_or(actor), "total": l, "target": lt, "outcome": lo},
                "right": {"name": body["right"].as_str().unwrap_or("?"), "total": r, "target": rt, "outcome": ro},
                "winner": winner,
            }));
            Some(dice_frame(actor, b))
        }
        _ => {
            let skill = body["skill"].as_str().unwrap_or("Spot Hidden");
            let ch = st.character(&member.id);
            let explicit = if ch.and_then(|c| c.stat(skill)).is_some() {
                None
            } else {
                Some(body["target"].as_i64().unwrap_or(50))
            };
            let mut check = systems::skill_check(ch, skill, explicit).ok()?;
            check.frame.insert(
                "detail".into(),
                json!({"bonus": 0, "penalty": 0, "modifier": 0, "proficient": false}),
            );
            Some(dice_frame(actor, check.frame))
        }
    }
}

fn apply_var(st: &mut RoomState, body: &Value) {
    let id = body["id"].as_str().unwrap_or("");
    if let Some(var) = st.saved.vars.iter_mut().find(|v| v.id == id) {
        if let Some(v) = body.get("set") {
            var.value = v.clone();
        }
        if let (Some(add), Some(cur)) = (body["add"].as_f64(), var.value.as_f64()) {
            var.value = json!((cur + add) as i64);
        }
        if body["expose"].as_bool() == Some(true) {
            var.hidden = false;
        }
    }
}

/// A story `ui` step to a wire `ui` frame: `src` paths become `{hash, mime, size}`;
/// a block whose picture is not reachable from the room is dropped, as the engine does.
fn resolve_blocks(story: Option<&Story>, body: &Value) -> Value {
    let mut frame = body.clone();
    let blocks: Vec<Value> = body["blocks"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|mut block| {
            let src = block.get("src").and_then(Value::as_str).map(str::to_string);
            if let Some(src) = src {
                let rec = story?.resolve(&src)?;
                let obj = block.as_object_mut()?;
                obj.remove("src");
                obj.insert("hash".into(), json!(rec.hash));
                obj.insert("mime".into(), json!(rec.mime));
                obj.insert("size".into(), json!(rec.size));
            }
            Some(block)
        })
        .collect();
    frame["type"] = json!("ui");
    frame["blocks"] = Value::Array(blocks);
    if frame.get("panel").is_none() {
        frame["panel"] = json!("inline");
    }
    // `type` first, like every other frame.
    let mut ordered = Map::new();
    ordered.insert("type".into(), json!("ui"));
    for (k, v) in frame.as_object().cloned().unwrap_or_default() {
        if k != "type" {
            ordered.insert(k, v);
        }
    }
    Value::Object(ordered)
}

/// Each event reaches only members whose own manifest holds the panel (max 20 a turn).
fn deliver_panel_events(served: &packs::Packs, st: &RoomState, events: &[Value]) {
    for ev in events.iter().take(20) {
        let panel = ev["panel"].as_str().unwrap_or("");
        let frame = json!({"type": "panel_event", "panel": panel, "payload": ev["payload"]});
        if frame.to_string().len() > 32 * 1024 {
            continue;
        }
        st.broadcast_with(|m| {
            let ids = packs::panel_ids(served, &st.saved.packs, m.is_keeper());
            ids.iter().any(|p| p == panel).then(|| frame.clone())
        });
    }
}
