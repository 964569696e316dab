//! What one `apply`/`tick` changed, so the UI touches only those parts.

/// The parts of a [`super::SessionModel`] one call changed. Transcript changes are
/// entry keys; everything else is a flag for one pane.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// New entries, in order, at the end of the transcript.
    pub appended: Vec<u64>,
    /// Entries changed in place (same key, same position).
    pub updated: Vec<u64>,
    pub removed: Vec<u64>,
    /// The whole transcript was cleared (`state.reset`, or another table's welcome):
    /// re-render it from scratch; the key lists then only describe what followed.
    pub reset: bool,
    /// A title card line was just added: show it full-bleed, then as its line.
    pub title_card: Option<u64>,
    pub sidebar: bool,
    pub state: bool,
    /// A replay window closed: `is_replaying` and `last_replay` changed, even when the replay
    /// held nothing new to show.
    pub replay: bool,
    pub turn: bool,
    pub presence: bool,
    pub manifest: bool,
    pub welcome: bool,
    /// Media list, upload policy, uploads' replies and errors, audio.
    pub media: bool,
    /// Panels that got new `panel_event`s (see `take_panel_events`).
    pub panel_events: Vec<String>,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// True when the transcript needs any re-render.
    pub fn transcript(&self) -> bool {
        self.reset
            || !self.appended.is_empty()
            || !self.updated.is_empty()
            || !self.removed.is_empty()
    }

    /// Folds a later call's changes into this one (for a UI that batches per frame).
    pub fn merge(&mut self, later: Changes) {
        if later.reset {
            self.reset = true;
            self.appended.clear();
            self.updated.clear();
            self.removed.clear();
            self.title_card = None;
        }
        for key in later.appended {
            self.appended.push(key);
        }
        for key in later.updated {
            if !self.appended.contains(&key) && !self.updated.contains(&key) {
                self.updated.push(key);
            }
        }
        for key in later.removed {
            let was_new = self.appended.contains(&key);
            self.appended.retain(|k| *k != key);
            self.updated.retain(|k| *k != key);
            if self.title_card == Some(key) {
                self.title_card = None;
            }
            // Appended and removed within the batch: the view never saw it.
            if !was_new {
                self.removed.push(key);
            }
        }
        self.title_card = later.title_card.or(self.title_card);
        self.sidebar |= later.sidebar;
        self.state |= later.state;
        self.replay |= later.replay;
        self.turn |= later.turn;
        self.presence |= later.presence;
        self.manifest |= later.manifest;
        self.welcome |= later.welcome;
        self.media |= later.media;
        for panel in later.panel_events {
            if !self.panel_events.contains(&panel) {
                self.panel_events.push(panel);
            }
        }
    }

    pub(super) fn append(&mut self, key: u64) {
        self.appended.push(key);
    }

    pub(super) fn update(&mut self, key: u64) {
        if !self.appended.contains(&key) && !self.updated.contains(&key) {
            self.updated.push(key);
        }
    }

    pub(super) fn remove(&mut self, key: u64) {
        self.merge(Changes {
            removed: vec![key],
            ..Changes::default()
        });
    }
}
