//! `.bgm` / `.ambience` / `.sfx`: playback intents. The table never plays audio; it
//! broadcasts `audio_control` and persists bgm/ambience as `audio_state` for joiners.

use serde_json::{json, Map, Value};

use crate::commands::{system_all, system_frame};
use crate::ids::{new_id, now_ms};
use crate::room::{Member, RoomState};

/// Finds a library item by exact name/title, hash prefix, or name substring.
fn find_audio(st: &RoomState, query: &str) -> Option<Value> {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return None;
    }
    let items = &st.saved.audio_items;
    let field = |i: &Value, k: &str| i[k].as_str().unwrap_or("").to_lowercase();
    items
        .iter()
        .find(|i| field(i, "name") == q || field(i, "title") == q)
        .or_else(|| {
            items
                .iter()
                .find(|i| q.len() >= 8 && field(i, "hash").starts_with(&q))
        })
        .or_else(|| {
            items
                .iter()
                .find(|i| field(i, "name").contains(&q) || field(i, "title").contains(&q))
        })
        .cloned()
}

fn parse_volume(raw: &str) -> Option<f64> {
    let v: f64 = raw.trim().trim_end_matches('%').parse().ok()?;
    let v = if v > 1.0 { v / 100.0 } else { v };
    Some(v.clamp(0.0, 1.0))
}

fn state_frame(st: &RoomState) -> Value {
    json!({"type": "audio_state", "layers": st.saved.audio})
}

fn layer_mut<'a>(st: &'a mut RoomState, layer: &str) -> Option<&'a mut Value> {
    st.saved.audio.iter_mut().find(|l| l["layer"] == layer)
}

/// `announce` adds the system reply a typed command gets; story cues stay silent.
pub fn audio_command(st: &mut RoomState, member: &Member, layer: &str, rest: &str, announce: bool) {
    if !member.is_keeper() {
        return member.send(&system_frame("Only the keeper can control audio."));
    }
    let (action, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (action, arg) = if layer == "sfx" && !matches!(action, "play" | "stop") {
        ("play", rest)
    } else {
        (action, arg)
    };
    let mut control = Map::new();
    control.insert("type".into(), json!("audio_control"));
    control.insert("id".into(), json!(new_id()));
    control.insert("action".into(), json!(action));
    control.insert("layer".into(), json!(layer));
    let reply;
    match action {
        "play" => {
            let Some(item) = find_audio(st, arg) else {
                return system_all(st, &format!("Audio not found: {}", arg.trim()));
            };
            let looped = layer != "sfx";
            let volume = layer_mut(st, layer)
                .and_then(|l| l["volume"].as_f64())
                .unwrap_or(0.8);
            for k in ["hash", "mime", "name", "title"] {
                if let Some(v) = item.get(k) {
                    control.insert(k.into(), v.clone());
                }
            }
            control.insert("loop".into(), json!(looped));
            control.insert("volume".into(), json!(volume));
            control.insert("fade_ms".into(), json!(if looped { 1500 } else { 0 }));
            control.insert("position_ms".into(), json!(0));
            control.insert("server_ts".into(), json!(now_ms()));
            if layer != "sfx" {
                let mut entry = Map::new();
                entry.insert("layer".into(), json!(layer));
                for k in ["hash", "mime", "name", "title"] {
                    if let Some(v) = item.get(k) {
                        entry.insert(k.into(), v.clone());
                    }
                }
                entry.insert("playing".into(), json!(true));
                entry.insert("volume".into(), json!(volume));
                entry.insert("loop".into(), json!(true));
                entry.insert("started_at".into(), json!(now_ms()));
                st.saved.audio.retain(|l| l["layer"] != layer);
                st.saved.audio.push(Value::Object(entry));
            }
            reply = format!(
                "Playing {} on {layer}.",
                item["name"].as_str().unwrap_or("")
            );
        }
        "stop" => {
            st.saved.audio.retain(|l| l["layer"] != layer);
            control.insert("fade_ms".into(), json!(1000));
            reply = format!("Stopped {layer}.");
        }
        "pause" | "resume" => {
            let Some(l) = layer_mut(st, layer) else {
                return system_all(st, &format!("Nothing is playing on {layer}."));
            };
            l["playing"] = json!(action == "resume");
            reply = format!(
                "{} {layer}.",
                if action == "pause" {
                    "Paused"
                } else {
                    "Resumed"
                }
            );
        }
        "volume" => {
            let Some(v) = parse_volume(arg) else {
                return member.send(&system_frame("Usage: .bgm volume <0-100>"));
            };
            if let Some(l) = layer_mut(st, layer) {
                l["volume"] = json!(v);
            }
            control.insert("volume".into(), json!(v));
            reply = format!("{layer} volume {}%.", (v * 100.0).round());
        }
        _ => {
            return member.send(&system_frame(&format!(
                "Usage: .{layer} play <audio>|stop|pause|resume|volume <0-100>"
            )))
        }
    }
    st.broadcast(&Value::Object(control));
    if layer != "sfx" {
        let frame = state_frame(st);
        st.broadcast(&frame);
    }
    if announce {
        system_all(st, &reply);
    }
}
