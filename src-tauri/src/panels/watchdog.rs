//! The stall watchdog. WebKitGTK runs a panel page's script on the app page's own thread, so a
//! page that spins (`while(true){}`) freezes the whole window, and every rejoin of its room
//! froze it again. The backend cannot be frozen by a page: it pings the interface every half
//! second over a channel and the interface answers. When a page is mounted and the answers stop
//! for [`STALL_AFTER`], the backend turns that room's panel code off (remembered, like the
//! person's own answer), ends the stuck web process, reloads the window, and the interface
//! rejoins the room with a notice naming the pages that were running.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};

use super::consent::PanelCode;
use super::Panels;

/// How often the interface is asked whether it still answers.
pub const PING_EVERY: Duration = Duration::from_millis(500);
/// Silence, with a page mounted, that counts as a window taken hostage. Long enough that a
/// busy moment of the interface (a long replay) is not mistaken for one.
pub const STALL_AFTER: Duration = Duration::from_secs(4);

/// When the interface last answered. Pure: the watchdog's judgement, tested without a window.
#[derive(Debug, Default)]
pub struct Heartbeat {
    answered_at: Option<Instant>,
}

impl Heartbeat {
    pub fn answered(&mut self, now: Instant) {
        self.answered_at = Some(now);
    }

    /// A new page load: it has not answered yet, and a loading page is not a stalled one.
    pub fn reset(&mut self) {
        self.answered_at = None;
    }

    /// Stalled: a panel page is mounted and a page that did answer has been silent too long.
    pub fn stalled(&self, now: Instant, pages_mounted: bool) -> bool {
        pages_mounted
            && self
                .answered_at
                .is_some_and(|t| now.saturating_duration_since(t) >= STALL_AFTER)
    }
}

pub use ipc::Recovery;

#[derive(Default)]
struct State_ {
    heartbeat: Heartbeat,
    channel: Option<Channel<u64>>,
    seq: u64,
    recovery: Option<Recovery>,
}

#[derive(Default)]
pub struct Watchdog {
    state: Mutex<State_>,
}

impl Watchdog {
    fn lock(&self) -> std::sync::MutexGuard<'_, State_> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The window started loading a page: the old page's channel and answers are gone.
    pub fn page_load(&self) {
        let mut s = self.lock();
        s.channel = None;
        s.heartbeat.reset();
    }
}

/// Starts the watchdog thread (for the app's life).
pub fn start(app: AppHandle) {
    std::thread::Builder::new()
        .name("stall-watchdog".into())
        .spawn(move || loop {
            std::thread::sleep(PING_EVERY);
            let dog = app.state::<Watchdog>();
            let panels = app.state::<Panels>();
            let stalled = {
                let mut s = dog.lock();
                s.seq += 1;
                let seq = s.seq;
                if let Some(ch) = &s.channel {
                    let _ = ch.send(seq);
                }
                s.heartbeat
                    .stalled(Instant::now(), panels.mounts.count() > 0)
            };
            if stalled {
                recover(&app);
            }
        })
        .expect("starting the stall watchdog");
}

/// Ends the stuck page and brings the window back with the room's panel code off.
fn recover(app: &AppHandle) {
    let state = app.state::<Panels>();
    let panels = state.mounts.titles();
    tracing::warn!(
        pages = panels.len(),
        "a panel page stopped the window answering: ending its web process"
    );
    if let Some(room) = state.consent.current() {
        if let Err(e) = state.consent.set(&room, Some(PanelCode::Blocks)) {
            tracing::warn!("could not remember the room's panel code as off: {e}");
        }
    }
    state.consent.leave();
    state.mounts.clear();
    {
        let dog = app.state::<Watchdog>();
        let mut s = dog.lock();
        s.channel = None;
        s.heartbeat.reset();
        s.recovery = Some(Recovery { panels });
    }
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    #[cfg(target_os = "linux")]
    {
        let _ = window.with_webview(|pw| {
            use webkit2gtk::WebViewExt;
            let view = pw.inner();
            view.terminate_web_process();
            view.reload();
        });
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = window.reload();
    }
}

/// The interface opens its side of the heartbeat (once per page load).
#[tauri::command]
pub fn watch_stalls(
    dog: State<'_, Watchdog>,
    args: ipc::cmd::WatchStalls,
    on_ping: Channel<ipc::Message<ipc::cmd::WatchStalls>>,
) -> ipc::Reply<ipc::cmd::WatchStalls> {
    let ipc::cmd::WatchStalls {} = args;
    let mut s = dog.lock();
    s.channel = Some(on_ping);
    s.heartbeat.answered(Instant::now());
}

/// The interface still answers.
#[tauri::command]
pub fn pong(dog: State<'_, Watchdog>, args: ipc::cmd::Pong) -> ipc::Reply<ipc::cmd::Pong> {
    let ipc::cmd::Pong {} = args;
    dog.lock().heartbeat.answered(Instant::now());
}

/// Why the window was reloaded, once: the interface rejoins and says so.
#[tauri::command]
pub fn stall_recovery(
    dog: State<'_, Watchdog>,
    args: ipc::cmd::StallRecovery,
) -> ipc::Reply<ipc::cmd::StallRecovery> {
    let ipc::cmd::StallRecovery {} = args;
    let r = dog.lock().recovery.take();
    if r.is_some() {
        tracing::info!("the reloaded window was told which panel pages froze it");
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_silence_with_a_page_mounted_is_a_stall() {
        let t0 = Instant::now();
        let mut h = Heartbeat::default();
        // A page that has not answered yet (still loading) is never stalled.
        assert!(!h.stalled(t0 + Duration::from_secs(60), true));
        h.answered(t0);
        assert!(!h.stalled(t0 + STALL_AFTER - Duration::from_millis(1), true));
        assert!(h.stalled(t0 + STALL_AFTER, true));
        // No panel page mounted: whatever keeps the interface busy is not a page's doing.
        assert!(!h.stalled(t0 + Duration::from_secs(60), false));
        // An answer resets the clock; a reload forgets it.
        h.answered(t0 + STALL_AFTER);
        assert!(!h.stalled(t0 + STALL_AFTER + Duration::from_secs(1), true));
        h.reset();
        assert!(!h.stalled(t0 + Duration::from_secs(60), true));
    }
}
