//! A byte-buffer line framer for the control stream (no I/O: feed it whatever the
//! transport read). Memory is bounded: a line longer than [`MAX_LINE`] is dropped
//! up to its newline without being buffered, and reported once.

/// The longest control line accepted, in bytes (newline excluded).
pub const MAX_LINE: usize = 1024 * 1024;

/// What one push produced, in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEvent {
    /// One complete line, without its `\n` / `\r\n`. Blank lines are skipped.
    Line(String),
    /// A line over [`MAX_LINE`] was discarded (`discarded` bytes, newline excluded).
    Oversize { discarded: usize },
    /// A complete line that was not UTF-8; it was dropped.
    BadUtf8,
}

/// Splits a byte stream into lines.
#[derive(Debug, Default)]
pub struct LineSplitter {
    buf: Vec<u8>,
    /// `Some(n)` while skipping an oversize line: `n` bytes dropped so far.
    discarding: Option<usize>,
}

impl LineSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; returns every event they completed.
    pub fn push(&mut self, mut bytes: &[u8]) -> Vec<LineEvent> {
        let mut events = Vec::new();
        while let Some(newline) = bytes.iter().position(|&b| b == b'\n') {
            self.absorb(&bytes[..newline]);
            events.extend(self.end_line());
            bytes = &bytes[newline + 1..];
        }
        self.absorb(bytes);
        events
    }

    /// End of stream: a final line without a trailing newline still counts.
    pub fn finish(&mut self) -> Option<LineEvent> {
        if self.buf.is_empty() && self.discarding.is_none() {
            return None;
        }
        self.end_line()
    }

    /// Bytes currently held (a partial line).
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Capacity currently allocated; never more than [`MAX_LINE`].
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Appends part of the current line, switching to discard mode once it would
    /// exceed `MAX_LINE`.
    fn absorb(&mut self, part: &[u8]) {
        if let Some(dropped) = &mut self.discarding {
            *dropped += part.len();
            return;
        }
        let needed = self.buf.len() + part.len();
        if needed > MAX_LINE {
            self.discarding = Some(needed);
            // Release the allocation: an oversize line must not pin a MiB forever.
            self.buf = Vec::new();
            return;
        }
        if needed > self.buf.capacity() {
            // Grow geometrically but never past MAX_LINE (plain `extend` could
            // double a 0.9 MiB buffer to 1.8 MiB).
            let target = (self.buf.capacity() * 2).clamp(needed, MAX_LINE);
            self.buf.reserve_exact(target - self.buf.len());
        }
        self.buf.extend_from_slice(part);
    }

    /// Closes the current line at a newline (or end of stream).
    fn end_line(&mut self) -> Option<LineEvent> {
        if let Some(discarded) = self.discarding.take() {
            return Some(LineEvent::Oversize { discarded });
        }
        let mut line = std::mem::take(&mut self.buf);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        // Keep a modest allocation around for the next line.
        if line.capacity() <= 64 * 1024 {
            self.buf = Vec::with_capacity(line.capacity());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        Some(match String::from_utf8(line) {
            Ok(line) => LineEvent::Line(line),
            Err(_) => LineEvent::BadUtf8,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::decode_server;
    use crate::ServerFrame;

    const CHUNK: usize = 64 * 1024;

    #[test]
    fn splits_lines_across_chunks_and_crlf() {
        let mut s = LineSplitter::new();
        assert_eq!(
            s.push(b"{\"a\":1}\r\n{\"b\""),
            vec![LineEvent::Line("{\"a\":1}".into())]
        );
        assert_eq!(s.push(b":2}\r"), vec![]);
        assert_eq!(
            s.push(b"\n\n  \r\n"),
            vec![LineEvent::Line("{\"b\":2}".into())]
        );
        assert_eq!(s.push(b"tail"), vec![]);
        assert_eq!(s.finish(), Some(LineEvent::Line("tail".into())));
        assert_eq!(s.finish(), None);
    }

    #[test]
    fn bad_utf8_is_reported_and_the_stream_continues() {
        let mut s = LineSplitter::new();
        let events = s.push(b"\xff\xfe\n{\"type\":\"pong\",\"t\":1}\n");
        assert_eq!(events[0], LineEvent::BadUtf8);
        assert_eq!(
            events[1],
            LineEvent::Line("{\"type\":\"pong\",\"t\":1}".into())
        );
    }

    #[test]
    fn a_line_of_exactly_max_line_is_kept() {
        let mut s = LineSplitter::new();
        let line = vec![b'x'; MAX_LINE];
        assert!(s.push(&line).is_empty());
        assert!(s.capacity() <= MAX_LINE);
        match s.push(b"\n").as_slice() {
            [LineEvent::Line(l)] => assert_eq!(l.len(), MAX_LINE),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn oversize_line_is_dropped_with_bounded_memory_and_reported_once() {
        let mut s = LineSplitter::new();
        let big = 3 * MAX_LINE;
        let mut events = Vec::new();
        // A leading frame, then a 3 MiB line, fed in 64 KiB chunks.
        events.extend(s.push(b"{\"type\":\"pong\",\"t\":1}\n"));
        let chunk = vec![b'x'; CHUNK];
        for _ in 0..big / CHUNK {
            events.extend(s.push(&chunk));
            assert!(
                s.capacity() <= MAX_LINE + CHUNK,
                "capacity {}",
                s.capacity()
            );
            assert!(s.buffered() <= MAX_LINE);
        }
        // The newline ends the oversize line; the next line arrives in the same chunk.
        events.extend(s.push(b"\n{\"type\":\"pong\",\"t\":2}\n"));
        assert_eq!(events.len(), 3, "{events:?}");
        assert_eq!(events[1], LineEvent::Oversize { discarded: big });
        let LineEvent::Line(next) = &events[2] else {
            panic!("expected a line, got {:?}", events[2]);
        };
        match decode_server(next) {
            Ok(ServerFrame::Pong(p)) => assert_eq!(p.t, 2.0),
            other => panic!("unexpected {other:?}"),
        }
        assert!(s.capacity() <= MAX_LINE + CHUNK);
    }

    #[test]
    fn oversize_line_split_exactly_at_the_limit() {
        let mut s = LineSplitter::new();
        let mut events = s.push(&vec![b'y'; MAX_LINE]);
        events.extend(s.push(b"y\nok\n"));
        assert_eq!(
            events,
            vec![
                LineEvent::Oversize {
                    discarded: MAX_LINE + 1
                },
                LineEvent::Line("ok".into())
            ]
        );
    }
}
