//! The supervisor task behind a [`crate::SessionHandle`]: serves one joined connection at a
//! time (single writer, pings, offer replies) and reconnects with backoff when it is lost.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Instant;

use iroh::endpoint::SendStream;
use iroh::{Endpoint, EndpointAddr};
use protocol::codec::encode_line;
use protocol::{ClientFrame, ServerFrame};
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::TransportError;
use crate::events::{
    closed, now_ms, AcceptReply, ConnectionStatus, JoinParams, Outgoing, SessionEvent,
    PING_INTERVAL, PONG_DEADLINE,
};
use crate::join::{backoff, dial_and_join, is_final, to_event, Joined};
use crate::media::{MediaChannel, MediaError};

/// Reconnects closed before a welcome, in a row, that end the session as not admitted.
pub const NOT_ADMITTED_LIMIT: u32 = 3;
/// How long after a request of ours (anything but a ping) a `forbidden` counts as its answer.
pub const ANSWER_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);
/// Why the session ends when the check after an unasked `forbidden` is refused.
pub const REVOKED: &str = "the keeper revoked this invite key: the table no longer admits it";

pub(crate) struct Supervisor {
    pub(crate) endpoint: Endpoint,
    pub(crate) addr: EndpointAddr,
    pub(crate) params: JoinParams,
    pub(crate) events: mpsc::Sender<SessionEvent>,
    pub(crate) outbox: mpsc::Receiver<Outgoing>,
    pub(crate) status: watch::Sender<ConnectionStatus>,
    pub(crate) media: watch::Sender<Option<MediaChannel>>,
    pub(crate) close: watch::Receiver<bool>,
}

/// Why one connection ended.
enum End {
    Closed(String),
    Refused(String),
    Lost(String),
    /// The table said `forbidden` while we had asked nothing: a real engine does that, and
    /// then delivers nothing more, to a member whose key was deleted mid-session. Only a fresh
    /// join can tell a revoked key from a passing refusal.
    Unasked,
}

impl Supervisor {
    pub(crate) async fn run(mut self, first: Joined) {
        let mut joined = first;
        let end = loop {
            let checking = match self.serve(joined).await {
                End::Lost(reason) => {
                    tracing::info!("connection to the table lost: {reason}");
                    false
                }
                End::Unasked => {
                    tracing::info!(
                        "the table said forbidden unasked: checking the key by a fresh join"
                    );
                    true
                }
                end => break end,
            };
            match self.reconnect(checking).await {
                Ok(next) => joined = next,
                // The fresh join is the check: refused means the key is gone.
                Err(End::Refused(reason)) if checking => {
                    tracing::info!("the fresh join was refused: {reason}");
                    break End::Refused(REVOKED.into());
                }
                Err(end) => break end,
            }
        };
        let status = match end {
            End::Closed(reason) => ConnectionStatus::Closed { reason },
            End::Refused(reason) | End::Lost(reason) => ConnectionStatus::Refused { reason },
            End::Unasked => ConnectionStatus::Refused {
                reason: REVOKED.into(),
            },
        };
        self.set_status(status).await;
    }

    async fn set_status(&self, status: ConnectionStatus) {
        self.status.send_replace(status.clone());
        let _ = self.events.send(SessionEvent::Status(status)).await;
    }

    /// Retries with backoff until a welcome, a final refusal, or close. `checking`: the first
    /// try goes at once (it is the key check after an unasked `forbidden`).
    async fn reconnect(&mut self, checking: bool) -> std::result::Result<Joined, End> {
        let mut attempt = 0u32;
        // A table that keeps closing on us before a welcome no longer admits the key (its
        // `bad_key` is often lost): after a few in a row, that is the answer.
        let mut not_admitted = 0u32;
        loop {
            attempt += 1;
            let delay = if checking && attempt == 1 {
                std::time::Duration::ZERO
            } else {
                backoff(attempt)
            };
            self.set_status(ConnectionStatus::Reconnecting {
                attempt,
                in_ms: delay.as_millis() as u64,
            })
            .await;
            tokio::select! {
                _ = tokio::time::sleep(delay) => {}
                _ = closed(&mut self.close) => return Err(End::Closed("closed by the player".into())),
            }
            self.set_status(ConnectionStatus::Connecting).await;
            let dial = dial_and_join(&self.endpoint, &self.addr, &self.params);
            let result = tokio::select! {
                r = dial => r,
                _ = closed(&mut self.close) => return Err(End::Closed("closed by the player".into())),
            };
            match result {
                Ok(joined) => return Ok(joined),
                Err(e) if is_final(&e) => return Err(End::Refused(e.to_string())),
                Err(TransportError::NotAdmitted) if not_admitted + 1 >= NOT_ADMITTED_LIMIT => {
                    return Err(End::Refused(TransportError::NotAdmitted.to_string()));
                }
                Err(e) => {
                    not_admitted = match e {
                        TransportError::NotAdmitted => not_admitted + 1,
                        _ => 0,
                    };
                    tracing::info!(attempt, "reconnect failed: {e}");
                }
            }
        }
    }

