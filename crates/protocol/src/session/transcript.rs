//! The transcript: what the story column shows, in arrival order, each entry under a
//! stable local key.
//!
//! Keys are handed out monotonically and an in-place update keeps its key, so the
//! entry list is always sorted by key: a key finds its position by binary search,
//! and a narrative id maps to a KEY (not a position). Removing an entry therefore
//! invalidates nothing, and no per-delta work is O(n).

use std::collections::HashMap;

use crate::frame::{
    Dice, ErrorCode, Narrative, NarrativeDelta, Speaker, SystemLevel, TextFormat, TitleCard,
    UiBlock,
};

/// One line of the transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Local, monotonic, never reused (not even across a reset).
    pub key: u64,
    /// Bumped on every in-place update, so a view can memo on `(key, rev)`.
    pub rev: u32,
    pub body: EntryBody,
}

/// What an entry shows.
#[derive(Debug, Clone, PartialEq)]
pub enum EntryBody {
    /// A `narrative` line, or a draft still growing from `narrative_delta`s.
    Narrative(NarrativeLine),
    /// Boxed: a dice frame is several times the size of every other body.
    Dice(Box<Dice>),
    System {
        level: SystemLevel,
        text: String,
        spinner: bool,
    },
    Error {
        code: ErrorCode,
        message: String,
    },
    /// An inline `ui` frame (its `title_card` blocks become [`EntryBody::TitleCard`] lines).
    Ui(InlineUi),
    /// The compact line an act card leaves behind once its full-bleed showing is over.
    TitleCard(TitleCard),
    /// My own line until the server's `speaker:"player"` echo replaces it.
    PendingInput(PendingInput),
}

/// A narrative line (`draft` while it is still being streamed).
#[derive(Debug, Clone, PartialEq)]
pub struct NarrativeLine {
    pub id: String,
    pub speaker: Speaker,
    /// The player's name, or the NPC's for `speaker:"npc"`.
    pub name: Option<String>,
    pub text: String,
    pub format: TextFormat,
    pub draft: bool,
}

impl NarrativeLine {
    pub(super) fn from_final(frame: &Narrative) -> Self {
        Self {
            id: frame.id.clone(),
            speaker: frame.speaker.clone(),
            name: frame.name.clone(),
            text: frame.text.clone(),
            format: frame.format.clone(),
            draft: false,
        }
    }

    pub(super) fn from_delta(frame: &NarrativeDelta) -> Self {
        Self {
            id: frame.id.clone(),
            speaker: frame.speaker.clone(),
            name: frame.name.clone(),
            text: frame.text.clone(),
            // The spec: drafts render as markdown.
            format: TextFormat::Markdown,
            draft: true,
        }
    }
}

/// An inline `ui` frame in the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct InlineUi {
    pub id: Option<String>,
    pub blocks: Vec<UiBlock>,
}

/// A line I submitted, shown before the table echoes it.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingInput {
    pub text: String,
    pub sent_at: f64,
    pub failed: Option<InputFailure>,
}

/// Why a pending line failed. An enum rather than a string so the UI words the
/// timeout in its own locale (the server's `message` arrives already localized).
#[derive(Debug, Clone, PartialEq)]
pub enum InputFailure {
    /// The server refused it (`rate_limited`, `input_too_long`, `bad_frame`).
    Refused { code: ErrorCode, message: String },
    /// No echo within the timeout.
    TimedOut,
    /// Sent on a connection that dropped, and not in the table's replay after the reconnect:
    /// the table never got it (offer Retry and Edit).
    NotDelivered,
}

/// The ordered entries plus the narrative-id index.
#[derive(Debug, Clone)]
pub struct Transcript {
    entries: Vec<Entry>,
    next_key: u64,
    /// Narrative id → key. Ids are per connection (a replay carries fresh ones).
    by_id: HashMap<String, u64>,
}

impl Default for Transcript {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            // 0 stays free so a view may use it as "no entry".
            next_key: 1,
            by_id: HashMap::new(),
        }
    }
}

impl Transcript {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Entry> {
        self.entries.iter()
    }

    /// All entries in order (a virtualized list indexes into this).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn get(&self, index: usize) -> Option<&Entry> {
        self.entries.get(index)
    }

    /// The current index of `key`, O(log n).
    pub fn position(&self, key: u64) -> Option<usize> {
        self.entries.binary_search_by_key(&key, |e| e.key).ok()
    }

    pub fn entry_by_key(&self, key: u64) -> Option<&Entry> {
        self.position(key).map(|i| &self.entries[i])
    }

    /// The entry a narrative id (of this connection) landed in.
    pub fn key_for_id(&self, id: &str) -> Option<u64> {
        self.by_id
            .get(id)
            .copied()
            .filter(|k| self.position(*k).is_some())
    }

    pub(super) fn push(&mut self, body: EntryBody) -> u64 {
        let key = self.next_key;
        self.next_key += 1;
        self.entries.push(Entry { key, rev: 0, body });
        key
    }

    pub(super) fn get_mut(&mut self, key: u64) -> Option<&mut Entry> {
        let index = self.position(key)?;
        let entry = &mut self.entries[index];
        entry.rev = entry.rev.wrapping_add(1);
        Some(entry)
    }

    /// Replaces an entry's body in place (same key, same position).
    pub(super) fn replace(&mut self, key: u64, body: EntryBody) -> bool {
        self.get_mut(key).map(|e| e.body = body).is_some()
    }

    /// Appends a delta to draft `id`; `None` when `id` is not an open draft.
    /// Amortized O(len(delta)): a hash lookup, a binary search and a `push_str`.
    pub(super) fn extend_draft(&mut self, id: &str, delta: &str) -> Option<u64> {
        let key = self.key_for_id(id)?;
        let index = self.position(key)?;
        let entry = &mut self.entries[index];
        let EntryBody::Narrative(line) = &mut entry.body else {
            return None;
        };
        if !line.draft {
            return None;
        }
        line.text.push_str(delta);
        entry.rev = entry.rev.wrapping_add(1);
        Some(key)
    }

    /// Removes an entry; O(n) memmove, but only discards and resets remove.
    pub(super) fn remove(&mut self, key: u64) -> Option<Entry> {
        let index = self.position(key)?;
        let entry = self.entries.remove(index);
        if let EntryBody::Narrative(line) = &entry.body {
            self.by_id.remove(&line.id);
        }
        Some(entry)
    }

    pub(super) fn bind_id(&mut self, id: &str, key: u64) {
        self.by_id.insert(id.to_owned(), key);
    }

    /// Empties the transcript; keys keep counting so none is ever reused.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.by_id.clear();
    }

    pub(super) fn next_key(&self) -> u64 {
        self.next_key
    }

    pub(super) fn set_next_key(&mut self, key: u64) {
        self.next_key = self.next_key.max(key);
    }
}
