//! The window's hop measured both ways, for `cargo xtask bench` (issue 22's question: is
//! passing the raw line to the UI, parsed once in wasm, faster end to end? It was: 6.8 µs a
//! frame against 10.9, so Studio ships it, and figure (n) keeps checking it stays the faster).
//!
//! - **raw** (what Studio ships, [`PumpBatch`]): the backend forwards the lines it read; the
//!   page splits them, parses each once, sanitises, decodes, applies.
//! - **typed** (the alternative): the backend's decoded frames serialised as a JSON array; the
//!   page gets them from Tauri as an object, turns that into text again, parses it, sanitises
//!   each frame's value, decodes and applies it.
//!
//! The backend decodes every line either way (it routes frames and answers pings), so its share
//! here is only what each shape adds: joining the lines, or serialising the frames.

use protocol::codec::decode_server;
use protocol::session::{sanitize_value, SessionModel};
use protocol::ServerFrame;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::pump::{PumpBatch, PumpItem};

/// The typed alternative's event: a frame, serialised as the channel once carried it.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Typed<F> {
    Frame(F),
}

/// The backend's share, typed: `lines` decoded, cut into batches of `per`, each serialised as
/// the channel message. Lines that do not decode are left out (the app sends a reason instead).
pub fn typed_batches(lines: &[String], per: usize) -> Vec<String> {
    lines
        .chunks(per.max(1))
        .map(|chunk| {
            let batch: Vec<Typed<ServerFrame>> = chunk
                .iter()
                .filter_map(|l| decode_server(l).ok())
                .map(Typed::Frame)
                .collect();
            serde_json::to_string(&batch).expect("a batch serialises")
        })
        .collect()
}

/// The backend's share, raw (shipped): the same lines decoded (as the backend must), cut into
/// batches of `per`, each a [`PumpBatch`] serialised as the channel message (a JSON string).
pub fn raw_batches(lines: &[String], per: usize) -> Vec<String> {
    lines
        .chunks(per.max(1))
        .map(|chunk| {
            let mut batch = PumpBatch::default();
            for line in chunk {
                if decode_server(line).is_ok() {
                    batch.frame(line);
                }
            }
            serde_json::to_string(&batch).expect("a batch serialises")
        })
        .collect()
}

/// The page's share, typed: each batch's JSON text into a fresh model. Returns the frames applied.
pub fn fold_typed(batches: &[String]) -> usize {
    let mut model = SessionModel::new();
    let mut applied = 0;
    for text in batches {
        let Ok(events) = serde_json::from_str::<Vec<Typed<Value>>>(text) else {
            continue;
        };
        for Typed::Frame(mut v) in events {
            sanitize_value(&mut v);
            if let Ok(frame) = protocol::codec::decode_server_value(v) {
                model.apply(&frame, applied as f64);
                applied += 1;
            }
        }
    }
    applied
}

/// The page's share, raw (shipped): each channel message's text (as the page receives a
/// string: no JSON around it) read as the store reads it, into a fresh model. Returns the
/// frames applied.
pub fn fold_raw(batches: &[String]) -> usize {
    let mut model = SessionModel::new();
    let mut applied = 0;
    for text in batches {
        for item in PumpBatch::items(text) {
            if let PumpItem::Frame(mut value) = item {
                sanitize_value(&mut value);
                if let Ok(frame) = protocol::codec::decode_server_value(value) {
                    model.apply(&frame, applied as f64);
                    applied += 1;
                }
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
