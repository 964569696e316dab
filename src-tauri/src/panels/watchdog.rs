//! The stall watchdog. WebKitGTK runs a panel page's script on the app page's own thread, so a
//! page that spins (`while(true){}`) freezes the whole window, and every rejoin of its room
//! froze it again. The backend cannot be frozen by a page: it asks the window to evaluate a
//! script that does nothing, every half second while a panel page is live (every
//! [`IDLE_PING_EVERY`] otherwise), and the answer comes back from the page's thread, the one a
//! spinning page takes. None of the interface's code runs for it and nothing is invoked back:
//! an idle table should cost nothing. When a page is mounted and the answers stop for
//! [`STALL_AFTER`], the backend turns that room's panel code off (remembered, like the
//! person's own answer), ends the stuck web process (each platform's way: `web_process`),
//! reloads the window, and the interface rejoins the room with a notice naming the pages that
//! were running.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tauri::{AppHandle, Manager, State};

use super::consent::PanelCode;
use super::Panels;

/// How often the interface is asked whether it still answers.
pub const PING_EVERY: Duration = Duration::from_millis(500);
/// How often while no panel page is live: the log's "stopped answering" needs it then, and a
/// page mounting is judged from a window known to answer. When the ping went through a
/// channel to the page's script and an invoke back, each cost ~120 wakeups across the app
/// and its web process: 12 of a quiet table's 20 a second, even this rarely (#30 item 3).
pub const IDLE_PING_EVERY: Duration = Duration::from_secs(10);
/// Silence, with a page mounted, that counts as a window taken hostage. Long enough that a
/// busy moment of the interface (a long replay) is not mistaken for one.
pub const STALL_AFTER: Duration = Duration::from_secs(4);
/// The stretch over which responsiveness is judged as well: a page that spins 3.5 s and yields
/// 50 ms never stays silent for [`STALL_AFTER`], yet the window is unusable.
pub const JUDGED_OVER: Duration = Duration::from_secs(10);
/// The share of [`JUDGED_OVER`] the window may spend not answering (with a page mounted).
pub const UNRESPONSIVE_SHARE: f64 = 0.5;
/// A gap between answers up to this long is normal (a ping every half second, a busy frame):
/// only what goes beyond it counts as unresponsive.
pub const SLACK: Duration = Duration::from_secs(1);

/// When the interface answered. Pure: the watchdog's judgement, tested without a window.
#[derive(Debug, Default)]
pub struct Heartbeat {
    answered_at: Option<Instant>,
    /// Stretches the window did not answer while a page was mounted: (from, to), the part of
    /// each gap beyond [`SLACK`], oldest first, none older than [`JUDGED_OVER`].
    silences: std::collections::VecDeque<(Instant, Instant)>,
}

impl Heartbeat {
    /// The interface answered at `now`; `pages_mounted`: a panel page was mounted meanwhile.
    pub fn answered(&mut self, now: Instant, pages_mounted: bool) {
        if let (Some(last), true) = (self.answered_at, pages_mounted) {
            let from = last + SLACK;
            if now > from {
                self.silences.push_back((from, now));
            }
        }
        while self
            .silences
            .front()
            .is_some_and(|(_, to)| now.saturating_duration_since(*to) > JUDGED_OVER)
        {
            self.silences.pop_front();
        }
        self.answered_at = Some(now);
    }

    /// Pages went live after a stretch without: the idle pings' gaps are not silences, so
    /// the judgement starts over from `now`, as if the window had just answered. It has: its
    /// interface asked for the mount. A window not yet pinged since its load is judged from
    /// here too, so a page that spins at once is still caught.
    pub fn rebase(&mut self, now: Instant) {
        self.answered_at = Some(now);
        self.silences.clear();
    }

    /// A new page load: it has not answered yet, and a loading page is not a stalled one.
    pub fn reset(&mut self) {
        self.answered_at = None;
        self.silences.clear();
    }

    /// How long of the last [`JUDGED_OVER`] the window spent not answering, the current
    /// silence included.
    pub fn unresponsive(&self, now: Instant) -> Duration {
        let start = now.checked_sub(JUDGED_OVER).unwrap_or(now);
        let ongoing = self.answered_at.map(|t| (t + SLACK, now));
        self.silences
            .iter()
            .copied()
            .chain(ongoing)
            .map(|(from, to)| to.saturating_duration_since(from.max(start)))
            .sum()
    }

