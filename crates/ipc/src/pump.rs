//! What the backend pushes on a table's channel: batches of events, in arrival order.

use serde::{Deserialize, Serialize};

use crate::views::PackBenchStatus;

/// One event of the table in play. `F` is the frame: the backend sends a decoded
/// `ServerFrame`; the UI reads it as JSON first, to sanitise before it decodes.
// Nearly every event is a frame: boxing it would add an allocation per frame for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PumpEvent<F = protocol::ServerFrame> {
    Frame(F),
    Status(Status),
    /// A line that did not decode (the reason, sanitised).
    DecodeError(String),
    /// A line over the size limit: how many bytes were discarded.
    Oversize(usize),
    Upload(Upload),
    /// The pack bench reloaded (or refused) the pack.
    PackBench(PackBenchStatus),
}

/// What a channel message carries: at most one batch per display frame.
pub type PumpBatch<F = protocol::ServerFrame> = Vec<PumpEvent<F>>;

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
