//! The pump: a session's events to the window, at most one batch per [`PUMP_INTERVAL`], each
//! event shown first to the features following the session. It imports no feature.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ipc::{PumpBatch, PumpEvent};
use tauri::ipc::Channel;
use tokio::sync::mpsc;
use tokio::time::Instant;
use transport::session::{ConnectionStatus, SessionEvent};

use super::Listener;

/// At most one emit per frame interval: a replay burst becomes a few IPC calls, not thousands.
const PUMP_INTERVAL: Duration = Duration::from_millis(16);
/// How long the first event after a quiet spell waits for the rest of its burst (a welcome and
/// its replay, a dice roll and its line: the lines of one network read are queued together).
/// It used to wait the whole interval, holding a reply's first words or a roll 14 ms longer
/// than one batch a frame needs. (The join's paint did not move with it: when the welcome
/// arrives, the page is still drawing the room.)
const GATHER: Duration = Duration::from_millis(2);

/// When a batch whose first event came `now` goes to the window, the last one having gone at
/// `last_sent`: after the burst is gathered, and never sooner than an interval after the last.
fn send_at(now: Instant, last_sent: Option<Instant>) -> Instant {
    let gathered = now + GATHER;
    match last_sent {
        Some(last) => gathered.max(last + PUMP_INTERVAL),
        None => gathered,
    }
}

/// A pump's ticket to shared state: valid while no newer session has started.
pub(super) struct Current {
    pub generation: u64,
    pub latest: Arc<AtomicU64>,
}

impl Current {
    fn is_current(&self) -> bool {
        self.latest.load(Ordering::SeqCst) == self.generation
    }
}

pub(super) async fn pump(
    mut events: mpsc::Receiver<SessionEvent>,
    channel: Channel<PumpBatch>,
    mut listeners: Vec<Box<dyn Listener>>,
    current: Current,
) {
    let mut show = |event: &SessionEvent| {
        // Only the frames `protocol::route` gives the backend reach its followers.
        if let SessionEvent::Frame(f, _) = event {
            if !protocol::route::readers(f).backend {
                return;
            }
        }
        let now = current.is_current();
        for l in listeners.iter_mut() {
            l.event(event, now);
        }
    };
    let mut said = Said::default();
    let mut last_sent = None;
    while let Some(first) = events.recv().await {
        show(&first);
        let mut batch = PumpBatch::default();
        said.pass(first, &mut batch);
        tokio::time::sleep_until(send_at(Instant::now(), last_sent)).await;
        while let Ok(more) = events.try_recv() {
            show(&more);
            said.pass(more, &mut batch);
        }
        if batch.is_empty() {
            continue;
        }
        if channel.send(batch).is_err() {
            // The page went away (reload or close): nobody is listening any more.
            break;
        }
        last_sent = Some(Instant::now());
    }
}

/// What the window has been told: an idle table's pings should not wake it (#30 item 3).
/// Every message to the window wakes the app's main thread, the web process and its script;
/// a ping every 10 s whose answer changed nothing did so twice, once as the `pong` (which no
/// reader of the window takes: its latency comes as the status) and once as the same status.
/// A latency that moved by a millisecond or two repainted the status bar every 10 s.
#[derive(Default)]
struct Said {
    status: Option<ConnectionStatus>,
}

impl Said {
    /// An event onto the window's batch: a frame as the line it came in as (the page
    /// sanitises it as it decodes), reasons through the frames' sanitiser.
    fn pass(&mut self, event: SessionEvent, batch: &mut PumpBatch) {
        match &event {
            SessionEvent::Frame(protocol::ServerFrame::Pong(_), _) => return,
            SessionEvent::Status(s) if !news(self.status.as_ref(), s) => return,
            SessionEvent::Status(s) => self.status = Some(s.clone()),
            _ => {}
        }
        to_window(event, batch);
    }
}