    /// Stalled: a panel page is mounted and a page that did answer has been silent too long,
    /// or has not answered for most of the last [`JUDGED_OVER`].
    pub fn stalled(&self, now: Instant, pages_mounted: bool) -> bool {
        let Some(last) = self.answered_at else {
            return false;
        };
        pages_mounted
            && (now.saturating_duration_since(last) >= STALL_AFTER
                || self.unresponsive(now).as_secs_f64()
                    >= JUDGED_OVER.as_secs_f64() * UNRESPONSIVE_SHARE)
    }
}

pub use ipc::Recovery;

#[derive(Default)]
struct State_ {
    heartbeat: Heartbeat,
    /// Page loads so far: an answer to a ping sent before the last one is the old page's.
    load: u64,
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

    /// The window started loading a page: the old page's answers are gone.
    pub fn page_load(&self) {
        let mut s = self.lock();
        s.load += 1;
        s.heartbeat.reset();
    }

    /// The page of `load` answered a ping; `mounted`: a panel page was mounted meanwhile.
    fn answered(&self, load: u64, mounted: bool) {
        let mut s = self.lock();
        if s.load == load {
            s.heartbeat.answered(Instant::now(), mounted);
        }
    }
}

/// Asks the window's page to evaluate a script that does nothing (on the app's main thread).
/// The answer comes from the page's thread once it is free: a page that spins holds it back.
fn ping(app: &AppHandle, load: u64) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    let app = app.clone();
    // Only the script's own result is an answer: WebKit fails an evaluation at once (the
    // callback gets "") when the web process is gone, and that window does not answer.
    let _ = window.eval_with_callback("0", move |result| {
        if result == "0" {
            let mounted = app.state::<Panels>().mounts.count() > 0;
            app.state::<Watchdog>().answered(load, mounted);
        }
    });
}

/// Starts the watchdog thread (for the app's life).
pub fn start(app: AppHandle) {
    // When the app's main thread last ran a task of ours: a window that stops answering with
    // it still running is the page's own doing (its script spins); with it silent too, the
    // main thread is stuck. Said in the log either way (CI has seen windows go silent for
    // minutes with no panel page: the log is the evidence).
    let main_ran = std::sync::Arc::new(Mutex::new(Instant::now()));
    let mut silent_since: Option<Instant> = None;
    std::thread::Builder::new()
        .name("stall-watchdog".into())
        .spawn(move || loop {
            let dog = app.state::<Watchdog>();
            let panels = app.state::<Panels>();
            let live_before = panels.mounts.count() > 0;
            if live_before {
                std::thread::sleep(PING_EVERY);
            } else {
                panels.mounts.wait_for_a_page(IDLE_PING_EVERY);
            }
            // Read once: a page mounting between a second read and the judgement below would
            // be judged against the last idle answer, up to [`IDLE_PING_EVERY`] old, and its
            // healthy window taken for a stalled one.
            let live = panels.mounts.count() > 0;
            if !live_before && live {
                dog.lock().heartbeat.rebase(Instant::now());
            }
            // One trip to the main thread for both: each wakes it, and asking from this thread
            // would wait there for a main thread that may be the stuck one.
            let ran = main_ran.clone();
            let load = dog.lock().load;
            let asker = app.clone();
            let _ = app.run_on_main_thread(move || {
                *ran.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
                ping(&asker, load);
            });
            let (stalled, answered_at) = {
                let s = dog.lock();
                (
                    s.heartbeat.stalled(Instant::now(), live),
                    s.heartbeat.answered_at,
                )
            };
            let now = Instant::now();
            let page_silent = answered_at.map(|t| now.saturating_duration_since(t));
            let main_silent =
                now.saturating_duration_since(*main_ran.lock().unwrap_or_else(|e| e.into_inner()));
            match (page_silent, silent_since) {
                (Some(d), None) if d >= SILENCE_LOGGED => {
                    silent_since = Some(now - d);
                    tracing::warn!(
                        page_silent_ms = d.as_millis() as u64,
                        main_thread_silent_ms = main_silent.as_millis() as u64,
                        panel_pages = panels.mounts.count(),
                        "the window has stopped answering the heartbeat"
                    );
                }
                (Some(d), Some(since)) if d < SILENCE_LOGGED => {
                    silent_since = None;
                    tracing::info!(
                        silent_ms = now.saturating_duration_since(since).as_millis() as u64,
                        "the window answers the heartbeat again"
                    );
                }
                _ => {}
            }
            if stalled {
                recover(&app);
            }
        })
        .expect("starting the stall watchdog");
}

