//! What a screen reader hears of the story (#29 item 2): each entry once, when it is final —
//! a streamed narrative when its final `narrative` lands, in one piece, never per delta — with
//! who said it. Entries already there when the view opens are history, not news.

use std::collections::BTreeSet;

use super::sanitize_text;
use super::transcript::{Entry, EntryBody, Transcript};
use crate::frame::{Dice, Speaker, SystemLevel, UiBlock};

/// The sentence for a finished entry; `None` while it is a draft, for my own pending line
/// (its echo is announced), for an empty discard and for inline panels (they are not story).
pub fn sentence(entry: &Entry) -> Option<String> {
    let text = match &entry.body {
        EntryBody::Narrative(line) => {
            if line.draft || line.text.trim().is_empty() {
                return None;
            }
            let said = plain(&line.text);
            match (&line.speaker, line.name.as_deref()) {
                (Speaker::Kp, _) => format!("The Keeper: {said}"),
                (Speaker::System, _) => said,
                (_, Some(name)) if !name.trim().is_empty() => {
                    format!("{}: {said}", sanitize_text(name))
                }
                _ => said,
            }
        }
        EntryBody::Dice(d) => dice(d),
        EntryBody::System { level, text, .. } => match level {
            SystemLevel::Warn => format!("Warning: {}", sanitize_text(text)),
            _ => sanitize_text(text),
        },
        EntryBody::Error { message, .. } => format!("Error: {}", sanitize_text(message)),
        EntryBody::TitleCard(card) => {
            title(card.act.as_deref(), &card.title, card.subtitle.as_deref())
        }
        EntryBody::Ui(ui) => {
            let cards: Vec<String> = ui
                .blocks
                .iter()
                .filter_map(|b| match b {
                    UiBlock::TitleCard(c) => {
                        Some(title(c.act.as_deref(), &c.title, c.subtitle.as_deref()))
                    }
                    _ => None,
                })
                .collect();
            if cards.is_empty() {
                return None;
            }
            cards.join(". ")
        }
        EntryBody::PendingInput(_) => return None,
    };
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn title(act: Option<&str>, title: &str, subtitle: Option<&str>) -> String {
    [act, Some(title), subtitle]
        .into_iter()
        .flatten()
        .map(sanitize_text)
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(": ")
}

/// Markdown's markers are not words: emphasis, code ticks and heading hashes go.
fn plain(text: &str) -> String {
    sanitize_text(text)
        .lines()
        .map(|l| l.trim_start_matches('#').trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['*', '`'], "")
}

/// "Alice rolls 1d20: 7, Hard success" — who, what, the total, the outcome's own words.
fn dice(d: &Dice) -> String {
    let mut s = format!(
        "{} rolls {}",
        sanitize_text(&d.actor),
        sanitize_text(&d.expr)
    );
    if let Some(skill) = d.extra.get("skill").and_then(|v| v.as_str()) {
        s += &format!(" for {}", sanitize_text(skill));
    }
    s += &format!(": {}", crate::jsnum::js_number_string(d.total));
    if let Some(o) = &d.outcome {
        s += &format!(", {}", sanitize_text(&o.label));
    }
    s
}

/// Follows a transcript and says what became final since the last look.
#[derive(Debug, Default)]
pub struct Announcer {
    /// The newest key looked at.
    high: Option<u64>,
    /// Entries seen unfinished (drafts), waiting to be final.
    waiting: BTreeSet<u64>,
}

impl Announcer {
    /// Starts on `t`: what is there already is history (drafts in it will be announced when
    /// they finish).
    pub fn start(t: &Transcript) -> Self {
        let mut a = Announcer::default();
        for e in t.iter() {
            if sentence(e).is_none() && is_unfinished(e) {
                a.waiting.insert(e.key);
            }
            a.high = Some(e.key);
        }
        a
    }

    /// Takes everything there now as history (a join's or rejoin's replay): nothing of it
    /// will be announced.
    pub fn skip(&mut self, t: &Transcript) {
        self.high = t.entries().last().map(|e| e.key).or(self.high);
        self.waiting.clear();
    }

    /// The sentences of entries that became final since the last call, in story order.
    /// Costs the new entries plus the drafts waiting, never the whole transcript.
    pub fn next(&mut self, t: &Transcript) -> Vec<String> {
        let entries = t.entries();
        let from = match self.high {
            Some(h) => entries.partition_point(|e| e.key <= h),
            None => 0,
        };
        let mut done: Vec<(u64, String)> = Vec::new();
        for key in std::mem::take(&mut self.waiting) {
            match t.entry_by_key(key) {
                None => {}
                Some(e) => match sentence(e) {
                    Some(s) => done.push((key, s)),
                    None if is_unfinished(e) => {
                        self.waiting.insert(key);
                    }
                    None => {}
                },
            }
        }
        for e in &entries[from..] {
            match sentence(e) {
                Some(s) => done.push((e.key, s)),
                None if is_unfinished(e) => {
                    self.waiting.insert(e.key);
                }
                None => {}
            }
            self.high = Some(e.key);
        }
        done.sort_by_key(|(k, _)| *k);
        done.into_iter().map(|(_, s)| s).collect()
    }
}

/// What a screen reader hears when the turn changes: who took it, or that it is free again
/// (the person's turn). A change of activity or round inside one turn says nothing, and
/// neither does a turn that was already going when the person arrived (`before` is `None`
/// and so is what they were told: the caller starts from what is there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnNews {
    Taken(String),
    Yours,
}

pub fn turn_news(before: Option<&str>, now: Option<&str>) -> Option<TurnNews> {
    match (before, now) {
        (b, Some(a)) if b != Some(a) => Some(TurnNews::Taken(a.to_owned())),
        (Some(_), None) => Some(TurnNews::Yours),
        _ => None,
    }
}

/// A draft still streaming, or my line still waiting for its echo.
fn is_unfinished(e: &Entry) -> bool {
    match &e.body {
        EntryBody::Narrative(l) => l.draft,
        EntryBody::PendingInput(p) => p.failed.is_none(),
        _ => false,
    }
}

#[cfg(test)]
#[path = "announce_tests.rs"]
mod tests;
