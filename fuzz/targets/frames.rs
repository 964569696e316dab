//! The control stream as a peer could send it, along the app's own path: bytes cut into
//! arbitrary reads and framed into lines (transport), decoded (the backend), batched for the
//! window as the line itself and read back (the IPC hop, `ipc::PumpBatch`), sanitised and
//! decoded again (the UI store), folded into
//! the session reducer; then the transcript exported the two ways a person can save it.
//! Any panic, overflow or debug assertion is a finding, and so is a broken invariant:
//! - the window reads every frame the backend decoded as the same frame, and a batch keeps
//!   its items apart and in order;
//! - the sanitiser leaves no control or bidi character in any string or key;
//! - the reducer keeps its transcript keys non-zero and strictly increasing (its lookups
//!   binary-search on them), never reuses a key, and closes every replay window by time.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ipc::{PumpBatch, PumpEvent, PumpItem, Status};
use protocol::codec::{decode_server, decode_server_value, LineEvent, LineSplitter};
use protocol::session::export::{entry_matches, to_html, to_markdown};
use protocol::session::{sanitize_value, SessionModel};
use serde_json::Value;

/// What the sanitiser promises to remove (control characters but `\n` and `\t`, and the
/// bidi embeddings, overrides and isolates), written out here rather than borrowed from it.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn assert_clean(value: &Value) {
    match value {
        Value::String(s) => assert!(!s.chars().any(forbidden), "sanitised text kept {s:?}"),
        Value::Array(items) => items.iter().for_each(assert_clean),
        Value::Object(map) => {
            for (k, v) in map {
                assert!(!k.chars().any(forbidden), "sanitised key kept {k:?}");
                assert_clean(v);
            }
        }
        _ => {}
    }
}

struct App {
    model: SessionModel,
    now: f64,
    /// The highest transcript key ever seen: a new entry must come above it.
    top_key: u64,
}

impl App {
    fn line(&mut self, line: &str) {
        // The backend: transport decodes the line; a line that does not decode stops here.
        let Ok(frame) = decode_server(line) else {
            return;
        };
        // The IPC hop: the line between two events, as a channel message (a JSON string).
        let mut batch = PumpBatch::default();
        let status = PumpEvent::Status(Status::Connecting);
        batch.event(&status);
        batch.frame(line);
        batch.event(&status);
        let text: String = serde_json::to_string(&batch)
            .and_then(|json| serde_json::from_str(&json))
            .expect("a batch is a JSON string");
        let mut items: Vec<PumpItem> = PumpBatch::items(&text).collect();
        assert_eq!(items.len(), 3, "a batch of three read as {items:?}");
        assert_eq!(items[0], PumpItem::Event(status.clone()));
        assert_eq!(items[2], PumpItem::Event(status));
        let mut value = match items.remove(1) {
            PumpItem::Frame(value) => value,
            other => panic!("the frame was read as {other:?}"),
        };
        // The UI store: what it parsed is what the backend decoded, before the sanitiser.
        let again = decode_server_value(value.clone()).expect("the window's frame decodes");
        assert_eq!(again, frame, "a frame changed on its way to the window: {line}");
        // Then it sanitises every string, decodes, applies.
        sanitize_value(&mut value);
        assert_clean(&value);
        let Ok(frame) = decode_server_value(value) else {
            return;
        };
        self.now += 250.0;
        self.model.apply(&frame, self.now);
        self.check();
        self.model.tick(self.now);
        self.check();
    }

    fn check(&mut self) {
        let entries = self.model.transcript().entries();
        let mut last = 0;
        for e in entries {
            assert!(
                e.key > last,
                "transcript keys out of order: {} after {last}",
                e.key
            );
            last = e.key;
            assert!(
                self.model.entry_by_key(e.key).is_some(),
                "entry {} not found by its key",
                e.key
            );
        }
        // Keys above every key seen before are new; below, they must be entries still held.
        self.top_key = self.top_key.max(last);
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the read size, so one input is also tried as many small reads
    // (a line split across reads, a `\r\n` split in two).
    let Some((&cut, bytes)) = data.split_first() else {
        return;
    };
    let read = usize::from(cut % 64) + 1;
    let mut lines = LineSplitter::new();
    let mut app = App {
        model: SessionModel::new(),
        now: 0.0,
        top_key: 0,
    };
    let mut seen_keys = std::collections::BTreeSet::new();
    let mut feed = |event: LineEvent, app: &mut App| {
        if let LineEvent::Line(line) = event {
            let before = app.top_key;
            app.line(&line);
            for e in app.model.transcript().entries() {
                // A key is never reused: one above the old top is new, and must be unseen.
                if e.key > before {
                    assert!(seen_keys.insert(e.key), "key {} reused", e.key);
                } else {
                    assert!(
                        seen_keys.contains(&e.key),
                        "key {} appeared below the top",
                        e.key
                    );
                }
            }
        }
    };
    for chunk in bytes.chunks(read) {
        for event in lines.push(chunk) {
            feed(event, &mut app);
        }
        // The splitter's promise: a peer cannot make it hold more than one longest line.
        assert!(lines.capacity() <= protocol::codec::MAX_LINE);
    }
    if let Some(event) = lines.finish() {
        feed(event, &mut app);
    }
    // A replay window that never closed is closed by time, as in the app.
    app.model.tick(app.now + 60_000.0);
    assert!(
        !app.model.is_replaying(),
        "a replay window outlived its time"
    );
    let entries = app.model.transcript().entries();
    let _ = to_markdown(entries, "room", "2026-12-02");
    let _ = to_html(entries, "room", "2026-12-02");
    for entry in entries.iter().take(8) {
        let _ = entry_matches(entry, "a");
    }
});
