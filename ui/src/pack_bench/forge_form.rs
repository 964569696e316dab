//! The forge form's state and the calls every part of the form shares: the open card's
//! document with its undo history, opening a card, listing the pack's cards, and reading and
//! writing the card's JSON. The form's parts (`forge`, `forge_fields`, `forge_hooks`,
//! `forge_merge`) all stand on this; it stands on none of them.

use ipc::{ForgeCardInfo, ForgeDocument};
use leptos::prelude::*;
use serde_json::{json, Value};

/// The form's state: the card being edited, and a counter that re-draws its rows (a card
/// opened, a row added or removed). Typing edits the document without re-drawing anything.
#[derive(Clone, Copy)]
pub(super) struct Form {
    pub(super) doc: RwSignal<Option<ForgeDocument>>,
    /// The card as the file held it at `doc.base` (what a merge with the file compares to).
    pub(super) opened: RwSignal<Option<Value>>,
    shape: RwSignal<u64>,
    history: RwSignal<History>,
}

/// Undo and redo for the open card: a snapshot before each run of typing in one field, and
/// before each row added or removed.
#[derive(Clone, Default)]
struct History {
    back: Vec<Value>,
    ahead: Vec<Value>,
    /// The field the last edit was in (typing on in it adds no step).
    last: Option<String>,
}

/// Steps kept per card.
const UNDO_STEPS: usize = 200;

impl Form {
    pub(super) fn new() -> Self {
        Form {
            doc: RwSignal::new(None),
            opened: RwSignal::new(None),
            shape: RwSignal::new(0),
            history: RwSignal::new(History::default()),
        }
    }

    /// Subscribes to the rows' shape: a card opened, a row added or removed, a step taken.
    pub(super) fn track_shape(&self) {
        self.shape.track();
    }

    /// Whether there is a step to take back (`back`) or forward.
    pub(super) fn can_step(&self, back: bool) -> bool {
        self.history
            .with(|h| !if back { &h.back } else { &h.ahead }.is_empty())
    }

    pub(super) fn card(&self) -> Option<Value> {
        self.doc
            .with_untracked(|d| d.as_ref().map(|d| d.card.clone()))
    }

    /// A step back to here, unless the edit goes on in the field `at` of the last one.
    fn remember(&self, at: Option<&str>) {
        let same = at.is_some() && self.history.with_untracked(|h| h.last.as_deref() == at);
        if same {
            return;
        }
        let Some(card) = self.card() else { return };
        self.history.update(|h| {
            h.back.push(card);
            if h.back.len() > UNDO_STEPS {
                h.back.remove(0);
            }
            h.ahead.clear();
            h.last = at.map(str::to_string);
        });
    }

    /// An edit of the field `at` (no row added or removed: nothing is drawn again).
    pub(super) fn edit(&self, at: &str, f: impl FnOnce(&mut Value)) {
        self.remember(Some(at));
        self.apply(f);
    }

    fn apply(&self, f: impl FnOnce(&mut Value)) {
        self.doc.update_untracked(|d| {
            if let Some(d) = d {
                f(&mut d.card);
            }
        });
    }

    /// Undo (`back`) or redo: the card as it was, drawn again.
    pub(super) fn step(&self, back: bool) {
        let Some(now) = self.card() else { return };
        let mut to = None;
        self.history.update(|h| {
            let (from, into) = if back {
                (&mut h.back, &mut h.ahead)
            } else {
                (&mut h.ahead, &mut h.back)
            };
            if let Some(card) = from.pop() {
                into.push(now);
                to = Some(card);
            }
            h.last = None;
        });
        if let Some(card) = to {
            self.apply(|c| *c = card);
            self.shape.update(|n| *n += 1);
        }
    }

    pub(super) fn read(&self, f: impl FnOnce(&Value) -> String) -> String {
        self.doc
            .with_untracked(|d| d.as_ref().map(|d| f(&d.card)).unwrap_or_default())
    }

    /// Adds or removes a row: the rows are drawn again.
    pub(super) fn reshape(&self, f: impl FnOnce(&mut Value)) {
        self.remember(None);
        self.apply(f);
        self.shape.update(|n| *n += 1);
    }
}

pub(super) fn list_mut<'a>(card: &'a mut Value, key: &str) -> &'a mut Vec<Value> {
    if !card[key].is_array() {
        card[key] = json!([]);
    }
    card[key].as_array_mut().expect("made a list above")
}

pub(super) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

pub(super) fn call_list(
    cards: RwSignal<Vec<ForgeCardInfo>>,
    status: RwSignal<Option<(bool, String)>>,
) {
    leptos::task::spawn_local(async move {
        match crate::bridge::call(&ipc::cmd::ForgeCards {}).await {
            Ok(list) => {
                let _ = cards.try_set(list);
            }
            Err(e) => {
                let _ = status.try_set(Some((true, e)));
            }
        }
    });
}

/// Opens the card at `path`, then shows `said` (or clears what was shown).
pub(super) fn open_saying(
    form: Form,
    status: RwSignal<Option<(bool, String)>>,
    path: String,
    said: Option<String>,
) {
    leptos::task::spawn_local(async move {
        match crate::bridge::call(&ipc::cmd::ForgeOpen { path }).await {
            Ok(doc) => {
                let _ = form.opened.try_set(Some(doc.card.clone()));
                let _ = form.doc.try_set(Some(doc));
                let _ = form.history.try_set(History::default());
                form.shape.update(|n| *n += 1);
                let _ = status.try_set(said.map(|s| (false, s)));
            }
            Err(e) => {
                let _ = status.try_set(Some((true, e)));
            }
        }
    });
}

/// Keys typed as a comma-separated list (a Chinese comma too).
pub(super) fn split_words(text: &str) -> Value {
    text.split([',', '，'])
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(Value::from)
        .collect::<Vec<_>>()
        .into()
}
