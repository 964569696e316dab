//! When a module panel may act in the person's name.
//!
//! A panel acts as the player viewing it, so a `panel_intent` puts words in their mouth, and
//! a dot-command in a keeper's window runs with keeper rights. The rules:
//! - an intent leaves only after a real gesture in that panel (a click on a tier-1 choice, a
//!   transient activation inside the tier-2 page's own frame), or after the person confirmed
//!   the exact text in a prompt the host draws;
//! - a command (`.`, `。`, `．`, `/` or `／` first, after whatever nobody sees: [`is_command`])
//!   always needs that confirmation, gesture or not;
//! - at most one prompt waits per panel; what arrives meanwhile without a gesture is dropped
//!   and counted;
//! - each panel has its own rate bucket, so a noisy panel cannot starve the others.

use std::collections::{HashMap, VecDeque};

use crate::frame::PanelIntentKind;

/// Burst and refill of one panel's bucket.
pub const BURST: f64 = 3.0;
pub const PER_SEC: f64 = 1.0;

/// Whether `value` would run as a command at the table (`.r`, `.pack install …`, `/me`, …), or
/// would read as one to the person asked.
///
/// Everything nobody sees is skipped first: the engine's Python `str.strip()` removes every
/// `isspace()` character (which takes in U+001C–U+001F), and a person sees no control, format
/// character (U+200B, U+FEFF, …) or blank of any script (U+3000, …). What starts with a dot or
/// slash after that, or a full-width or look-alike one, is a command. Wider than the engine on
/// purpose: a value the engine would only narrate still asks if it looks like a command.
pub fn is_command(value: &str) -> bool {
    value
        .chars()
        .find(|c| !is_unseen(*c))
        .is_some_and(is_command_mark)
}

/// A dot or slash that starts a command, and the look-alikes a person reads as one.
fn is_command_mark(c: char) -> bool {
    matches!(c, '.' | '。' | '．' | '｡' | '﹒' | '/' | '／' | '∕' | '⁄')
}

