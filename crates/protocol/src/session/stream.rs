//! The live story stream: narrative lines and drafts, my pending lines, system and
//! error lines, and `ui` frames (inline into the stream, or sidebar regions).

use crate::frame::{
    ErrorCode, ErrorFrame, Narrative, NarrativeDelta, Speaker, SystemFrame, UiBlock, UiFrame,
    UiPlacement,
};

use super::transcript::{EntryBody, InlineUi, InputFailure, NarrativeLine, PendingInput};
use super::{Changes, SessionModel, SidebarRegion, ANONYMOUS_REGION_CAP, PENDING_TIMEOUT_MS};

impl SessionModel {
    /// Shows my own line as a pending echo; returns its entry key. The server's
    /// `speaker:"player"` echo of the same text later replaces it in place.
    pub fn submit_input(&mut self, text: &str, now_ms: f64) -> u64 {
        let key = self.transcript.push(EntryBody::PendingInput(PendingInput {
            text: text.to_owned(),
            sent_at: now_ms,
            failed: None,
        }));
        self.pending.push(key);
        key
    }

    pub(super) fn on_narrative(&mut self, frame: &Narrative, changes: &mut Changes) {
        if let Some(key) = self.transcript.key_for_id(&frame.id) {
            if frame.is_discard() {
                // An abandoned draft: remove it, never render it.
                self.transcript.remove(key);
                changes.remove(key);
            } else {
                let line = NarrativeLine::from_final(frame);
                self.transcript.replace(key, EntryBody::Narrative(line));
                changes.update(key);
            }
            return;
        }
        if frame.is_discard() {
            return; // the discard of a draft we never saw
        }
        let line = EntryBody::Narrative(NarrativeLine::from_final(frame));
        if frame.speaker == Speaker::Player {
            if let Some(key) = self.take_pending_echo(frame) {
                self.transcript.replace(key, line);
                self.transcript.bind_id(&frame.id, key);
                changes.update(key);
                return;
            }
        }
        let key = self.transcript.push(line);
        self.transcript.bind_id(&frame.id, key);
        changes.append(key);
    }

    pub(super) fn on_delta(&mut self, frame: &NarrativeDelta, changes: &mut Changes) {
        if let Some(key) = self.transcript.extend_draft(&frame.id, &frame.text) {
            changes.update(key);
        } else if self.transcript.key_for_id(&frame.id).is_none() {
            let line = NarrativeLine::from_delta(frame);
            let key = self.transcript.push(EntryBody::Narrative(line));
            self.transcript.bind_id(&frame.id, key);
            changes.append(key);
        }
        // Else a delta after its closing frame: the final text already won.
    }

    pub(super) fn on_system(&mut self, frame: &SystemFrame, changes: &mut Changes) {
        let key = self.transcript.push(EntryBody::System {
            level: frame.level.clone(),
            text: frame.text.clone(),
            spinner: frame.spinner.unwrap_or(false),
        });
        changes.append(key);
    }

    pub(super) fn on_error(&mut self, frame: &ErrorFrame, changes: &mut Changes) {
        if frame.code.is_media() || frame.code == ErrorCode::AvatarNoCharacter {
            super::push_capped(&mut self.media_errors, frame.clone());
            changes.media = true;
            return;
        }
        let refuses_input = matches!(
            frame.code,
            ErrorCode::RateLimited | ErrorCode::InputTooLong | ErrorCode::BadFrame
        );
        if refuses_input {
            let failure = InputFailure::Refused {
                code: frame.code.clone(),
                message: frame.message.clone(),
            };
            // The reason shows on the failed line itself, not as a second line.
            if self.fail_oldest_pending(failure, changes) {
                return;
            }
        }
        let key = self.transcript.push(EntryBody::Error {
            code: frame.code.clone(),
            message: frame.message.clone(),
        });
        changes.append(key);
    }

    pub(super) fn on_ui(&mut self, frame: &UiFrame, changes: &mut Changes) {
        match frame.panel {
            UiPlacement::Inline => self.on_inline_ui(frame, changes),
            // An unknown placement is still persistent content: keep it out of the story.
            _ => self.on_sidebar_ui(frame, changes),
        }
    }

    fn on_inline_ui(&mut self, frame: &UiFrame, changes: &mut Changes) {
        let replace = frame.replace == Some(true);
        let (cards, blocks): (Vec<_>, Vec<_>) = frame
            .blocks
            .iter()
            .cloned()
            .partition(|b| matches!(b, UiBlock::TitleCard(_)));
        let cards: Vec<_> = cards
            .into_iter()
            .filter_map(|b| match b {
                UiBlock::TitleCard(card) => Some(card),
                _ => None,
            })
            .collect();
        let id = frame.id.as_deref();
        // A replace that re-sends the card it already showed must not show it again.
        let shown = id
            .and_then(|id| self.inline_cards.get(id))
            .filter(|_| replace);
        for card in &cards {
            if shown.is_some_and(|shown| shown.contains(card)) {
                continue;
            }
            let key = self.transcript.push(EntryBody::TitleCard(card.clone()));
            changes.append(key);
            changes.title_card = Some(key);
        }
        let prior = id
            .and_then(|id| self.inline_ui.get(id))
            .copied()
            .filter(|key| replace && self.transcript.position(*key).is_some());
        if let Some(id) = id {
            self.inline_cards.insert(id.to_owned(), cards);
        }
        let body = EntryBody::Ui(InlineUi {
            id: frame.id.clone(),
            blocks,
        });
        match prior {
            Some(key) => {
                self.transcript.replace(key, body);
                changes.update(key);
            }
            None => {
                let EntryBody::Ui(ui) = &body else {
                    unreachable!()
                };
                if ui.blocks.is_empty() {
                    return; // a frame that was only title cards
                }
                let key = self.transcript.push(body);
                if let Some(id) = id {
                    self.inline_ui.insert(id.to_owned(), key);
                }
                changes.append(key);
            }
        }
    }

