//! The window's hop measured both ways, for `cargo xtask bench` (issue 22's question: would
//! passing the raw sanitised line to the UI, parsed once in wasm, be faster end to end?).
//!
//! - **typed** (what Studio ships): the backend's decoded frames serialised as a [`PumpBatch`];
//!   the page turns the channel message into JSON text, parses it, sanitises each frame's value,
//!   decodes it and applies it.
//! - **raw** (the alternative at its most favourable): the backend forwards the lines it read,
//!   one newline-joined string per batch; the page splits, parses, sanitises, decodes, applies.
//!
//! The backend decodes every line either way (it routes frames and answers pings), so its share
//! here is only what each shape adds: serialising the frames, or joining and escaping the lines.

use protocol::codec::decode_server;
use protocol::session::{sanitize_value, SessionModel};
use serde_json::Value;

use crate::pump::{PumpBatch, PumpEvent};

/// The backend's share, typed: `lines` decoded, cut into batches of `per`, each serialised as
/// the channel message. Lines that do not decode are left out (the app sends a reason instead).
pub fn typed_batches(lines: &[String], per: usize) -> Vec<String> {
    lines
        .chunks(per.max(1))
        .map(|chunk| {
            let batch: PumpBatch = chunk
                .iter()
                .filter_map(|l| decode_server(l).ok())
                .map(PumpEvent::Frame)
                .collect();
            serde_json::to_string(&batch).expect("a batch serialises")
        })
        .collect()
}

/// The backend's share, raw: the same lines decoded (as the backend must), cut into batches
/// of `per`, each forwarded as one newline-joined string (serialised: a JSON string).
pub fn raw_batches(lines: &[String], per: usize) -> Vec<String> {
    lines
        .chunks(per.max(1))
        .map(|chunk| {
            let kept: Vec<&str> = chunk
                .iter()
                .filter(|l| decode_server(l).is_ok())
                .map(String::as_str)
                .collect();
            serde_json::to_string(&kept.join("\n")).expect("a string serialises")
        })
        .collect()
}

/// The page's share, typed: each batch's JSON text into a fresh model, as the store takes it.
/// Returns the frames applied.
pub fn fold_typed(batches: &[String]) -> usize {
    let mut model = SessionModel::new();
    let mut applied = 0;
    for text in batches {
        let Ok(events) = serde_json::from_str::<Vec<PumpEvent<Value>>>(text) else {
            continue;
        };
        for event in events {
            if let PumpEvent::Frame(mut v) = event {
                sanitize_value(&mut v);
                if let Ok(frame) = protocol::codec::decode_server_value(v) {
                    model.apply(&frame, applied as f64);
                    applied += 1;
                }
            }
        }
    }
    applied
}

/// The page's share, raw: each batch's newline-joined lines (the channel message as the page
/// receives a string: no JSON around it) into a fresh model. Returns the frames applied.
pub fn fold_raw(batches: &[String]) -> usize {
    let mut model = SessionModel::new();
    let mut applied = 0;
    for joined in batches {
        for line in joined.split('\n') {
            let Ok(mut value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            sanitize_value(&mut value);
            if let Ok(frame) = protocol::codec::decode_server_value(value) {
                model.apply(&frame, applied as f64);
                applied += 1;
            }
        }
    }
    applied
}

/// What the page receives of a raw batch: the JSON string, unquoted.
pub fn unquote(batch: &str) -> String {
    serde_json::from_str(batch).expect("a raw batch is a JSON string")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<String> {
        vec![
            r#"{"type":"narrative","id":"n1","speaker":"kp","text":"Rain\u0007.","format":"markdown"}"#.into(),
            "not json".into(),
            r#"{"type":"narrative","id":"n2","speaker":"kp","text":"Thunder.","format":"markdown"}"#.into(),
            // A type this client does not know decodes (and is ignored by the model).
            r#"{"type":"from_a_later_minor","x":1}"#.into(),
        ]
    }

    #[test]
    fn both_ways_apply_the_same_frames() {
        let typed = fold_typed(&typed_batches(&lines(), 2));
        let raw: Vec<String> = raw_batches(&lines(), 2)
            .iter()
            .map(|b| unquote(b))
            .collect();
        assert_eq!(typed, 3);
        assert_eq!(fold_raw(&raw), typed);
    }
}
