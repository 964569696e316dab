//! Newline-delimited lines off a QUIC stream: the control stream and each media stream's header.

use iroh::endpoint::RecvStream;

/// Longest control line accepted; a client streaming garbage without newlines is cut off.
const MAX_LINE: usize = 1 << 20;

/// Reads newline-delimited lines off a QUIC stream.
pub struct LineReader {
    recv: RecvStream,
    buf: Vec<u8>,
    eof: bool,
}

impl LineReader {
    pub fn new(recv: RecvStream) -> Self {
        Self {
            recv,
            buf: Vec::new(),
            eof: false,
        }
    }

    /// The next line (without `\n`), `None` at end of stream or on error.
    pub async fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(pos) = self.buf.iter().position(|b| *b == b'\n') {
                let rest = self.buf.split_off(pos + 1);
                let mut line = std::mem::replace(&mut self.buf, rest);
                line.pop();
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            if self.eof || self.buf.len() > MAX_LINE {
                return None;
            }
            let mut chunk = [0u8; 16 * 1024];
            match self.recv.read(&mut chunk).await {
                Ok(Some(n)) => self.buf.extend_from_slice(&chunk[..n]),
                _ => self.eof = true,
            }
        }
    }

    /// Bytes already buffered past the last line, then the stream itself.
    pub fn into_parts(self) -> (Vec<u8>, RecvStream) {
        (self.buf, self.recv)
    }
}
