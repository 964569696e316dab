//! The control stream: one long-lived bidirectional stream per connection, a single writer,
//! the client's pings, and reconnects with backoff that re-join with the same key.
//!
//! [`Session::connect`] returns only after the first `welcome` (or with the reason there was
//! none). From then on a supervisor task owns the connection: frames and status changes arrive
//! on the event receiver; [`SessionHandle`] sends, uploads, and closes.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use iroh::Endpoint;
use iroh_tickets::endpoint::EndpointTicket;
use protocol::frame::{MediaOffer, PanelIntent};
use protocol::ClientFrame;
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::{Result, TransportError};
use crate::events::Outgoing;
use crate::join::dial_and_join;
use crate::media::{check_upload, hash_file, MediaChannel, MediaError};
use crate::supervisor::Supervisor;

pub use crate::events::{ConnectionStatus, JoinParams, SessionEvent, PING_INTERVAL};

/// The server's cap on `input.text`, in characters.
pub const MAX_INPUT_CHARS: usize = 4000;
/// How long an upload waits for `media_accept`.
const ACCEPT_TIMEOUT: Duration = Duration::from_secs(30);

/// A file to upload.
#[derive(Debug, Clone)]
pub struct UploadRequest {
    pub path: PathBuf,
    pub name: String,
    pub mime: String,
}

/// How an upload ended well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadOutcome {
    Stored {
        hash: String,
    },
    /// The room already had these bytes (`media_accept{existing:true}`): no PUT was needed.
    Existing {
        hash: String,
    },
}

/// Entry point.
pub struct Session;

impl Session {
    /// Dials `ticket`, joins, and starts the supervisor. Fails with the first attempt's reason
    /// (bad key, version refusal, join timeout, unreachable): no retry before a first welcome.
    pub async fn connect(
        endpoint: Endpoint,
        ticket: EndpointTicket,
        params: JoinParams,
    ) -> Result<(SessionHandle, mpsc::Receiver<SessionEvent>)> {
        let addr = ticket.endpoint_addr().clone();
        let joined = dial_and_join(&endpoint, &addr, &params).await?;
        let (events_tx, events_rx) = mpsc::channel(1024);
        let (outbox_tx, outbox_rx) = mpsc::channel(256);
        // Online before `connect` returns, so the caller can send at once.
        let online = ConnectionStatus::Online { latency_ms: None };
        let (status_tx, status_rx) = watch::channel(online);
        let (media_tx, media_rx) = watch::channel(Some(MediaChannel::new(joined.conn.clone())));
        let (close_tx, close_rx) = watch::channel(false);
        let supervisor = Supervisor {
            endpoint,
            addr,
            params,
            events: events_tx,
            outbox: outbox_rx,
            status: status_tx,
            media: media_tx,
            close: close_rx,
        };
        tokio::spawn(supervisor.run(joined));
        let handle = SessionHandle {
            outbox: outbox_tx,
            status: status_rx,
            media: media_rx,
            close: Arc::new(close_tx),
        };
        Ok((handle, events_rx))
    }
}

/// Cheap to clone; every clone drives the same session.
#[derive(Clone)]
pub struct SessionHandle {
    outbox: mpsc::Sender<Outgoing>,
    status: watch::Receiver<ConnectionStatus>,
    media: watch::Receiver<Option<MediaChannel>>,
    close: Arc<watch::Sender<bool>>,
}

/// Refuses frames the server would reject for length, before they leave.
pub fn validate(frame: &ClientFrame) -> Result<()> {
    let check = |field, text: &str, max| {
        let len = text.chars().count();
        if len > max {
            Err(TransportError::TooLong { field, len, max })
        } else {
            Ok(())
        }
    };
    match frame {
        ClientFrame::Input(input) => check("the message", &input.text, MAX_INPUT_CHARS),
        ClientFrame::PanelIntent(intent) => check(
            "the panel value",
            &intent.value,
            PanelIntent::MAX_VALUE_CHARS,
        ),
        _ => Ok(()),
    }
}

impl SessionHandle {
    /// Validates and queues one frame for the writer. Fails while not online: a line typed
    /// during a reconnect is not silently sent to a later connection.
    pub async fn send(&self, frame: ClientFrame) -> Result<()> {
        validate(&frame)?;
        self.require_online()?;
        self.outbox
            .send(Outgoing::Frame(frame))
            .await
            .map_err(|_| TransportError::SessionEnded)
    }

    fn require_online(&self) -> Result<()> {
        match &*self.status.borrow() {
            ConnectionStatus::Online { .. } => Ok(()),
            ConnectionStatus::Refused { .. } | ConnectionStatus::Closed { .. } => {
                Err(TransportError::SessionEnded)
            }
            _ => Err(TransportError::Offline),
        }
    }

    pub fn status(&self) -> ConnectionStatus {
        self.status.borrow().clone()
    }

    /// A receiver that sees every status change (also reported as events).
    pub fn watch_status(&self) -> watch::Receiver<ConnectionStatus> {
        self.status.clone()
    }

    /// The media channel of the current connection, if online.
    pub fn media(&self) -> Option<MediaChannel> {
        self.media.borrow().clone()
    }

    /// Closes the session for good (no reconnect).
    pub fn close(&self) {
        let _ = self.close.send(true);
    }

    /// Offers, then PUTs `request.path`: checks type and size first, hashes the file (streamed),
    /// and skips the PUT when the room already has the bytes. `progress(sent, total)`.
    pub async fn upload(
        &self,
        request: &UploadRequest,
        mut progress: impl FnMut(u64, u64) + Send,
    ) -> std::result::Result<UploadOutcome, MediaError> {
        let (sha256, size) = hash_file(&request.path).await?;
        check_upload(&request.name, &request.mime, size)?;
        let channel = self.media().ok_or(MediaError::Offline)?;
        let offer = MediaOffer {
            name: request.name.clone(),
            mime: request.mime.clone(),
            size,
            sha256: sha256.clone(),
        };
        let (tx, rx) = oneshot::channel();
        self.outbox
            .send(Outgoing::Offer(offer, tx))
            .await
            .map_err(|_| MediaError::Offline)?;
        let accept = tokio::time::timeout(ACCEPT_TIMEOUT, rx)
            .await
            .map_err(|_| MediaError::Stalled(ACCEPT_TIMEOUT.as_secs()))?
            .map_err(|_| MediaError::Offline)??;
        if accept.existing == Some(true) {
            progress(size, size);
            return Ok(UploadOutcome::Existing { hash: sha256 });
        }
        channel
            .put_file(&accept.upload_id, &request.path, &sha256, &mut progress)
            .await?;
        Ok(UploadOutcome::Stored { hash: sha256 })
    }
}