/// Whether `now` tells the person something `told` did not: any change of state, or a
/// latency that moved by at least 5 ms and a fifth (a ping's jitter is not news).
fn news(told: Option<&ConnectionStatus>, now: &ConnectionStatus) -> bool {
    use ConnectionStatus::Online;
    match (told, now) {
        (
            Some(Online {
                latency_ms: Some(was),
            }),
            Online {
                latency_ms: Some(is),
            },
        ) => {
            let moved = was.abs_diff(*is);
            moved >= 5 && moved * 5 >= *was
        }
        (Some(told), now) => told != now,
        (None, _) => true,
    }
}

fn to_window(event: SessionEvent, batch: &mut PumpBatch) {
    let event = match event {
        SessionEvent::Frame(_, line) => return batch.frame(&line),
        SessionEvent::Status(s) => PumpEvent::Status(crate::clean::status(s)),
        SessionEvent::DecodeError(e) => PumpEvent::DecodeError(crate::clean::text(&e)),
        SessionEvent::Oversize { discarded } => PumpEvent::Oversize(discarded),
    };
    batch.event(&event);
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::frame::Pong;
    use protocol::ServerFrame;

    fn online(latency_ms: u64) -> SessionEvent {
        SessionEvent::Status(ConnectionStatus::Online {
            latency_ms: Some(latency_ms),
        })
    }

    fn told(said: &mut Said, event: SessionEvent) -> bool {
        let mut batch = PumpBatch::default();
        said.pass(event, &mut batch);
        !batch.is_empty()
    }

    #[test]
    fn the_window_hears_a_status_once_until_it_changes() {
        let mut said = Said::default();
        assert!(told(&mut said, online(3)));
        assert!(!told(&mut said, online(3)), "the same status again");
        assert!(!told(&mut said, online(5)), "a ping's jitter");
        assert!(told(&mut said, online(9)));
        assert!(told(
            &mut said,
            SessionEvent::Status(ConnectionStatus::Connecting)
        ));
        assert!(told(&mut said, online(9)), "back online is news");
        assert!(told(
            &mut said,
            SessionEvent::Status(ConnectionStatus::Online { latency_ms: None })
        ));
    }

    #[test]
    fn a_first_event_after_quiet_goes_at_once_and_a_stream_once_an_interval() {
        let t0 = Instant::now();
        assert_eq!(send_at(t0, None), t0 + GATHER, "the first of a session");
        let quiet = t0 + Duration::from_secs(3);
        assert_eq!(
            send_at(quiet, Some(t0)),
            quiet + GATHER,
            "after a quiet spell"
        );
        let soon = t0 + Duration::from_millis(5);
        assert_eq!(
            send_at(soon, Some(t0)),
            t0 + PUMP_INTERVAL,
            "a stream: one batch an interval"
        );
        let edge = t0 + PUMP_INTERVAL - Duration::from_millis(1);
        assert_eq!(send_at(edge, Some(t0)), edge + GATHER);
    }

    #[test]
    fn a_latency_is_news_when_it_moves_by_5_ms_and_a_fifth() {
        let mut said = Said::default();
        assert!(told(&mut said, online(80)));
        assert!(!told(&mut said, online(95)), "15 ms of 80");
        assert!(!told(&mut said, online(66)));
        assert!(told(&mut said, online(96)), "16 ms of 80");
        assert!(
            !told(&mut said, online(80)),
            "judged from what was shown: 96"
        );
        assert!(told(&mut said, online(76)));
    }

    #[test]
    fn a_pong_is_not_sent_but_every_other_frame_is() {
        let mut said = Said::default();
        let pong = ServerFrame::Pong(Pong { t: 1.0 });
        assert!(!told(
            &mut said,
            SessionEvent::Frame(pong, r#"{"type":"pong","t":1}"#.into())
        ));
        let line = r#"{"type":"future_thing","x":1}"#;
        let unknown = protocol::codec::decode_server_value(serde_json::from_str(line).unwrap())
            .expect("an unknown frame decodes");
        assert!(told(&mut said, SessionEvent::Frame(unknown, line.into())));
    }
}
