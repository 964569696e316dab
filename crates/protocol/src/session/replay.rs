//! Reconnect without duplicates.
//!
//! Every join replays the room's last ≤30 transcript lines plus the dice and npc
//! frames that followed them live, with FRESH ids, so id dedupe cannot work. On a
//! rejoin the replayed lines are held back until the replay ends, then aligned
//! with the tail of what is already shown (speaker, name, text, order): lines we
//! already have are dropped, and what follows the last one we have is new.
//!
//! There is no end marker. The replay ends at the first frame a replay never
//! contains — `state` (which the server sends right after it on join), and equally
//! `ui_manifest`, a delta, `turn_status`, `ui`, `panel_event`, or a narrative whose
//! id we already know (a live frame of a draft that spanned the reconnect).

use crate::frame::{Dice, Narrative, ServerFrame};

use super::transcript::{Entry, EntryBody, NarrativeLine, Transcript};
use super::InputFailure;
use super::{Changes, SessionModel};

/// A rejoin's replay, held back until it ends.
#[derive(Debug, Clone, Default)]
pub(super) struct ReplayWindow {
    items: Vec<Replayed>,
    /// The first time a frame or tick saw the window (the caller owns the clock).
    pub(super) opened_ms: Option<f64>,
    /// My lines still awaiting their echo when the connection came back: any the replay
    /// does not echo were lost with the old connection.
    pub(super) pending_at_open: Vec<u64>,
}

impl ReplayWindow {
    /// A window that remembers which of my lines were still awaiting their echo.
    pub(super) fn with_pending(pending_at_open: Vec<u64>) -> Self {
        ReplayWindow {
            pending_at_open,
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone)]
enum Replayed {
    Line(Narrative),
    Dice(Box<Dice>),
}

/// A finished replay: how many lines and dice it carried, how many were already shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayReport {
    /// Replays ended so far in this model (this one included).
    pub count: u32,
    pub items: usize,
    pub known: usize,
}

/// What to do with one replayed item.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    /// Already shown.
    Known,
    /// The final text of a draft we had when the connection dropped.
    Completes(u64),
    New,
}

impl SessionModel {
    /// Call when a reconnect's `welcome` arrives (a second `welcome` for the same
    /// room is also detected by itself): the replay that follows is matched against
    /// the transcript instead of appended. A no-op while a replay is already open.
    pub fn begin_rejoin(&mut self) {
        if self.replay.is_none() {
            self.replay = Some(ReplayWindow::default());
        }
    }

    /// Takes `frame` into an open replay window. True when it was held back;
    /// false when the caller should apply it (the window may have just closed).
    pub(super) fn intake_replay(
        &mut self,
        frame: &ServerFrame,
        now_ms: f64,
        changes: &mut Changes,
    ) -> bool {
        let known_id = |id: &str| self.transcript.key_for_id(id).is_some();
        let (held, ends) = match frame {
            ServerFrame::Narrative(line) if !known_id(&line.id) => (true, false),
            ServerFrame::Narrative(_) => (false, true),
            ServerFrame::Dice(_) => (true, false),
            ServerFrame::State(_)
            | ServerFrame::UiManifest(_)
            | ServerFrame::NarrativeDelta(_)
            | ServerFrame::TurnStatus(_)
            | ServerFrame::Ui(_)
            | ServerFrame::PanelEvent(_) => (false, true),
            _ => (false, false),
        };
        let Some(window) = &mut self.replay else {
            return false;
        };
        window.opened_ms.get_or_insert(now_ms);
        if held {
            window.items.push(match frame {
                ServerFrame::Narrative(line) => Replayed::Line(line.clone()),
                ServerFrame::Dice(dice) => Replayed::Dice(Box::new(dice.clone())),
                _ => unreachable!("only lines and dice are held"),
            });
        } else if ends {
            self.end_replay(changes);
        }
        held
    }

    /// Closes the window: drops what is already shown, adds the rest.
    pub(super) fn end_replay(&mut self, changes: &mut Changes) {
        let Some(window) = self.replay.take() else {
            return;
        };
        changes.replay = true;
        let verdicts = align(&self.transcript, &window.items);
        self.last_replay = Some(ReplayReport {
            count: self.last_replay.map_or(0, |r| r.count) + 1,
            items: window.items.len(),
            known: verdicts.iter().filter(|v| **v == Verdict::Known).count(),
        });
        for (item, verdict) in window.items.into_iter().zip(verdicts) {
            match (item, verdict) {
                (_, Verdict::Known) => {}
                (Replayed::Line(line), Verdict::Completes(key)) => {
                    let body = EntryBody::Narrative(NarrativeLine::from_final(&line));
                    self.transcript.replace(key, body);
                    // The draft's old id stays bound too, in case its close still comes.
                    self.transcript.bind_id(&line.id, key);
                    changes.update(key);
                }
                // New lines take the live path, so my own echo still finds its pending.
                (Replayed::Line(line), _) => self.on_narrative(&line, changes),
                (Replayed::Dice(dice), _) => {
                    let key = self.transcript.push(EntryBody::Dice(dice));
                    changes.append(key);
                }
            }
        }
        // What the replay did not echo never reached the table: say so now, not at the timeout.
        for key in window.pending_at_open {
            let still_waiting = self.pending.contains(&key)
                && matches!(
                    self.transcript.entry_by_key(key).map(|e| &e.body),
                    Some(EntryBody::PendingInput(p)) if p.failed.is_none()
                );
            if still_waiting {
                self.set_failure(key, InputFailure::NotDelivered, changes);
            }
        }
    }
}

