//! The engine's output as Studio keeps it: the last 2,000 lines in memory, each redacted first.
//!
//! What is redacted (read from the engine's source): the first-run banner's keeper key
//! (`  Keeper key: <key>`, `  守秘人 key：<key>`), any `key=<value>` (its sidecar files' format),
//! every secret Studio already knows (the keeper key read from `keeper-key.txt`), and any word
//! that looks like an invite key: the engine mints them with `secrets.token_urlsafe(18)` (24
//! characters of `A–Z a–z 0–9 - _`), so a run of 20 to 64 such characters mixing upper and lower
//! case with a digit, `-` or `_` is masked. A ticket (lower-case base32) is not.

use std::collections::VecDeque;

/// How many lines the ring keeps.
pub const RING_LINES: usize = 2000;

/// What a secret becomes.
pub const MASK: &str = "[redacted]";

/// Words after which the rest of the line is a secret (the banner's key line, in both locales).
const KEY_LABELS: &[&str] = &["Keeper key:", "keeper key:", "守秘人 key：", "守秘人 key:"];

fn key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Whether `word` (a run of key characters) looks like an invite key.
pub fn looks_like_key(word: &str) -> bool {
    (20..=64).contains(&word.len())
        && word.chars().all(key_char)
        && word.chars().any(|c| c.is_ascii_uppercase())
        && word.chars().any(|c| c.is_ascii_lowercase())
        && word
            .chars()
            .any(|c| c.is_ascii_digit() || c == '-' || c == '_')
}

/// `line` with every secret masked; `known` are secrets Studio holds (never shorter than 8).
pub fn redact(line: &str, known: &[String]) -> String {
    let mut out = line.to_string();
    for secret in known.iter().filter(|s| s.len() >= 8) {
        out = out.replace(secret.as_str(), MASK);
    }
    for label in KEY_LABELS {
        if let Some(at) = out.find(label) {
            let keep = at + label.len();
            if out[keep..].trim() != MASK {
                out.truncate(keep);
                out.push(' ');
                out.push_str(MASK);
            }
        }
    }
    // `key=<value>` (not `ticket=`): the value up to the next blank is masked.
    let mut masked = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("key=") {
        let value_at = at + "key=".len();
        masked.push_str(&rest[..value_at]);
        let tail = &rest[value_at..];
        let end = tail.find(char::is_whitespace).unwrap_or(tail.len());
        if end > 0 {
            masked.push_str(MASK);
        }
        rest = &tail[end..];
    }
    masked.push_str(rest);
    // Words that look like invite keys.
    let mut result = String::with_capacity(masked.len());
    let mut word = String::new();
    let flush = |word: &mut String, result: &mut String| {
        if looks_like_key(word) {
            result.push_str(MASK);
        } else {
            result.push_str(word);
        }
        word.clear();
    };
    for c in masked.chars() {
        if key_char(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut result);
            result.push(c);
        }
    }
    flush(&mut word, &mut result);
    result
}

/// The engine's last lines, redacted, with a running count (for "since line N" reads).
#[derive(Debug, Default)]
pub struct Ring {
    lines: VecDeque<String>,
    /// How many lines were ever pushed.
    total: u64,
    known: Vec<String>,
}

impl Ring {
    /// A secret to mask from now on (the keeper key once it is read).
    pub fn know(&mut self, secret: &str) {
        let secret = secret.trim();
        if secret.len() >= 8 && !self.known.iter().any(|k| k == secret) {
            self.known.push(secret.to_string());
        }
    }

    /// Redacts `raw` (one line, without its newline), keeps it and returns what was kept.
    pub fn push(&mut self, raw: &str) -> String {
        let line = redact(raw.trim_end_matches(['\r', '\n']), &self.known);
        if self.lines.len() == RING_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line.clone());
        self.total += 1;
        line
    }

    /// The last `n` lines, oldest first.
    pub fn last(&self, n: usize) -> Vec<String> {
        let skip = self.lines.len().saturating_sub(n);
        self.lines.iter().skip(skip).cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn total(&self) -> u64 {
        self.total
    }
}

/// Whether the engine said it runs its offline demo model (no provider configured).
pub fn is_demo_notice(line: &str) -> bool {
    line.contains("running offline demo mode") || line.contains("离线演示模式")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "Zq3-x_9kLmN0pQrStUvWxYz1";

    #[test]
    fn the_first_run_banner_loses_its_key_in_both_locales() {
        assert_eq!(
            redact(&format!("  Keeper key: {KEY}"), &[]),
            format!("  Keeper key: {MASK}")
        );
        assert_eq!(
            redact(&format!("  守秘人 key：{KEY}"), &[]),
            format!("  守秘人 key： {MASK}")
        );
        // Even a key that would not look like one (all lower case) goes with its label.
        assert_eq!(
            redact("  Keeper key: abcdefghijklmnopqrstuvwx", &[]),
            format!("  Keeper key: {MASK}")
        );
        assert_eq!(redact(&format!("key={KEY}"), &[]), format!("key={MASK}"));
        assert_eq!(
            redact("room=table role=keeper key=plainlowercasevalue", &[]),
            format!("room=table role=keeper key={MASK}")
        );
    }

    #[test]
    fn known_secrets_and_key_shaped_words_go_and_tickets_stay() {
        let known = vec!["allsmallletterskey".to_string()];
        assert_eq!(
            redact("joined with allsmallletterskey now", &known),
            format!("joined with {MASK} now")
        );
        assert_eq!(
            redact(&format!("minted {KEY} for alice"), &[]),
            format!("minted {MASK} for alice")
        );
        let ticket = "  Ticket: endpointaaciuzgr5s2mfx3ib4z6u7k2gqdjbg2jgnzm4rxqkdmixbrw";
        assert_eq!(redact(ticket, &[]), ticket);
        let prose = "Iroh transport could not start (ConnectionRefusedError: relay).";
        assert_eq!(redact(prose, &[]), prose);
        let path = "Saved to /home/me/.loreweaver/studio/hosted/my-table/keeper-key.txt.";
        assert_eq!(redact(path, &[]), path);
    }

    #[test]
    fn the_ring_keeps_the_last_two_thousand_lines_redacted() {
        let mut ring = Ring::default();
        ring.know("s3cret-Known-value");
        for i in 0..2500 {
            ring.push(&format!("line {i}\n"));
        }
        assert_eq!(ring.len(), RING_LINES);
        assert_eq!(ring.total(), 2500);
        assert_eq!(ring.last(2), ["line 2498", "line 2499"]);
        assert_eq!(ring.last(1)[0], "line 2499");
        assert_eq!(ring.push("a s3cret-Known-value b"), format!("a {MASK} b"));
        assert!(!ring.is_empty());
    }

    #[test]
    fn the_demo_model_notice_is_recognized() {
        assert!(is_demo_notice(
            "No usable LLM credential configured; running offline demo mode."
        ));
        assert!(is_demo_notice(
            "未配置可用的 LLM 凭据，正在使用离线演示模式。"
        ));
        assert!(!is_demo_notice("serving"));
    }
}
