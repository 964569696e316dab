//! Sharing a picture or a sound with the room: the bytes arrive from the page as a raw IPC body
//! (never base64, never JSON numbers), go to a private temp file, and are offered and PUT by the
//! transport. Progress and the outcome flow back through the table's channel.

use serde::Serialize;
use tauri::ipc::{Channel, InvokeBody, Request};

use crate::table_session::{PumpBatch, PumpEvent};

/// One upload as the input area shows it.
#[derive(Debug, Clone, Serialize)]
pub struct UploadView {
    pub id: u64,
    pub name: String,
    pub sent: u64,
    pub total: u64,
    /// `Some(hash)` once the room has the bytes.
    pub done: Option<String>,
    pub error: Option<String>,
}

/// What the page sent: the file's bytes and its name and kind (from two headers).
pub struct Payload {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

impl Payload {
    pub fn from_request(request: &Request<'_>) -> Result<Self, String> {
        let InvokeBody::Raw(bytes) = request.body() else {
            return Err("the file did not arrive as raw bytes".into());
        };
        let header = |name: &str| {
            request
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(percent_decode)
                .unwrap_or_default()
        };
        let name = header("x-name");
        let mime = header("x-mime");
        if name.trim().is_empty() {
            return Err("the file has no name".into());
        }
        Ok(Payload {
            name,
            mime,
            bytes: bytes.clone(),
        })
    }
}

/// Sends one upload update to the page; a closed page is not an error here.
pub fn report(channel: &Channel<PumpBatch>, view: &UploadView) {
    // The error may quote the server; the name is the file's own: both are only text.
    let mut view = view.clone();
    view.name = crate::clean::text(&view.name);
    view.error = view.error.map(|e| crate::clean::text(&e));
    let _ = channel.send(vec![PumpEvent::Upload(view)]);
}

/// `encodeURIComponent`'s inverse, for the name header (headers are ASCII only).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn decodes_names() {
        assert_eq!(percent_decode("map%20of%20%E9%9B%BE.png"), "map of 雾.png");
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("a%2"), "a%2");
    }
}