/// The alignment. `shown` is the tail of replayable entries (final lines, drafts,
/// dice) that could overlap the replay — generously more than the replay itself,
/// since command echoes and their replies are shown live but never replayed.
///
/// For each shown entry equal to the first replayed item, walk the replay forward,
/// matching each item with the next equal shown entry (skipping shown entries the
/// replay lacks). The walk stops at the first item not shown after the previous
/// match: from there on everything is new. The start that matches most wins; on a
/// tie, the latest, so a line repeated long ago does not anchor the walk.
fn align(transcript: &Transcript, items: &[Replayed]) -> Vec<Verdict> {
    let window = items.len() * 8 + 64;
    let mut shown: Vec<&Entry> = transcript
        .iter()
        .rev()
        .filter(|e| matches!(e.body, EntryBody::Narrative(_) | EntryBody::Dice(_)))
        .take(window)
        .collect();
    shown.reverse();

    let mut best: Option<Vec<Option<usize>>> = None;
    let mut best_count = 0;
    if let Some(first) = items.first() {
        for start in (0..shown.len()).filter(|&s| same(first, shown[s])) {
            let matched = walk(&shown, items, start);
            let count = matched.iter().flatten().count();
            if count >= best_count {
                best_count = count;
                best = Some(matched);
            }
        }
    }
    let matched = best.unwrap_or_else(|| vec![None; items.len()]);

    let mut verdicts: Vec<Verdict> = matched
        .iter()
        .map(|m| {
            if m.is_some() {
                Verdict::Known
            } else {
                Verdict::New
            }
        })
        .collect();
    // A draft left open by the drop: its final text (replayed as a fresh line)
    // completes it instead of landing a second bubble below it.
    let mut drafts: Vec<&Entry> = shown.iter().copied().filter(|e| is_draft(e)).collect();
    for (item, verdict) in items.iter().zip(verdicts.iter_mut()) {
        if *verdict != Verdict::New {
            continue;
        }
        if let Some(i) = drafts.iter().position(|d| completes(item, d)) {
            *verdict = Verdict::Completes(drafts.remove(i).key);
        }
    }
    verdicts
}

/// Matches `items` from `start` on; the result says which shown index each took.
///
/// History orders a turn differently from the live stream: a streamed Keeper line is
/// shown where its first delta landed, but recorded (and replayed) when it closed, after
/// the npc and dice frames that interleaved with it. So an item not found ahead may still
/// be one of the shown entries the walk skipped over; only an item found in neither place
/// ends the walk.
fn walk(shown: &[&Entry], items: &[Replayed], start: usize) -> Vec<Option<usize>> {
    let mut matched = vec![None; items.len()];
    let mut used = vec![false; shown.len()];
    let mut next = start;
    for (item, slot) in items.iter().zip(matched.iter_mut()) {
        let ahead = (next..shown.len()).find(|&j| same(item, shown[j]));
        let skipped = || (start..next).find(|&j| !used[j] && same(item, shown[j]));
        match ahead {
            Some(j) => {
                *slot = Some(j);
                used[j] = true;
                next = j + 1;
            }
            None => match skipped() {
                Some(j) => {
                    *slot = Some(j);
                    used[j] = true;
                }
                None => break,
            },
        }
    }
    matched
}

/// A replayed item equals a shown entry: same speaker, compatible name and the
/// same text for lines; the same roll for dice. Drafts never match here.
fn same(item: &Replayed, entry: &Entry) -> bool {
    match (item, &entry.body) {
        (Replayed::Line(line), EntryBody::Narrative(shown)) => {
            !shown.draft
                && line.speaker == shown.speaker
                && line.text.trim() == shown.text.trim()
                && names_match(line.name.as_deref(), shown.name.as_deref())
        }
        (Replayed::Dice(dice), EntryBody::Dice(shown)) => {
            dice.actor == shown.actor
                && dice.kind == shown.kind
                && dice.expr == shown.expr
                && dice.rolls == shown.rolls
                && dice.total == shown.total
                && dice.target == shown.target
                && dice.subsystem == shown.subsystem
                && dice.outcome.as_ref().map(|o| &o.label)
                    == shown.outcome.as_ref().map(|o| &o.label)
        }
        _ => false,
    }
}

/// History may name a speaker more or less decorated than the live frame did
/// ("Alice" / "Alice (Player)"), or not at all.
fn names_match(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b || a.contains(b) || b.contains(a),
        _ => true,
    }
}

fn is_draft(entry: &Entry) -> bool {
    matches!(&entry.body, EntryBody::Narrative(line) if line.draft)
}

/// A final line completes a draft when the draft's text is its beginning.
fn completes(item: &Replayed, draft: &Entry) -> bool {
    match (item, &draft.body) {
        (Replayed::Line(line), EntryBody::Narrative(shown)) => {
            shown.draft
                && line.speaker == shown.speaker
                && names_match(line.name.as_deref(), shown.name.as_deref())
                && line.text.starts_with(shown.text.trim_end())
        }
        _ => false,
    }
}