/// A character neither the engine's strip nor a reader would see: whitespace of any script,
/// controls (U+001C–U+001F among them), format characters and the other default-ignorable
/// code points, and the blank fillers that render as nothing.
pub fn is_unseen(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            // Format characters (Cf) and default-ignorable code points.
            '\u{00AD}'
                | '\u{034F}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061C}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08E2}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{110CD}'
                | '\u{13430}'..='\u{1343F}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// What the table would see: a roll goes out as `.r <value>` (and is the dice engine's to
/// check), everything else verbatim.
pub fn shown(kind: &PanelIntentKind, value: &str) -> String {
    match kind {
        PanelIntentKind::Roll => format!(".r {value}"),
        _ => value.to_owned(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Goes to the table now.
    Send,
    /// Waits for the person's Send / Dismiss.
    Ask,
    /// Dropped (counted): a prompt for this panel is already waiting, or the bucket is empty.
    Drop,
}

/// One intent waiting for the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub id: u64,
    pub panel: String,
    pub kind: PanelIntentKind,
    pub value: String,
}

/// The gate's whole state: buckets, waiting prompts, and how many were dropped.
#[derive(Debug, Default, Clone)]
pub struct IntentGate {
    buckets: HashMap<String, (f64, f64)>,
    pending: VecDeque<Pending>,
    next_id: u64,
    /// Intents dropped since the count was last cleared.
    pub dropped: u32,
    /// The panel that last had one dropped.
    pub last_dropped_panel: Option<String>,
}

impl IntentGate {
    fn take_token(&mut self, panel: &str, now_ms: f64) -> bool {
        let (tokens, last) = self
            .buckets
            .entry(panel.to_owned())
            .or_insert((BURST, now_ms));
        *tokens = (*tokens + (now_ms - *last).max(0.0) / 1000.0 * PER_SEC).min(BURST);
        *last = now_ms;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }

    fn drop_one(&mut self, panel: &str) -> Verdict {
        self.dropped += 1;
        self.last_dropped_panel = Some(panel.to_owned());
        Verdict::Drop
    }

    /// Decides one intent. `gesture`: it followed a real user gesture inside this panel.
    pub fn offer(
        &mut self,
        panel: &str,
        kind: PanelIntentKind,
        value: &str,
        gesture: bool,
        now_ms: f64,
    ) -> Verdict {
        // A roll's own `.r` is the table's to check; its value must not smuggle a command.
        let command = is_command(value);
        if gesture && !command {
            return if self.take_token(panel, now_ms) {
                Verdict::Send
            } else {
                self.drop_one(panel)
            };
        }
        if self.pending.iter().any(|p| p.panel == panel) {
            return self.drop_one(panel);
        }
        self.next_id += 1;
        self.pending.push_back(Pending {
            id: self.next_id,
            panel: panel.to_owned(),
            kind,
            value: value.to_owned(),
        });
        Verdict::Ask
    }

    /// The prompt to show now (the oldest waiting).
    pub fn prompt(&self) -> Option<&Pending> {
        self.pending.front()
    }

    /// The person answered prompt `id`: `Some(intent)` to send when they chose Send.
    pub fn answer(&mut self, id: u64, send: bool) -> Option<Pending> {
        let i = self.pending.iter().position(|p| p.id == id)?;
        let p = self.pending.remove(i)?;
        send.then_some(p)
    }

    /// A panel went away (unmounted, manifest replaced): its prompts go with it.
    pub fn forget_panel(&mut self, panel: &str) {
        self.pending.retain(|p| p.panel != panel);
    }

    /// The manifest changed: prompts of panels no longer in it go.
    pub fn keep_panels(&mut self, ids: &[String]) {
        self.pending.retain(|p| ids.contains(&p.panel));
    }

    pub fn clear_dropped(&mut self) {
        self.dropped = 0;
        self.last_dropped_panel = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PanelIntentKind::*;

    #[test]
    fn commands_are_recognised_in_every_form() {
        for c in [
            ".pack install x",
            "  .model key k",
            "。r 1d6",
            "/me waves",
            "／roll",
        ] {
            assert!(is_command(c), "{c}");
        }
        for c in ["I open the door", "1d20", "", "a.b"] {
            assert!(!is_command(c), "{c}");
        }
    }

    /// Issue #28 item 3: what the engine strips (Python `str.strip()` takes U+001C–U+001F and
    /// every Unicode space) and what a person cannot see do not hide a command.
    #[test]
    fn a_command_behind_unseen_characters_or_in_full_width_is_still_one() {
        for c in [
            "\u{1f}.x",
            "\u{1c}\u{1d}\u{1e}.panels enable evil",
            "\u{200b}.x",
            "\u{feff}/me",
            "．x",
            "／roll",
            " \u{3000}.r",
            "\u{85}\u{a0}\u{2028}.r 1d6",
            "\u{2060}\u{200d}\u{e0001}。r",
            "\u{3164}\u{115f}.x",
        ] {
            assert!(is_command(c), "{c:?}");
        }
        for c in ["\u{200b}I wave", "\u{3000}1d20", "\u{feff}", "x．y"] {
            assert!(!is_command(c), "{c:?}");
        }
        // Through the gate: a gesture does not carry it past the prompt.
        let mut g = IntentGate::default();
        assert_eq!(
            g.offer("p/a", Input, "\u{1f}.panels enable evil", true, 0.0),
            Verdict::Ask
        );
    }

    #[test]
    fn a_gesture_sends_plain_words_but_never_a_command() {
        let mut g = IntentGate::default();
        assert_eq!(
            g.offer("p/a", Choice, "I open the door", true, 0.0),
            Verdict::Send
        );
        assert_eq!(
            g.offer("p/a", Input, ".pack install evil", true, 0.0),
            Verdict::Ask
        );
        assert_eq!(g.prompt().unwrap().value, ".pack install evil");
        // A roll is `.r <expr>` at the table: the dice engine checks it, no prompt needed…
        assert_eq!(g.offer("p/b", Roll, "1d20", true, 0.0), Verdict::Send);
        // …unless its value itself is a command.
        assert_eq!(
            g.offer("p/b", Roll, ".panels enable x", true, 0.0),
            Verdict::Ask
        );
    }

    #[test]
    fn without_a_gesture_one_prompt_waits_and_the_rest_are_counted() {
        let mut g = IntentGate::default();
        assert_eq!(g.offer("p/a", Input, "one", false, 0.0), Verdict::Ask);
        assert_eq!(g.offer("p/a", Input, "two", false, 0.0), Verdict::Drop);
        assert_eq!(g.offer("p/a", Input, "three", false, 0.0), Verdict::Drop);
        assert_eq!(
            (g.dropped, g.last_dropped_panel.as_deref()),
            (2, Some("p/a"))
        );
        // Another panel gets its own prompt.
        assert_eq!(g.offer("p/b", Input, "b", false, 0.0), Verdict::Ask);
        let first = g.prompt().unwrap().clone();
        assert_eq!(first.value, "one");
        assert_eq!(
            g.answer(first.id, true).map(|p| p.value),
            Some("one".into())
        );
        assert_eq!(g.prompt().unwrap().value, "b");
        let id = g.prompt().unwrap().id;
        assert_eq!(g.answer(id, false), None);
        assert!(g.prompt().is_none());
        // The panel may ask again once its prompt was answered.
        assert_eq!(g.offer("p/a", Input, "four", false, 0.0), Verdict::Ask);
        g.forget_panel("p/a");
        assert!(g.prompt().is_none());
    }

    #[test]
    fn each_panel_has_its_own_bucket() {
        let mut g = IntentGate::default();
        for _ in 0..3 {
            assert_eq!(g.offer("noisy", Choice, "x", true, 0.0), Verdict::Send);
        }
        assert_eq!(g.offer("noisy", Choice, "x", true, 10.0), Verdict::Drop);
        // The noisy panel's flood leaves the quiet one's choices alone.
        assert_eq!(g.offer("quiet", Choice, "y", true, 10.0), Verdict::Send);
        // A second later the noisy one has a token again.
        assert_eq!(g.offer("noisy", Choice, "x", true, 1010.0), Verdict::Send);
    }
}
