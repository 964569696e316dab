//! What the session's layers share: who joins, the connection's status, the events a session
//! reports and what the handle hands its supervisor. The bottom of the session stack
//! (`session` → `supervisor` → `join` → here), so none of them imports one above it.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use protocol::frame::{MediaAccept, MediaOffer};
use protocol::{ClientFrame, ServerFrame};
use tokio::sync::{oneshot, watch};

use crate::media::MediaError;

/// The client pings this often; latency is measured from the matching `pong`.
pub const PING_INTERVAL: Duration = Duration::from_secs(10);
/// No pong for this long means the connection is dead even if QUIC has not noticed yet.
pub(crate) const PONG_DEADLINE: Duration = Duration::from_secs(35);

/// Who joins. The key is a secret: `Debug` never prints it.
#[derive(Clone)]
pub struct JoinParams {
    pub key: String,
    pub name: Option<String>,
    /// Studio's own release version, sent in `join.client`.
    pub client_version: String,
}

impl std::fmt::Debug for JoinParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JoinParams")
            .field("key", &"<secret>")
            .field("name", &self.name)
            .field("client_version", &self.client_version)
            .finish()
    }
}

/// The connection as the status bar shows it (serialized as `{state, …}` for the UI).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ConnectionStatus {
    Connecting,
    /// `latency_ms` is `None` until the first pong.
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
    /// Final: closed by the player, or the app stopped listening.
    Closed {
        reason: String,
    },
}

/// What the supervisor reports, in arrival order.
// Nearly every event is a frame, so boxing it would only add an allocation per frame.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum SessionEvent {
    /// A frame, and the line it came in as (the window parses that line itself: issue 22).
    Frame(ServerFrame, String),
    /// One line that did not decode; the connection goes on.
    DecodeError(String),
    Status(ConnectionStatus),
    /// A line over 1 MiB was skipped (bounded memory).
    Oversize {
        discarded: usize,
    },
}

pub(crate) type AcceptReply = std::result::Result<MediaAccept, MediaError>;

pub(crate) enum Outgoing {
    Frame(ClientFrame),
    /// Written in order with other frames, so replies pair up with offers FIFO.
    Offer(MediaOffer, oneshot::Sender<AcceptReply>),
}

/// Resolves once the player closed the session (or every handle is gone).
pub(crate) async fn closed(close: &mut watch::Receiver<bool>) {
    let _ = close.wait_for(|c| *c).await;
}

pub(crate) fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}