    /// Runs one joined connection until it ends.
    async fn serve(&mut self, joined: Joined) -> End {
        let Joined {
            conn,
            send,
            mut recv,
            mut splitter,
            events,
        } = joined;
        let (line_tx, line_rx) = mpsc::channel::<String>(256);
        let writer = tokio::spawn(write_lines(send, line_rx));
        let offers: Mutex<VecDeque<oneshot::Sender<AcceptReply>>> = Mutex::new(VecDeque::new());
        // `rate_limited` answers inputs and offers alike: it belongs to an offer only when the
        // last thing we sent that could be rate limited was an offer.
        let mut last_limited_was_offer = false;
        let mut latency_ms = None;
        let mut last_pong = Instant::now();
        // When we last asked the table something a `forbidden` could answer.
        let mut last_request: Option<Instant> = None;
        self.media
            .send_replace(Some(MediaChannel::new(conn.clone())));
        self.set_status(ConnectionStatus::Online { latency_ms })
            .await;
        for event in events {
            if self.events.send(event).await.is_err() {
                return End::Closed("the app stopped listening".into());
            }
        }
        let mut ping = tokio::time::interval(PING_INTERVAL);
        let end = loop {
            tokio::select! {
                _ = closed(&mut self.close) => {
                    conn.close(0u32.into(), b"closed by the player");
                    break End::Closed("closed by the player".into());
                }
                out = self.outbox.recv() => {
                    let line = match out {
                        None => break End::Closed("the app dropped the session".into()),
                        Some(Outgoing::Frame(frame)) => {
                            // A line of the story is never refused with `forbidden` except when
                            // the key is gone: only the other requests can draw one legitimately.
                            if !matches!(frame, ClientFrame::Input(_)) {
                                last_request = Some(Instant::now());
                            }
                            if matches!(frame, ClientFrame::Input(_) | ClientFrame::PanelIntent(_)) {
                                last_limited_was_offer = false;
                            }
                            encode_line(&frame)
                        }
                        Some(Outgoing::Offer(offer, reply)) => {
                            last_request = Some(Instant::now());
                            last_limited_was_offer = true;
                            offers.lock().expect("offers").push_back(reply);
                            encode_line(&ClientFrame::MediaOffer(offer))
                        }
                    };
                    if line_tx.send(line).await.is_err() {
                        break End::Lost("the control stream stopped accepting writes".into());
                    }
                }
                _ = ping.tick() => {
                    if last_pong.elapsed() > PONG_DEADLINE {
                        conn.close(0u32.into(), b"no pong");
                        break End::Lost(format!("no pong for {} s", PONG_DEADLINE.as_secs()));
                    }
                    let _ = line_tx.send(encode_line(&ClientFrame::ping(now_ms()))).await;
                }
                chunk = recv.read_chunk(64 * 1024) => {
                    let chunk = match chunk {
                        Ok(Some(chunk)) => chunk,
                        Ok(None) => break End::Lost("the table ended the stream".into()),
                        Err(e) => break End::Lost(e.to_string()),
                    };
                    let mut fatal = None;
                    let mut unasked = false;
                    for event in splitter.push(&chunk) {
                        let event = to_event(event);
                        if let SessionEvent::Frame(ServerFrame::Error(err), _) = &event {
                            if err.code.as_str() == "forbidden" && last_request.is_none_or(|t| t.elapsed() > ANSWER_WINDOW) {
                                // Not shown as an error line: the check below decides what it meant.
                                unasked = true;
                                continue;
                            }
                        }
                        if let SessionEvent::Frame(frame, _) = &event {
                            match frame {
                                ServerFrame::Pong(pong) => {
                                    last_pong = Instant::now();
                                    latency_ms = Some((now_ms() - pong.t).max(0.0).round() as u64);
                                    self.status.send_replace(ConnectionStatus::Online { latency_ms });
                                    let _ = self.events.send(SessionEvent::Status(ConnectionStatus::Online { latency_ms })).await;
                                }
                                ServerFrame::MediaAccept(accept) => {
                                    if let Some(reply) = offers.lock().expect("offers").pop_front() {
                                        let _ = reply.send(Ok(accept.clone()));
                                    }
                                }
                                ServerFrame::Error(err) if err.code.is_media() || (err.code.as_str() == "rate_limited" && last_limited_was_offer) => {
                                    if let Some(reply) = offers.lock().expect("offers").pop_front() {
                                        let _ = reply.send(Err(MediaError::Refused { code: err.code.as_str().into(), message: err.message.clone() }));
                                    }
                                }
                                ServerFrame::Error(err) if err.code.as_str() == "bad_key" => {
                                    fatal = Some(format!("the table rejected the key: {}", err.message));
                                }
                                _ => {}
                            }
                        }
                        if self.events.send(event).await.is_err() {
                            fatal = Some(String::new());
                        }
                    }
                    if let Some(reason) = fatal {
                        conn.close(0u32.into(), b"");
                        break if reason.is_empty() { End::Closed("the app stopped listening".into()) } else { End::Refused(reason) };
                    }
                    if unasked {
                        conn.close(0u32.into(), b"checking the key");
                        break End::Unasked;
                    }
                }
            }
        };
        self.media.send_replace(None);
        writer.abort();
        // Pending offers cannot be answered on a later connection.
        for reply in offers.lock().expect("offers").drain(..) {
            let _ = reply.send(Err(MediaError::Offline));
        }
        end
    }
}

/// The single writer of a connection's control stream.
async fn write_lines(mut send: SendStream, mut lines: mpsc::Receiver<String>) {
    while let Some(line) = lines.recv().await {
        if send.write_all(line.as_bytes()).await.is_err() {
            break;
        }
    }
    let _ = send.finish();
}
