//! Dialing a table and the join handshake: `join` first, then `welcome` or `error` within 15 s,
//! and the version gate on `welcome.protocol`.

use std::time::Duration;

use iroh::endpoint::{Connection, RecvStream, SendStream};
use iroh::{Endpoint, EndpointAddr};
use protocol::codec::{decode_server, encode_line, LineEvent, LineSplitter};
use protocol::frame::{ClientInfo, Join};
use protocol::{ClientFrame, ServerFrame};

use crate::error::{Result, TransportError};
use crate::events::{JoinParams, SessionEvent};

/// How long a table may take to answer `join`.
pub const JOIN_TIMEOUT: Duration = Duration::from_secs(15);
/// How long dialing may take before we give up on this attempt.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// Frames a table may send before it answers the join (a real engine sends none: `welcome`
/// comes first)…
pub const MAX_FRAMES_BEFORE_WELCOME: usize = 16;
/// …and bytes, counted over whole reads, before the read that holds the answer.
pub const MAX_BYTES_BEFORE_WELCOME: usize = 256 * 1024;
/// The name Studio gives in `join.client`.
pub const CLIENT_NAME: &str = "loreweaver-studio";

/// A joined connection: the control stream halves, the splitter with whatever it still holds,
/// and the events read so far (`welcome` last).
pub(crate) struct Joined {
    pub conn: Connection,
    pub send: SendStream,
    pub recv: RecvStream,
    pub splitter: LineSplitter,
    pub events: Vec<SessionEvent>,
}

/// Errors after which reconnecting cannot help.
pub(crate) fn is_final(error: &TransportError) -> bool {
    match error {
        TransportError::BadKey { .. }
        | TransportError::VersionRefused { .. }
        | TransportError::FloodBeforeWelcome { .. } => true,
        TransportError::JoinRejected { code, .. } => code == "forbidden",
        _ => false,
    }
}

pub(crate) async fn dial_and_join(
    endpoint: &Endpoint,
    addr: &EndpointAddr,
    params: &JoinParams,
) -> Result<Joined> {
    let conn = tokio::time::timeout(
        CONNECT_TIMEOUT,
        endpoint.connect(addr.clone(), protocol::ALPN),
    )
    .await
    .map_err(|_| {
        TransportError::Connect(format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()))
    })?
    .map_err(|e| TransportError::Connect(e.to_string()))?;
    let (mut send, mut recv) = conn
        .open_bi()
        .await
        .map_err(|e| TransportError::Connect(e.to_string()))?;
    let join = ClientFrame::Join(Join {
        key: params.key.clone(),
        name: params.name.clone(),
        client: Some(ClientInfo {
            name: CLIENT_NAME.into(),
            version: params.client_version.clone(),
        }),
    });
    send.write_all(encode_line(&join).as_bytes())
        .await
        .map_err(|e| TransportError::Connect(e.to_string()))?;

    let mut splitter = LineSplitter::new();
    let mut events = Vec::new();
    // What arrived before the answer: capped, so a table cannot fill memory during the 15 s.
    let (mut before_frames, mut before_bytes) = (0usize, 0usize);
    let flood = |frames: usize, bytes: usize| TransportError::FloodBeforeWelcome {
        frames,
        bytes,
        max_frames: MAX_FRAMES_BEFORE_WELCOME,
        max_kib: MAX_BYTES_BEFORE_WELCOME / 1024,
    };
    let answer = tokio::time::timeout(JOIN_TIMEOUT, async {
        loop {
            let chunk = match recv.read_chunk(64 * 1024).await {
                Ok(Some(chunk)) => chunk,
                // Closed with nothing said: the table did not admit us (see NotAdmitted).
                Ok(None) if events.is_empty() => return Err(TransportError::NotAdmitted),
                Err(_) if events.is_empty() => return Err(TransportError::NotAdmitted),
                Ok(None) => {
                    return Err(TransportError::Closed("the table ended the stream".into()))
                }
                Err(e) => return Err(TransportError::Closed(e.to_string())),
            };
            // Frames that arrive in the same chunk as the welcome (presence, replay, state…)
            // belong to the session too: keep every one, answer after the whole chunk.
            let mut answer = None;
            for event in splitter.push(&chunk) {
                let event = to_event(event);
                if answer.is_none() {
                    answer = match &event {
                        SessionEvent::Frame(ServerFrame::Welcome(w), _) => {
                            Some(Ok(w.protocol.clone()))
                        }
                        SessionEvent::Frame(ServerFrame::Error(e), _) => {
                            Some(Err((e.code.as_str().to_string(), e.message.clone())))
                        }
                        _ => None,
                    };
                    if answer.is_none() {
                        before_frames += 1;
                    }
                }
                events.push(event);
                if before_frames > MAX_FRAMES_BEFORE_WELCOME {
                    return Err(flood(before_frames, before_bytes + chunk.len()));
                }
            }
            if let Some(answer) = answer {
                return Ok(answer);
            }
            before_bytes += chunk.len();
            if before_bytes > MAX_BYTES_BEFORE_WELCOME {
                return Err(flood(before_frames, before_bytes));
            }
        }
    })
    .await
    .map_err(|_| TransportError::JoinTimeout {
        secs: JOIN_TIMEOUT.as_secs(),
    })??;

    match answer {
        Ok(banner) if protocol::version::is_major_mismatch(&banner) => {
            // Refuse: a different major misreads frames instead of failing.
            conn.close(1u32.into(), b"protocol major mismatch");
            Err(TransportError::VersionRefused {
                server: banner.trim().to_string(),
                ours: protocol::PROTOCOL_VERSION.to_string(),
            })
        }
        Ok(_) => Ok(Joined {
            conn,
            send,
            recv,
            splitter,
            events,
        }),
        Err((code, message)) => {
            conn.close(0u32.into(), b"join rejected");
            Err(if code == "bad_key" {
                TransportError::BadKey { message }
            } else {
                TransportError::JoinRejected { code, message }
            })
        }
    }
}

/// One splitter event as a session event.
pub(crate) fn to_event(event: LineEvent) -> SessionEvent {
    match event {
        LineEvent::Line(line) => match decode_server(&line) {
            Ok(frame) => SessionEvent::Frame(frame, line),
            Err(e) => SessionEvent::DecodeError(e.to_string()),
        },
        LineEvent::Oversize { discarded } => SessionEvent::Oversize { discarded },
        LineEvent::BadUtf8 => SessionEvent::DecodeError("a line was not UTF-8".into()),
    }
}

/// The delay before reconnect attempt `attempt` (1-based): 250 ms doubling to a 5 s cap, with
/// "equal jitter" (half fixed, half random) so a table's clients do not return in lockstep.
pub fn backoff(attempt: u32) -> Duration {
    let base = 250u64
        .saturating_mul(1u64 << attempt.saturating_sub(1).min(10))
        .min(5_000);
    let half = base / 2;
    Duration::from_millis(half + rand::random_range(0..=half))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_the_cap_with_jitter() {
        for (attempt, base) in [
            (1, 250),
            (2, 500),
            (3, 1000),
            (5, 4000),
            (6, 5000),
            (40, 5000),
        ] {
            for _ in 0..50 {
                let d = backoff(attempt).as_millis() as u64;
                assert!(d >= base / 2 && d <= base, "attempt {attempt}: {d} ms");
            }
        }
    }
}
