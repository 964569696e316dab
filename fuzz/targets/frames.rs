//! The control stream as a peer could send it: bytes cut into arbitrary reads, framed into
//! lines, decoded, and folded into the session reducer, then the transcript exported the two
//! ways a person can save it. Any panic, overflow or debug assertion is a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::codec::{decode_server, LineEvent, LineSplitter};
use protocol::session::export::{entry_matches, to_html, to_markdown};
use protocol::session::SessionModel;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the read size, so one input is also tried as many small reads
    // (a line split across reads, a `\r\n` split in two).
    let Some((&cut, bytes)) = data.split_first() else {
        return;
    };
    let read = usize::from(cut % 64) + 1;
    let mut lines = LineSplitter::new();
    let mut model = SessionModel::new();
    let mut now = 0.0;
    let mut feed = |event: LineEvent, model: &mut SessionModel| {
        if let LineEvent::Line(line) = event {
            if let Ok(frame) = decode_server(&line) {
                now += 250.0;
                model.apply(&frame, now);
                model.tick(now);
            }
        }
    };
    for chunk in bytes.chunks(read) {
        for event in lines.push(chunk) {
            feed(event, &mut model);
        }
        // The splitter's promise: a peer cannot make it hold more than one longest line.
        assert!(lines.capacity() <= protocol::codec::MAX_LINE);
    }
    if let Some(event) = lines.finish() {
        feed(event, &mut model);
    }
    // A replay window that never closed is closed by time, as in the app.
    model.tick(now + 60_000.0);
    let entries = model.transcript().entries();
    let _ = to_markdown(entries, "room", "2026-12-02");
    let _ = to_html(entries, "room", "2026-12-02");
    for entry in entries.iter().take(8) {
        let _ = entry_matches(entry, "a");
    }
});
