//! The pump: a session's events to the window, at most one batch per [`PUMP_INTERVAL`], each
//! event shown first to the features following the session. It imports no feature.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ipc::{PumpBatch, PumpEvent};
use tauri::ipc::Channel;
use tokio::sync::mpsc;
use transport::session::SessionEvent;

use super::Listener;

/// At most one emit per frame interval: a replay burst becomes a few IPC calls, not thousands.
const PUMP_INTERVAL: Duration = Duration::from_millis(16);

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
    while let Some(first) = events.recv().await {
        show(&first);
        let mut batch = PumpBatch::default();
        to_window(first, &mut batch);
        tokio::time::sleep(PUMP_INTERVAL).await;
        while let Ok(more) = events.try_recv() {
            show(&more);
            to_window(more, &mut batch);
        }
        if channel.send(batch).is_err() {
            // The page went away (reload or close): nobody is listening any more.
            break;
        }
    }
}

/// An event onto the window's batch: a frame as the line it came in as (the page sanitises it
/// as it decodes), reasons through the frames' sanitiser.
fn to_window(event: SessionEvent, batch: &mut PumpBatch) {
    let event = match event {
        SessionEvent::Frame(_, line) => return batch.frame(&line),
        SessionEvent::Status(s) => PumpEvent::Status(crate::clean::status(s)),
        SessionEvent::DecodeError(e) => PumpEvent::DecodeError(crate::clean::text(&e)),
        SessionEvent::Oversize { discarded } => PumpEvent::Oversize(discarded),
    };
    batch.event(&event);
}