/// How long a window may leave the heartbeat unanswered before the log says so: well past
/// the idle ping's period, since the check runs just before the answer to its own ping.
const SILENCE_LOGGED: Duration = Duration::from_secs(25);
const _: () = assert!(SILENCE_LOGGED.as_secs() >= 2 * IDLE_PING_EVERY.as_secs());

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
        s.load += 1;
        s.heartbeat.reset();
        s.recovery = Some(Recovery { panels });
    }
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    super::web_process::end_and_reload(&window);
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
        h.answered(t0, true);
        assert!(!h.stalled(t0 + STALL_AFTER - Duration::from_millis(1), true));
        assert!(h.stalled(t0 + STALL_AFTER, true));
        // No panel page mounted: whatever keeps the interface busy is not a page's doing.
        assert!(!h.stalled(t0 + Duration::from_secs(60), false));
        // An answer resets the clock; a reload forgets it.
        h.answered(t0 + STALL_AFTER, false);
        assert!(!h.stalled(t0 + STALL_AFTER + Duration::from_secs(1), true));
        h.reset();
        assert!(!h.stalled(t0 + Duration::from_secs(60), true));
    }

    #[test]
    fn pages_going_live_after_idle_pings_are_not_a_stall() {
        let t0 = Instant::now();
        let mut h = Heartbeat::default();
        h.answered(t0, false);
        // The last idle answer was long ago when a page mounts: judged from the mount on.
        let live = t0 + IDLE_PING_EVERY + Duration::from_millis(900);
        assert!(h.stalled(live, true), "without the rebase this is a stall");
        h.rebase(live);
        assert!(!h.stalled(live + Duration::from_millis(600), true));
        h.answered(live + Duration::from_millis(500), true);
        assert_eq!(
            h.unresponsive(live + Duration::from_millis(500)),
            Duration::ZERO
        );
        // A page that then stops answering is still one, on the usual clock.
        assert!(h.stalled(live + Duration::from_millis(500) + STALL_AFTER, true));
        // A window not yet pinged since its load, whose page spins from its mount on, is one
        // too: the mount was its interface answering.
        let mut fresh = Heartbeat::default();
        fresh.rebase(live);
        assert!(!fresh.stalled(live + STALL_AFTER - Duration::from_millis(1), true));
        assert!(fresh.stalled(live + STALL_AFTER, true));
    }

    #[test]
    fn an_answer_from_before_a_page_load_is_the_old_pages() {
        let dog = Watchdog::default();
        let asked = dog.lock().load;
        dog.page_load();
        dog.answered(asked, true);
        assert_eq!(
            dog.lock().heartbeat.answered_at,
            None,
            "the old page answered"
        );
        let now = dog.lock().load;
        dog.answered(now, true);
        assert!(dog.lock().heartbeat.answered_at.is_some());
    }

    /// Answers as a window whose page spins `busy` and yields `free`, from `t0` for `total`;
    /// the first moment the heartbeat calls it stalled (checked every ping, as the thread does).
    fn first_stall(busy: Duration, free: Duration, total: Duration) -> Option<Duration> {
        let t0 = Instant::now();
        let mut h = Heartbeat::default();
        h.answered(t0, true);
        let mut next_answer = t0 + busy;
        let mut at = t0;
        while at < t0 + total {
            at += PING_EVERY;
            while next_answer <= at {
                h.answered(next_answer, true);
                next_answer += busy + free;
            }
            if h.stalled(at, true) {
                return Some(at - t0);
            }
        }
        None
    }

    #[test]
    fn a_page_that_spins_and_yields_is_a_stall_within_fifteen_seconds() {
        // The review's page: 3.5 s busy, a moment free, forever. Never 4 s silent.
        let ms = Duration::from_millis;
        let found = first_stall(ms(3500), ms(50), Duration::from_secs(60));
        assert!(
            found.is_some_and(|t| t <= Duration::from_secs(15)),
            "{found:?}"
        );
        // A window answering every ping, with a busy second now and then, is never one.
        assert_eq!(first_stall(ms(500), ms(0), Duration::from_secs(120)), None);
        assert_eq!(
            first_stall(ms(1400), ms(100), Duration::from_secs(120)),
            None
        );
    }
}
