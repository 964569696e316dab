//! `.bgm` / `.ambience` / `.sfx`: playback intents. The table never plays audio; it
//! broadcasts `audio_control` and persists bgm/ambience as `audio_state` for joiners.

use serde_json::{json, Map, Value};

use crate::model::ids::{new_id, now_ts};
use crate::model::room::{Member, RoomState};
use crate::rules::reply::{system_all, system_frame};

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

/// `<name|title|hash-prefix> [loop|once] [vol N] [fade MS]`, options anywhere after the name.
#[derive(Debug, Default, PartialEq)]
struct PlayArgs {
    query: String,
    looped: Option<bool>,
    volume: Option<f64>,
    fade_ms: Option<u64>,
}

fn parse_play(arg: &str) -> PlayArgs {
    let mut out = PlayArgs::default();
    let mut words = Vec::new();
    let mut tokens = arg.split_whitespace().peekable();
    while let Some(t) = tokens.next() {
        match t.to_lowercase().as_str() {
            "loop" if !words.is_empty() => out.looped = Some(true),
            "once" if !words.is_empty() => out.looped = Some(false),
            "vol" | "volume" if !words.is_empty() => {
                if let Some(v) = tokens.peek().and_then(|n| parse_volume(n)) {
                    out.volume = Some(v);
                    tokens.next();
                } else {
                    words.push(t);
                }
            }
            "fade" if !words.is_empty() => {
                if let Some(ms) = tokens.peek().and_then(|n| n.parse::<u64>().ok()) {
                    out.fade_ms = Some(ms);
                    tokens.next();
                } else {
                    words.push(t);
                }
            }
            _ => words.push(t),
        }
    }
    out.query = words.join(" ");
    out
}

/// `fade MS` on stop/pause/resume/volume.
fn parse_fade(arg: &str) -> Option<u64> {
    let mut tokens = arg.split_whitespace();
    while let Some(t) = tokens.next() {
        if t.eq_ignore_ascii_case("fade") {
            return tokens.next().and_then(|n| n.parse().ok());
        }
    }
    None
}

fn layer_mut<'a>(st: &'a mut RoomState, layer: &str) -> Option<&'a mut Value> {
    st.saved.audio.iter_mut().find(|l| l["layer"] == layer)
}

/// `announce` adds the system reply a typed command gets; story cues stay silent.
pub fn audio_command(st: &mut RoomState, member: &Member, layer: &str, rest: &str, announce: bool) {
    if !member.is_keeper() {
        return member.send(&system_frame("Only the keeper can control audio."));
    }
    let rest = rest.trim();
    let (first, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    // `play` may be left out: `.bgm sea`, `.sfx thunder`.
    let (action, arg) = if matches!(first, "play" | "stop" | "pause" | "resume" | "volume") {
        (first, arg)
    } else {
        ("play", rest)
    };
    let mut control = Map::new();
    control.insert("type".into(), json!("audio_control"));
    control.insert("id".into(), json!(new_id()));
    control.insert("action".into(), json!(action));
    control.insert("layer".into(), json!(layer));
    control.insert("server_ts".into(), json!(now_ts()));
    let reply;
    match action {
        "play" => {
            let args = parse_play(arg);
            let Some(item) = find_audio(st, &args.query) else {
                return system_all(st, &format!("Audio not found: {}", args.query));
            };
            let looped = args.looped.unwrap_or(layer != "sfx");
            for k in ["hash", "mime", "name", "title"] {
                if let Some(v) = item.get(k) {
                    control.insert(k.into(), v.clone());
                }
            }
            control.insert("loop".into(), json!(looped));
            if let Some(v) = args.volume {
                control.insert("volume".into(), json!(v));
            }
            if let Some(f) = args.fade_ms {
                control.insert("fade_ms".into(), json!(f));
            }
            if layer != "sfx" {
                let mut entry = Map::new();
                entry.insert("layer".into(), json!(layer));
                entry.insert("playing".into(), json!(true));
                for k in ["hash", "mime", "name", "title"] {
                    if let Some(v) = item.get(k) {
                        entry.insert(k.into(), v.clone());
                    }
                }
                entry.insert("volume".into(), json!(args.volume.unwrap_or(1.0)));
                entry.insert("loop".into(), json!(looped));
                entry.insert("started_at".into(), json!(now_ts()));
                st.saved.audio.retain(|l| l["layer"] != layer);
                st.saved.audio.push(Value::Object(entry));
            }
            reply = format!(
                "Playing {} on {layer}.",
                item["name"].as_str().unwrap_or("")
            );
        }
        "stop" => {
            // The engine keeps the track named, not playing.
            if let Some(l) = layer_mut(st, layer) {
                l["playing"] = json!(false);
            }
            if let Some(f) = parse_fade(arg) {
                control.insert("fade_ms".into(), json!(f));
            }
            reply = format!("Stopped {layer}.");
        }
        "pause" | "resume" => {
            let Some(l) = layer_mut(st, layer) else {
                return system_all(st, &format!("Nothing is playing on {layer}."));
            };
            // `started_at` is not moved by a resume (as the engine does).
            l["playing"] = json!(action == "resume");
            if let Some(f) = parse_fade(arg) {
                control.insert("fade_ms".into(), json!(f));
            }
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
            let Some(v) = arg.split_whitespace().next().and_then(parse_volume) else {
                return member.send(&system_frame(&format!("Usage: .{layer} volume <0-100>")));
            };
            if let Some(l) = layer_mut(st, layer) {
                l["volume"] = json!(v);
            }
            control.insert("volume".into(), json!(v));
            if let Some(f) = parse_fade(arg) {
                control.insert("fade_ms".into(), json!(f));
            }
            reply = format!("{layer} volume {}%.", (v * 100.0).round());
        }
        _ => unreachable!("the action is one of the five"),
    }
    st.broadcast(&Value::Object(control));
    // A fresh audio_state follows every bgm/ambience control.
    if layer != "sfx" {
        let frame = st.audio_state();
        st.broadcast(&frame);
    }
    if announce {
        system_all(st, &reply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_options_follow_the_name() {
        assert_eq!(
            parse_play("sea at night loop vol 50 fade 2000"),
            PlayArgs {
                query: "sea at night".into(),
                looped: Some(true),
                volume: Some(0.5),
                fade_ms: Some(2000)
            }
        );
        assert_eq!(
            parse_play("thunder once volume 0.3"),
            PlayArgs {
                query: "thunder".into(),
                looped: Some(false),
                volume: Some(0.3),
                fade_ms: None
            }
        );
        // A name that is an option word stays a name.
        assert_eq!(parse_play("loop").query, "loop");
        assert_eq!(parse_fade("fade 700"), Some(700));
    }
}
