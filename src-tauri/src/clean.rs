//! Strings that reach the UI from outside frames — the saved-tables file, connection and join
//! reasons, upload and panel-mount errors (which can quote a server's words) — pass the same
//! sanitiser as frames: no control or bidi characters, and a length a sentence can have.

use protocol::session::sanitize_text;
use transport::ConnectionStatus;

use crate::saved_tables::SavedTable;

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

pub fn status(s: ConnectionStatus) -> ConnectionStatus {
    match s {
        ConnectionStatus::Refused { reason } => ConnectionStatus::Refused {
            reason: text(&reason),
        },
        ConnectionStatus::Closed { reason } => ConnectionStatus::Closed {
            reason: text(&reason),
        },
        other => other,
    }
}

pub fn saved(t: SavedTable) -> SavedTable {
    SavedTable {
        name: text(&t.name),
        ticket: text(&t.ticket),
        room: text(&t.room),
        role: text(&t.role),
        refused: t.refused.as_deref().map(text),
        ..t
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
        assert!(matches!(refused, ConnectionStatus::Refused { reason } if reason == "badkey"));
        let t = saved(SavedTable {
            id: "1".into(),
            name: "\u{202E}gnp.exe".into(),
            ticket: "t".into(),
            room: "r\u{001B}[31m".into(),
            role: "player".into(),
            last_used_ms: 0,
            refused: Some("gone\u{202E}".into()),
        });
        assert_eq!(t.refused.as_deref(), Some("gone"));
        assert_eq!((t.name.as_str(), t.room.as_str()), ("gnp.exe", "r[31m"));
    }
}
