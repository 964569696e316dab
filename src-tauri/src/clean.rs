//! Strings that reach the UI from outside frames — the saved-tables file, connection and join
//! reasons, upload and panel-mount errors (which can quote a server's words) — pass the same
//! sanitiser as frames: no control or bidi characters, and a length a sentence can have.

use protocol::session::sanitize_text;
use transport::ConnectionStatus;

/// Longest reason or name shown (characters); more is cut with an ellipsis.
pub const MAX_CHARS: usize = 2000;

pub fn text(s: &str) -> String {
    let clean = sanitize_text(s);
    if clean.chars().count() <= MAX_CHARS {
        return clean;
    }
    let mut cut: String = clean.chars().take(MAX_CHARS).collect();
    cut.push('…');
    cut
}

/// The connection's state as the status bar reads it, its reasons sanitised.
pub fn status(s: ConnectionStatus) -> ipc::Status {
    match s {
        ConnectionStatus::Connecting => ipc::Status::Connecting,
        ConnectionStatus::Online { latency_ms } => ipc::Status::Online { latency_ms },
        ConnectionStatus::Reconnecting { attempt, in_ms } => {
            ipc::Status::Reconnecting { attempt, in_ms }
        }
        ConnectionStatus::Refused { reason } => ipc::Status::Refused {
            reason: text(&reason),
        },
        ConnectionStatus::Closed { reason } => ipc::Status::Closed {
            reason: text(&reason),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_strings_get_the_frames_sanitiser() {
        assert_eq!(text("a\u{202E}b\u{0007}c\u{2066}d\ne"), "abcd\ne");
        let long = text(&"x".repeat(MAX_CHARS + 50));
        assert_eq!(long.chars().count(), MAX_CHARS + 1);
        let refused = status(ConnectionStatus::Refused {
            reason: "bad\u{202E}key".into(),
        });
        assert!(matches!(refused, ipc::Status::Refused { reason } if reason == "badkey"));
    }
}
