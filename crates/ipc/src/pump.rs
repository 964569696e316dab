//! What the backend pushes on a table's channel: batches of events, in arrival order.

use serde::{Deserialize, Serialize};

use crate::views::PackBenchStatus;

/// One event of the table in play that is not a frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PumpEvent {
    Status(Status),
    /// A line that did not decode (the reason, sanitised).
    DecodeError(String),
    /// A line over the size limit: how many bytes were discarded.
    Oversize(usize),
    Upload(Upload),
    /// The pack bench reloaded (or refused) the pack.
    PackBench(PackBenchStatus),
    /// Files were dropped on the window: nothing is read until the person confirms.
    DropOffer(DropOffer),
}

/// What a channel message carries: one batch, at most one per display frame, as text with one
/// item a line in arrival order. A frame travels as the line the table sent, so the page parses
/// it once (then sanitises and decodes it, as it would any wire text); an event travels as `!`
/// and its JSON. No JSON text begins with `!`, and no item holds a newline (the transport
/// splits lines on them, serde_json escapes them), so neither can pass for the other.
///
/// Measured against sending the decoded frames (`cargo xtask bench`, figure (n), `hop`): the
/// page then parsed every frame three times (Tauri's JSON, the bridge's text, serde).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PumpBatch(String);

/// One item of a [`PumpBatch`] as the page reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum PumpItem {
    /// A frame's JSON, not yet sanitised or decoded.
    Frame(serde_json::Value),
    Event(PumpEvent),
    /// An item that did not read (the reason).
    Unreadable(String),
}

const EVENT: char = '!';

impl PumpBatch {
    /// A batch of one event.
    pub fn of(event: &PumpEvent) -> Self {
        let mut batch = Self::default();
        batch.event(event);
        batch
    }

    /// Adds a frame: `line` as the table sent it (one line, no newline in it).
    pub fn frame(&mut self, line: &str) {
        // Trimmed as the codec trims it before it parses: a table may end a line with any
        // Unicode whitespace (a vertical tab, a form feed), which is not JSON's (found by the
        // fuzzer: a frame the backend decoded did not read in the window).
        let line = line.trim();
        self.start();
        if line.contains('\n') {
            // Only whitespace between tokens can be a newline in JSON text: a space reads alike.
            self.0.push_str(&line.replace('\n', " "));
        } else {
            self.0.push_str(line);
        }
    }

    /// Adds an event.
    pub fn event(&mut self, event: &PumpEvent) {
        self.start();
        self.0.push(EVENT);
        // An event is plain data: it always encodes, and its JSON holds no raw newline.
        self.0
            .push_str(&serde_json::to_string(event).unwrap_or_else(|_| "null".into()));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The batch's text (what the channel message holds).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Reads a channel message's text, item by item, in order.
    pub fn items(text: &str) -> impl Iterator<Item = PumpItem> + '_ {
        text.split('\n')
            .filter(|l| !l.trim().is_empty())
            .map(|line| match line.strip_prefix(EVENT) {
                Some(event) => serde_json::from_str(event).map_or_else(
                    |e| PumpItem::Unreadable(format!("an event did not read: {e}")),
                    PumpItem::Event,
                ),
                None => serde_json::from_str(line).map_or_else(
                    |e| PumpItem::Unreadable(format!("a frame did not read: {e}")),
                    PumpItem::Frame,
                ),
            })
    }

    fn start(&mut self) {
        if !self.0.is_empty() {
            self.0.push('\n');
        }
    }
}

/// The connection as the status bar shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    Connecting,
    /// `latency_ms` is none until the first pong.
    Online {
        latency_ms: Option<u64>,
    },
    Reconnecting {
        attempt: u32,
        in_ms: u64,
    },
    /// Final: the table or the version gate said no; Studio will not retry.
    Refused {
        reason: String,
    },
    /// Final: the person left, or the table went away for good.
    Closed {
        reason: String,
    },
}

/// Files dropped on the window, as the confirmation lists them: what may be shared, and what
/// was refused at once (a link, a folder, a kind the table does not take) with why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DropOffer {
    pub id: u64,
    pub files: Vec<DroppedFile>,
    pub refused: Vec<DropRefused>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DroppedFile {
    pub name: String,
    pub size: u64,
    pub mime: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DropRefused {
    pub name: String,
    pub why: String,
}

/// One of my uploads, as the input area shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Upload {
    pub id: u64,
    pub name: String,
    pub sent: u64,
    pub total: u64,
    /// The hash once the room has the bytes.
    pub done: Option<String>,
    /// Why it failed, as a sentence.
    pub error: Option<String>,
    pub cancelled: bool,
}
