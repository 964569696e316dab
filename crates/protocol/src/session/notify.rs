//! What is worth a desktop notification while Studio is in the background: the Keeper's turn
//! ending, a letter arriving, a title card. Pure: the app decides about focus and the setting.

use super::{Changes, EntryBody, SessionModel};
use crate::frame::UiBlock;

/// One reason to tap the person on the shoulder.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    TurnOver,
    Letter { from: Option<String> },
    TitleCard { title: String },
}

/// The notice one applied frame deserves, if any. `had_turn`: a turn was running before it.
pub fn notice_for(model: &SessionModel, changes: &Changes, had_turn: bool) -> Option<Notice> {
    if let Some(EntryBody::TitleCard(card)) = changes
        .title_card
        .and_then(|key| model.entry_by_key(key))
        .map(|e| &e.body)
    {
        return Some(Notice::TitleCard {
            title: card.title.clone(),
        });
    }
    for key in &changes.appended {
        if let Some(EntryBody::Ui(ui)) = model.entry_by_key(*key).map(|e| &e.body) {
            if let Some(UiBlock::Letter(letter)) =
                ui.blocks.iter().find(|b| matches!(b, UiBlock::Letter(_)))
            {
                return Some(Notice::Letter {
                    from: letter.from.clone(),
                });
            }
        }
    }
    (had_turn && changes.turn && model.turn.is_none()).then_some(Notice::TurnOver)
}

/// The longest title and body a notification carries (characters; the rest becomes "…").
pub const TITLE_CHARS: usize = 80;
pub const BODY_CHARS: usize = 240;

/// Server text made safe for a desktop notification. Some notification servers render markup in
/// the body (the freedesktop `body-markup` capability), so the body is escaped; the title is
/// plain text on a compliant server, so an entity there would show as `&amp;`: its markup
/// characters become lookalikes instead. Both are cut to one line of sensible length.
pub fn desktop_text(title: &str, body: &str) -> (String, String) {
    let one_line = |s: &str, max: usize| -> String {
        let flat: String = s
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.chars().count() > max {
            flat.chars().take(max - 1).chain(['…']).collect()
        } else {
            flat
        }
    };
    let title = one_line(title, TITLE_CHARS)
        .replace('<', "‹")
        .replace('>', "›")
        .replace('&', "＆");
    let body = one_line(body, BODY_CHARS)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    (title, body)
}

/// How many notifications one stretch in the background shows before holding the rest.
pub const AT_ONCE: u32 = 2;
/// How long the held ones wait for quiet before one summary says how many there were.
pub const QUIET_MS: f64 = 10_000.0;

/// Keeps a burst from flooding the desktop: while Studio stays in the background, the first
/// [`AT_ONCE`] notices show, the rest are held and, once [`QUIET_MS`] pass without another, one
/// summary counts them; after that nothing more shows until Studio has been in front. So a
/// stretch in the background shows at most `AT_ONCE + 1` notifications, however much arrives.
#[derive(Debug, Default, Clone)]
pub struct Coalescer {
    shown: u32,
    held: u32,
    last_held_ms: f64,
    summarised: bool,
}

impl Coalescer {
    /// A notice arrives at `now_ms`: true when it shows now.
    pub fn offer(&mut self, now_ms: f64) -> bool {
        if self.shown < AT_ONCE && !self.summarised {
            self.shown += 1;
            return true;
        }
        if !self.summarised {
            self.held += 1;
            self.last_held_ms = now_ms;
        }
        false
    }

    /// The number of held notices to summarise now, once quiet has lasted long enough.
    pub fn due(&mut self, now_ms: f64) -> Option<u32> {
        if self.held == 0 || self.summarised || now_ms - self.last_held_ms < QUIET_MS {
            return None;
        }
        self.summarised = true;
        Some(std::mem::take(&mut self.held))
    }

    /// Whether a summary is still to come (the caller keeps a timer while it is).
    pub fn waiting(&self) -> bool {
        self.held > 0 && !self.summarised
    }

    /// Studio came to the front: the person has seen it all, a new stretch begins.
    pub fn in_front(&mut self) {
        *self = Coalescer::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::ServerFrame;
    use serde_json::json;

    fn apply(m: &mut SessionModel, v: serde_json::Value) -> Option<Notice> {
        let f: ServerFrame = crate::codec::decode_server_value(v).unwrap();
        let had_turn = m.turn.is_some();
        let changes = m.apply(&f, 0.0);
        notice_for(m, &changes, had_turn)
    }

    #[test]
    fn the_turn_ending_a_letter_and_a_title_card_notify() {
        let mut m = SessionModel::default();
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"turn_status","status":"busy","actor":"Keeper"})
            ),
            None
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"narrative","id":"1","speaker":"kp","text":"x","format":"plain"})
            ),
            None
        );
        assert_eq!(
            apply(&mut m, json!({"type":"turn_status","status":"idle"})),
            Some(Notice::TurnOver)
        );
        // Idle again with no turn running: nothing.
        assert_eq!(
            apply(&mut m, json!({"type":"turn_status","status":"idle"})),
            None
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"ui","panel":"inline","blocks":[{"kind":"letter","body":"Come.","from":"M."}]})
            ),
            Some(Notice::Letter {
                from: Some("M.".into())
            })
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"ui","panel":"inline","blocks":[{"kind":"title_card","title":"Act II"}]})
            ),
            Some(Notice::TitleCard {
                title: "Act II".into()
            })
        );
        assert_eq!(
            apply(&mut m, json!({"type":"system","level":"info","text":"hi"})),
            None
        );
    }

    #[test]
    fn server_text_is_escaped_flattened_and_cut() {
        let (title, body) = desktop_text(
            "<b>Act</b> & II\nTicket: T2",
            &format!("<a href='x'>M.</a> & co{}", "y".repeat(1000)),
        );
        assert_eq!(title, "‹b›Act‹/b› ＆ II Ticket: T2");
        assert!(
            body.starts_with("&lt;a href='x'&gt;M.&lt;/a&gt; &amp; co"),
            "{body}"
        );
        assert!(!body.contains('<') && !title.contains('<'));
        // Cut before escaping: the escaped body may be longer, the words are not.
        assert!(body.ends_with('…'));
        assert_eq!(
            desktop_text(&"t".repeat(500), "").0.chars().count(),
            TITLE_CHARS
        );
    }

    #[test]
    fn a_hundred_letters_in_the_background_give_at_most_three_notifications() {
        let mut c = Coalescer::default();
        let mut shown = 0;
        let mut now = 0.0;
        for _ in 0..100 {
            now += 50.0;
            shown += u32::from(c.offer(now));
            if c.due(now).is_some() {
                shown += 1;
            }
        }
        assert_eq!(shown, AT_ONCE);
        assert!(c.waiting());
        assert_eq!(
            c.due(now + QUIET_MS - 1.0),
            None,
            "the summary came before the quiet"
        );
        assert_eq!(c.due(now + QUIET_MS), Some(100 - AT_ONCE));
        shown += 1;
        // More after the summary, even much later: nothing until Studio was in front.
        for i in 0..100 {
            shown += u32::from(c.offer(now + QUIET_MS * (2 + i) as f64));
            assert_eq!(c.due(now + QUIET_MS * (3 + i) as f64), None);
        }
        assert_eq!(shown, AT_ONCE + 1);
        c.in_front();
        assert!(c.offer(now * 10.0), "a new stretch shows again");
    }
}