    fn on_sidebar_ui(&mut self, frame: &UiFrame, changes: &mut Changes) {
        changes.sidebar = true;
        if let Some(id) = &frame.id {
            if let Some(region) = self.sidebar.iter_mut().find(|r| r.id.as_ref() == Some(id)) {
                region.blocks = frame.blocks.clone();
                region.rev = region.rev.wrapping_add(1);
                return;
            }
        } else if self.sidebar.iter().filter(|r| r.id.is_none()).count() >= ANONYMOUS_REGION_CAP {
            let oldest = self.sidebar.iter().position(|r| r.id.is_none());
            if let Some(index) = oldest {
                self.sidebar.remove(index);
            }
        }
        self.sidebar.push(SidebarRegion {
            key: self.next_region_key,
            id: frame.id.clone(),
            blocks: frame.blocks.clone(),
            rev: 0,
        });
        self.next_region_key += 1;
    }

    /// The pending line an echo answers: same text (primarily), and my name when
    /// both are known — the server may decorate it ("Alice (Player)").
    fn take_pending_echo(&mut self, frame: &Narrative) -> Option<u64> {
        if let (Some(me), Some(name)) = (self.my_name(), frame.name.as_deref()) {
            if !me.is_empty() && !name.contains(me) {
                return None;
            }
        }
        let text = frame.text.trim();
        let pending = |key: &u64| match self.transcript.entry_by_key(*key).map(|e| &e.body) {
            Some(EntryBody::PendingInput(p)) if p.text.trim() == text => Some(p.failed.is_none()),
            _ => None,
        };
        // A live pending first; else a timed-out one whose echo is merely late.
        let index = self
            .pending
            .iter()
            .position(|k| pending(k) == Some(true))
            .or_else(|| self.pending.iter().position(|k| pending(k) == Some(false)))?;
        Some(self.pending.remove(index))
    }

    fn fail_oldest_pending(&mut self, failure: InputFailure, changes: &mut Changes) -> bool {
        let is_live = |model: &Self, key: u64| {
            matches!(
                model.transcript.entry_by_key(key).map(|e| &e.body),
                Some(EntryBody::PendingInput(p)) if p.failed.is_none()
            )
        };
        let Some(index) = self.pending.iter().position(|k| is_live(self, *k)) else {
            return false;
        };
        // A refused line never reached the room: no echo can come for it.
        let key = self.pending.remove(index);
        self.set_failure(key, failure, changes);
        true
    }

    /// A line of mine still waits for its echo (none failed yet): its timeout is ahead.
    pub(super) fn awaits_echo(&self) -> bool {
        self.pending.iter().any(|key| {
            matches!(
                self.transcript.entry_by_key(*key).map(|e| &e.body),
                Some(EntryBody::PendingInput(p)) if p.failed.is_none()
            )
        })
    }

    pub(super) fn expire_pending(&mut self, now_ms: f64, changes: &mut Changes) {
        let expired: Vec<u64> = self
            .pending
            .iter()
            .copied()
            .filter(|key| {
                matches!(
                    self.transcript.entry_by_key(*key).map(|e| &e.body),
                    Some(EntryBody::PendingInput(p))
                        if p.failed.is_none() && now_ms - p.sent_at >= PENDING_TIMEOUT_MS
                )
            })
            .collect();
        for key in expired {
            self.set_failure(key, InputFailure::TimedOut, changes);
        }
    }

    /// My line never left Studio (the table was offline when it was sent): "not delivered" now,
    /// with Retry and Edit, rather than "sending…" until a reconnect or the timeout.
    pub fn not_sent(&mut self, key: u64) -> Changes {
        let mut changes = Changes::default();
        if self.pending.contains(&key) {
            self.pending.retain(|k| *k != key);
            self.set_failure(key, InputFailure::NotDelivered, &mut changes);
        }
        changes
    }

    /// Removes one of my failed lines (the person retried it or took it back to edit).
    pub fn dismiss_failed(&mut self, key: u64) -> Changes {
        let mut changes = Changes::default();
        let failed = matches!(
            self.transcript.entry_by_key(key).map(|e| &e.body),
            Some(EntryBody::PendingInput(p)) if p.failed.is_some()
        );
        if failed {
            self.transcript.remove(key);
            self.pending.retain(|k| *k != key);
            changes.remove(key);
        }
        changes
    }

    pub(super) fn set_failure(&mut self, key: u64, failure: InputFailure, changes: &mut Changes) {
        if let Some(entry) = self.transcript.get_mut(key) {
            if let EntryBody::PendingInput(pending) = &mut entry.body {
                pending.failed = Some(failure);
                changes.update(key);
            }
        }
    }
}
