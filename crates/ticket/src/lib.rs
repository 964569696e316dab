//! Reading a ticket the way people paste it: wrapped over lines, padded with spaces, quoted, or
//! prefixed `ticket=` (as the engine's banner prints it).

use std::str::FromStr;

use iroh_tickets::endpoint::EndpointTicket;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TicketError {
    #[error(
        "the ticket is empty: paste the ticket the table printed (it starts with \"endpoint\")"
    )]
    Empty,
    #[error(
        "that is not an iroh endpoint ticket (a ticket starts with \"endpoint\" and has no spaces): {reason}"
    )]
    Invalid { reason: String },
}

/// Parses a pasted ticket into an [`EndpointTicket`].
pub fn parse_ticket(pasted: &str) -> Result<EndpointTicket, TicketError> {
    // Line breaks and spaces are never part of a ticket: a wrapped paste is still one ticket.
    let mut text: String = pasted.chars().filter(|c| !c.is_whitespace()).collect();
    for quote in ['"', '\'', '`', '<'] {
        let close = if quote == '<' { '>' } else { quote };
        if text.len() >= 2 && text.starts_with(quote) && text.ends_with(close) {
            text = text[1..text.len() - 1].to_string();
        }
    }
    // `get` never splits a multi-byte character: a pasted "abcdef中" is an error, not a panic.
    if text
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("ticket="))
    {
        text.drain(..7);
    }
    let text = text.to_ascii_lowercase();
    if text.is_empty() {
        return Err(TicketError::Empty);
    }
    if !text.starts_with("endpoint") {
        let shown: String = text.chars().take(12).collect();
        return Err(TicketError::Invalid {
            reason: format!("it starts with \"{shown}…\""),
        });
    }
    EndpointTicket::from_str(&text).map_err(|e| TicketError::Invalid {
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_is_an_error_not_a_panic() {
        assert!(parse_ticket("abcdef中").is_err());
        assert!(parse_ticket("\"中\"").is_err());
    }
    use iroh::{EndpointAddr, SecretKey};

    fn sample() -> String {
        let key = SecretKey::from_bytes(&[7u8; 32]);
        let addr = EndpointAddr::new(key.public()).with_ip_addr("127.0.0.1:4242".parse().unwrap());
        EndpointTicket::new(addr).to_string()
    }

    #[test]
    fn accepts_what_people_paste() {
        let t = sample();
        let want = parse_ticket(&t).unwrap();
        let wrapped = format!("  ticket={}\n{}  \r\n", &t[..20], &t[20..]);
        assert_eq!(parse_ticket(&wrapped).unwrap(), want);
        assert_eq!(parse_ticket(&format!("\"{t}\"")).unwrap(), want);
        assert_eq!(parse_ticket(&t.to_uppercase()).unwrap(), want);
    }

    #[test]
    fn rejects_clearly() {
        assert_eq!(parse_ticket(" \n"), Err(TicketError::Empty));
        let err = parse_ticket("hello world").unwrap_err().to_string();
        assert!(err.contains("not an iroh endpoint ticket"), "{err}");
        let t = sample();
        assert!(parse_ticket(&t[..t.len() - 5]).is_err());
    }
}
