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

impl Invite {
    /// The block a keeper copies: a line a person can read, then one field per line.
    pub fn to_block(&self) -> String {
        let room = if self.room.is_empty() {
            String::new()
        } else {
            format!(" \"{}\"", self.room)
        };
        format!(
            "Join my Loreweaver table{room}.\n{TICKET} {}\n{KEY} {}\n",
            self.ticket, self.key
        )
    }

    /// Reads a pasted block back (any order, extra lines and spaces ignored). `None` when the
    /// text is not an invite block, e.g. a bare ticket.
    pub fn parse_block(text: &str) -> Option<(String, String)> {
        let field = |label: &str| {
            text.lines()
                .map(str::trim)
                .find_map(|l| l.strip_prefix(label))
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
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
        let block = i.to_block();
        assert_eq!(
            Invite::parse_block(&format!("  \r\n{block}  ")),
            Some(("endpointabc".into(), "lw-k-123".into()))
        );
        assert!(!format!("{i:?}").contains("lw-k-123"));
        assert_eq!(Invite::parse_block("endpointabc"), None);
        assert_eq!(Invite::parse_block("Ticket: x\nInvite key:  "), None);
    }
}
