//! Studio's command line: `--version`, `--help`, `--pack <dir>` (the pack bench) and a ticket,
//! bare or as a `loreweaver:` link (what the desktop entry hands over when a link is opened),
//! which pre-fills the connect screen. Never an invite key: a key in a link or a shell history
//! is a key shown to others.

use std::ffi::OsString;
use std::path::PathBuf;

pub const USAGE: &str = "Usage: loreweaver-studio [TICKET | loreweaver:TICKET] [--pack DIR]

Loreweaver Studio, the desktop client for Loreweaver tables.

  TICKET            a table's ticket: opens the connect screen with it filled in
  loreweaver:TICKET the same, as a link (loreweaver://TICKET works too)
  --pack DIR        open a pack's source folder on the pack bench
  --version         print the version and exit
  --help            print this and exit

Environment: STUDIO_DATA_DIR (Studio's files), STUDIO_MEDIA_CACHE (the media cache),
STUDIO_LOG_FILE (the log), STUDIO_NETWORK=local (loopback only).";

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cli {
    Run(Startup),
    Version,
    Help,
}

/// What Studio opens with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Startup {
    pub pack: Option<PathBuf>,
    pub ticket: Option<String>,
    /// Arguments Studio did not understand (said on stderr, otherwise ignored).
    pub ignored: Vec<String>,
}

pub fn version_line() -> String {
    format!(
        "Loreweaver Studio {} (wire protocol {})",
        env!("CARGO_PKG_VERSION"),
        protocol::PROTOCOL_VERSION
    )
}

/// Reads the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Cli {
    let mut startup = Startup::default();
    let mut args = args.into_iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--version" | "-V" => return Cli::Version,
            "--help" | "-h" => return Cli::Help,
            "--pack" => startup.pack = args.next().map(PathBuf::from),
            // The end-to-end harness tags each window it starts (to end it later).
            "--e2e-session" => {
                args.next();
            }
            a if a.starts_with('-') => startup.ignored.push(arg),
            a => match ticket_of(a) {
                Some(t) => startup.ticket = Some(t),
                None => startup.ignored.push(arg),
            },
        }
    }
    Cli::Run(startup)
}

/// The ticket in a bare argument or a `loreweaver:` link, if it reads as one.
pub fn ticket_of(arg: &str) -> Option<String> {
    let arg = arg.trim();
    let rest = match arg.split_once(':') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("loreweaver") => {
            let rest = rest.trim_start_matches('/');
            // `loreweaver://join?ticket=…` as well as `loreweaver:…`.
            rest.strip_prefix("join?ticket=")
                .map(|t| t.split('&').next().unwrap_or(t))
                .unwrap_or(rest)
                .trim_end_matches('/')
        }
        _ => arg,
    };
    transport::parse_ticket(rest).ok().map(|_| rest.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn a_ticket() -> String {
        let key = iroh::SecretKey::from_bytes(&[3; 32]);
        let addr =
            iroh::EndpointAddr::new(key.public()).with_ip_addr("127.0.0.1:4242".parse().unwrap());
        iroh_tickets::endpoint::EndpointTicket::new(addr).to_string()
    }

    #[test]
    fn version_and_help_win() {
        assert_eq!(parse(args(&["--version"])), Cli::Version);
        assert_eq!(parse(args(&["--pack", "x", "--help"])), Cli::Help);
        assert!(version_line().contains(env!("CARGO_PKG_VERSION")));
    }

    #[test]
    fn a_ticket_bare_or_as_a_link() {
        let t = a_ticket();
        for form in [
            t.clone(),
            format!("loreweaver:{t}"),
            format!("loreweaver://{t}"),
            format!("LOREWEAVER://{t}/"),
            format!("loreweaver://join?ticket={t}&x=1"),
        ] {
            let Cli::Run(s) = parse(args(&[&form])) else {
                panic!("{form}")
            };
            assert_eq!(s.ticket.as_deref(), Some(t.as_str()), "{form}");
        }
        let Cli::Run(s) = parse(args(&["--e2e-session", "tag", "--pack", "/p", "nonsense"])) else {
            panic!()
        };
        assert_eq!(s.ticket, None);
        assert_eq!(s.pack, Some(PathBuf::from("/p")));
        assert_eq!(s.ignored, ["nonsense"]);
        assert_eq!(ticket_of("loreweaver:not-a-ticket"), None);
    }
}
