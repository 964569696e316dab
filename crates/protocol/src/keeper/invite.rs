//! An invite as one paste-able block: the table's ticket and an invite key together, so a
//! friend pastes once into the connect screen instead of twice.

/// What an invite carries.
#[derive(Clone, PartialEq)]
pub struct Invite {
    pub room: String,
    pub ticket: String,
    pub key: String,
}

impl std::fmt::Debug for Invite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Invite")
            .field("room", &self.room)
            .field("ticket", &self.ticket)
            .field("key", &"…")
            .finish()
    }
}

const TICKET: &str = "Ticket:";
const KEY: &str = "Invite key:";

/// Longest room name the first line shows.
const MAX_ROOM_CHARS: usize = 80;

/// Whether `c` could end a line for someone reading the block: Rust's `lines()` splits on
/// `\n` only, but an editor, a chat client or another paste target may split on `\r`, VT, FF,
/// NEL or U+2028/U+2029.
fn breaks_line(c: char) -> bool {
    (c.is_control() && c != '\t') || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A field value that is one token: nothing that breaks a line, no space.
fn one_token(v: &str) -> bool {
    !v.is_empty() && !v.chars().any(|c| breaks_line(c) || c.is_whitespace())
}

impl Invite {
    /// The block a keeper copies: a line a person can read, then one field per line. Every
    /// field comes from the server, so none may add a line: the room name is flattened to one
    /// line (every line break or control becomes a space, quotes dropped, capped), and a ticket
    /// or key that is not one token gives no block at all (`None`).
    pub fn to_block(&self) -> Option<String> {
        if !one_token(&self.ticket) || !one_token(&self.key) {
            return None;
        }
        let flat: String = self
            .room
            .chars()
            .filter(|c| *c != '"')
            .map(|c| if breaks_line(c) { ' ' } else { c })
            .collect();
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        let flat: String = flat.chars().take(MAX_ROOM_CHARS).collect();
        let room = if flat.is_empty() {
            String::new()
        } else {
            format!(" \"{flat}\"")
        };
        Some(format!(
            "Join my Loreweaver table{room}.\n{TICKET} {}\n{KEY} {}\n",
            self.ticket, self.key
        ))
    }

    /// Reads a pasted block back (any order, extra lines and spaces ignored). `None` when the
    /// text is not an invite block (e.g. a bare ticket), or when it is ambiguous: a field on
    /// more than one line, or a value that is not one token, is refused rather than guessed.
    pub fn parse_block(text: &str) -> Option<(String, String)> {
        let field = |label: &str| {
            let mut found = text
                .split(breaks_line)
                .map(str::trim)
                .filter_map(|l| l.strip_prefix(label))
                .map(str::trim);
            let value = found.next()?;
            (found.next().is_none() && one_token(value)).then(|| value.to_string())
        };
        Some((field(TICKET)?, field(KEY)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_reads_back_and_hides_its_key_from_debug() {
        let i = Invite {
            room: "demo".into(),
            ticket: "endpointabc".into(),
            key: "lw-k-123".into(),
        };
        let block = i.to_block().unwrap();
        assert_eq!(
            Invite::parse_block(&format!("  \r\n{block}  ")),
            Some(("endpointabc".into(), "lw-k-123".into()))
        );
        assert!(!format!("{i:?}").contains("lw-k-123"));
        assert_eq!(Invite::parse_block("endpointabc"), None);
        assert_eq!(Invite::parse_block("Ticket: x\nInvite key:  "), None);
    }

    /// Issue #28 item 9: a room name from the server cannot add a line to the block, and a
    /// paste reads the ticket the keeper meant.
    #[test]
    fn a_room_name_cannot_inject_a_line() {
        for room in [
            "Evil\nTicket: T2",
            "Evil\r\nTicket: T2\nInvite key: K2",
            "Evil\rTicket: T2",
            "Evil\u{2028}Ticket: T2\u{85}Invite key: K2",
            "Evil\"\nTicket: T2\n\"",
        ] {
            let i = Invite {
                room: room.into(),
                ticket: "T1".into(),
                key: "K1".into(),
            };
            let block = i.to_block().unwrap();
            assert_eq!(
                Invite::parse_block(&block),
                Some(("T1".into(), "K1".into())),
                "{room:?} gave {block:?}"
            );
            assert_eq!(
                block.split(breaks_line).filter(|l| !l.is_empty()).count(),
                3
            );
            assert!(block
                .lines()
                .next()
                .unwrap()
                .starts_with("Join my Loreweaver table \"Evil"));
            let ticket_lines = block
                .split(breaks_line)
                .filter(|l| l.trim().starts_with(TICKET));
            assert_eq!(ticket_lines.count(), 1, "{block:?}");
        }
        // A ticket or key with a line in it makes no block.
        for (ticket, key) in [
            ("T1\nTicket: T2", "K1"),
            ("T1", "K1\nx"),
            ("T 1", "K1"),
            ("", "K"),
        ] {
            let i = Invite {
                room: "r".into(),
                ticket: ticket.into(),
                key: key.into(),
            };
            assert_eq!(i.to_block(), None, "{ticket:?} {key:?}");
        }
        // A block with a field twice (an older Studio's, say) is ambiguous: not read at all.
        let two = "Join my Loreweaver table \"x\nTicket: T2\".\nTicket: T1\nInvite key: K1\n";
        assert_eq!(Invite::parse_block(two), None);
    }
}
