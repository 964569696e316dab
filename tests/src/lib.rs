//! Drives the real Studio window: tauri-driver (which runs WebKitWebDriver) + a small WebDriver client.
//!
//! `cargo xtask test` provides the environment: `DISPLAY` (Xvfb), `STUDIO_APP` (the built binary),
//! `TAURI_DRIVER` and `STUDIO_E2E_OUT` (where screenshots go).
//!
//! Every scenario (`tests/e2e/<name>.rs`, all in one test binary) starts with
//! `let _scenario = studio_e2e::scenario();`: see [`scenario`].
//!
//! Linux only, on purpose: WebDriver reaches the window through WebKitGTK's driver
//! (`webkit2gtk-driver`), the scenarios read `/proc`, signal processes and start a private
//! D-Bus. On Windows and macOS the crate is empty; those platforms run the pure crates' tests.
#![cfg(target_os = "linux")]

mod driver;
pub mod engine;
mod hang;
pub mod hostile_text;
pub mod hosting;
pub mod keeper;
pub mod logs;
pub mod notifications;
pub mod peers;
pub mod play;
pub mod steady;
pub mod steady_story;
mod webdriver;
pub mod xdnd;

pub use driver::TauriDriver;
pub use hang::HANGS_FILE;
pub use webdriver::{Element, Session};

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// One scenario at a time, held from a scenario's first line to its end.
///
/// The scenarios are one test binary, and libtest runs a binary's tests on several threads:
/// two Studio windows (or engines, or tables) at once would change the timing every scenario
/// was written against when each was its own binary, run one after another. A process-wide
/// lock keeps that one-at-a-time order without `--test-threads=1`, which `cargo xtask test`
/// would have to pass to the whole `cargo test --workspace` (every crate's unit tests made
/// serial too). The lock is per scenario, not per window: `keeper_invites` holds two windows.
/// A scenario's locals drop before this guard, so its window is gone before the next starts.
pub fn scenario() -> Scenario {
    static ONE: Mutex<()> = Mutex::new(());
    // A failed scenario poisons the lock; that says nothing about the next one.
    let guard = ONE.lock().unwrap_or_else(PoisonError::into_inner);
    IN_SCENARIO.with(|held| held.set(true));
    Scenario { _one: guard }
}

/// The guard [`scenario`] returns; dropping it lets the next scenario start.
pub struct Scenario {
    _one: MutexGuard<'static, ()>,
}

impl Drop for Scenario {
    fn drop(&mut self) {
        IN_SCENARIO.with(|held| held.set(false));
    }
}

/// Fails at once when `what` starts on a thread that did not take [`scenario`] first.
pub(crate) fn assert_in_scenario(what: &str) {
    assert!(
        IN_SCENARIO.with(Cell::get),
        "{what} started outside a scenario: begin the test with \
         `let _scenario = studio_e2e::scenario();` (one scenario at a time)"
    );
}

thread_local! {
    /// Whether this thread holds the scenario lock: a window opened without it fails at once.
    static IN_SCENARIO: Cell<bool> = const { Cell::new(false) };
}

/// A running Studio window with its WebDriver session and its own tauri-driver.
pub struct Studio {
    session: Option<Session>,
    _driver: TauriDriver,
    tag: String,
    /// Cleared on drop: the window's time limit then has nothing to end.
    open: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// The longest one window may live: a test stuck past it has its app ended, so its next
/// WebDriver call fails (and the run goes on) instead of holding CI until its own limit.
pub const WINDOW_LIMIT: Duration = Duration::from_secs(10 * 60);

fn limit_window(tag: String, open: std::sync::Arc<std::sync::atomic::AtomicBool>) {
    std::thread::spawn(move || {
        let end = std::time::Instant::now() + WINDOW_LIMIT;
        while std::time::Instant::now() < end {
            if !open.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        if open.load(std::sync::atomic::Ordering::SeqCst) {
            eprintln!("window {tag} outlived its {WINDOW_LIMIT:?} limit: ending it");
            driver::terminate_tagged(&tag);
        }
    });
}

impl std::ops::Deref for Studio {
    type Target = Session;
    fn deref(&self) -> &Session {
        self.session.as_ref().expect("session is open until drop")
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        // A failing test leaves a picture of what the window showed, and its text.
        if std::thread::panicking() && self.session.as_ref().is_some_and(|s| s.hung()) {
            // Asking the window again would wait out the limit twice more: say instead what
            // the app, its page and a fresh driver look like, for the next person to read.
            hang::report(self);
        } else if std::thread::panicking() {
            if let Some(s) = self.session.as_ref() {
                let name = std::thread::current()
                    .name()
                    .unwrap_or("test")
                    .replace("::", "-");
                // Never panic here (a panic while panicking aborts the whole e2e binary).
                if let Err(e) = s.try_screenshot(&out_dir().join(format!("FAILED-{name}.png"))) {
                    eprintln!("no screenshot at failure: {e}");
                }
                // Never panic here (a panic while panicking aborts the whole e2e binary): the
                // window may be what failed.
                match s.try_find("body").and_then(|b| match b {
                    Some(body) => s.try_text(&body),
                    None => Ok(String::new()),
                }) {
                    Ok(text) => eprintln!("window text at failure:\n{text}"),
                    Err(e) => eprintln!("no window text at failure: {e}"),
                }
            }
        }
        // Closing the WebDriver session does not end a Tauri app: end ours (found by its tag).
        self.open.store(false, std::sync::atomic::Ordering::SeqCst);
        drop(self.session.take());
        driver::terminate_tagged(&self.tag);
    }
}

impl Studio {
    /// The app's own process: the one started with this window's tag whose program is
    /// `STUDIO_APP`. Panics unless there is exactly one.
    pub fn app_pid(&self) -> i32 {
        self.try_app_pid().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Self::app_pid`], with the error returned.
    fn try_app_pid(&self) -> Result<i32, String> {
        let app = std::env::var("STUDIO_APP").map_err(|_| "STUDIO_APP is not set".to_string())?;
        let found: Vec<i32> = pids()
            .into_iter()
            .filter(|pid| {
                let args = proc_args(*pid);
                args.first().map(String::as_str) == Some(app.as_str()) && args.contains(&self.tag)
            })
            .collect();
        match found[..] {
            [pid] => Ok(pid),
            _ => Err(format!(
                "not one app process for window {}: {found:?}",
                self.tag
            )),
        }
    }

    /// A new WebDriver session on this window's app, for when the first one is gone (WebDriver
    /// deletes a session whose page's web process ended): attached to the app's own automation
    /// server, so what it reads is the same window, reloaded. Panics if it cannot attach.
    pub fn reattach(&self) -> Attached {
        self.try_reattach(webdriver::CALL_LIMIT)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Self::reattach`], with the error returned and every call limited to `limit`.
    fn try_reattach(&self, limit: Duration) -> Result<Attached, String> {
        let pid = self.try_app_pid()?;
        let environ = std::fs::read(format!("/proc/{pid}/environ"))
            .map_err(|e| format!("the app's environment: {e}"))?;
        let target = environ
            .split(|b| *b == 0)
            .find_map(|e| e.strip_prefix(b"WEBKIT_INSPECTOR_SERVER="))
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .ok_or(
                "the app runs with no WEBKIT_INSPECTOR_SERVER (not started by WebKitWebDriver?)",
            )?;
        let (host, port) = target
            .rsplit_once(':')
            .ok_or_else(|| format!("WEBKIT_INSPECTOR_SERVER={target}"))?;
        let port: u16 = port
            .parse()
            .map_err(|e| format!("WEBKIT_INSPECTOR_SERVER={target}: {e}"))?;
        let driver = TauriDriver::attach(&target);
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"targetAddress": host, "targetPort": port}
        }}});
        let session = Session::with_capabilities_within(&driver.url(), caps, limit)
            .map_err(|e| format!("attaching to the app at {target}: {e}"))?;
        Ok(Attached {
            session: Some(session),
            _driver: driver,
        })
    }

    /// The live (not zombie) WebKit web processes the app started: the ones that run its pages.
    pub fn web_processes(&self) -> Vec<i32> {
        let app = self.app_pid();
        pids()
            .into_iter()
            .filter(|pid| {
                proc_stat(*pid).is_some_and(|(comm, state, ppid)| {
                    ppid == app && state != 'Z' && comm.starts_with("WebKitWebProces")
                })
            })
            .collect()
    }
}

/// A WebDriver session attached to a running window (see [`Studio::reattach`]).
pub struct Attached {
    session: Option<Session>,
    _driver: TauriDriver,
}

impl std::ops::Deref for Attached {
    type Target = Session;
    fn deref(&self) -> &Session {
        self.session.as_ref().expect("session is open until drop")
    }
}

impl Drop for Attached {
    fn drop(&mut self) {
        // The session before its driver.
        drop(self.session.take());
    }
}

/// Every pid in /proc now.
fn pids() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap_or_else(|e| panic!("/proc: {e}"))
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .collect()
}

/// A process's arguments; none once it is gone.
fn proc_args(pid: i32) -> Vec<String> {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| {
            c.split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// `(comm, state, ppid)` from /proc/<pid>/stat; `None` once the process is gone (reaped).
pub fn proc_stat(pid: i32) -> Option<(String, char, i32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split at the last ')'.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat[open + 1..close].to_string();
    let mut rest = stat[close + 1..].split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some((comm, state, ppid))
}

static NEXT_WINDOW: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Opens Studio in a fresh WebDriver session, with its own tauri-driver.
pub fn open_studio() -> Studio {
    open_studio_with(&[])
}

/// Opens Studio with extra environment for the app (e.g. a private data dir).
pub fn open_studio_with(env: &[(&str, &str)]) -> Studio {
    open_studio_args(env, &[])
}

/// Opens Studio with extra environment and extra command-line arguments (e.g. `--pack <dir>`).
pub fn open_studio_args(env: &[(&str, &str)], args: &[&str]) -> Studio {
    assert_in_scenario("a window");
    let app = std::env::var("STUDIO_APP")
        .expect("STUDIO_APP is not set: run the end-to-end suite through `cargo xtask test`");
    // Every window gets private files and stays on loopback unless a test says otherwise, and
    // never touches the user's keyring: keys go to the 0600 file.
    let private = std::env::temp_dir().join(format!(
        "studio-e2e-app-{}-{}",
        std::process::id(),
        NEXT_WINDOW.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let data = private.join("data").to_string_lossy().into_owned();
    let cache = private.join("cache").to_string_lossy().into_owned();
    // Where the window-state plugin keeps the window's size and place: private too.
    let config = private.join("config").to_string_lossy().into_owned();
    let mut all: Vec<(&str, &str)> = vec![
        ("STUDIO_DATA_DIR", data.as_str()),
        ("STUDIO_MEDIA_CACHE", cache.as_str()),
        ("XDG_CONFIG_HOME", config.as_str()),
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_KEYRING", "off"),
        // The real mixer, pulled by Studio's own headless output: no sound card is probed.
        ("STUDIO_AUDIO", "headless"),
    ];
    // A test's own values win (set later, so they override).
    all.extend_from_slice(env);
    // A second window's driver can lose its first request to a port another window's
    // WebKitWebDriver just took: start a fresh driver and try again, from the profile as it was
    // before the first try (a retry must not start where a failed start left off). Any other
    // failure (the app did not come up) fails the test at once, and every retry is counted.
    let profile = Profile::keep(&all);
    let mut last_error = String::new();
    for attempt in 0..3 {
        if attempt > 0 {
            profile.restore();
            count_retry(&last_error);
        }
        let driver = TauriDriver::start(&all);
        let tag = format!(
            "e2e-{}-{}",
            std::process::id(),
            driver.url().rsplit(':').next().unwrap_or("0")
        );
        let mut all_args = vec!["--e2e-session", tag.as_str()];
        all_args.extend_from_slice(args);
        match Session::try_new(&driver.url(), &app, &all_args) {
            Ok(session) => {
                // Two CI runs in a row had a window that got its session and then never
                // answered (its first find timed out after 120 s). Seen only right after start,
                // cause not found: such a start is a failed start, retried and counted.
                if let Err(e) = session.answers_within(FIRST_ANSWER) {
                    let why = format!(
                        "the window did not answer its first script in {} s: {e}",
                        FIRST_ANSWER.as_secs()
                    );
                    eprintln!("{why}");
                    drop(session);
                    driver::terminate_tagged(&tag);
                    last_error = why;
                    continue;
                }
                let open = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
                limit_window(tag.clone(), open.clone());
                return Studio {
                    session: Some(session),
                    _driver: driver,
                    tag,
                    open,
                };
            }
            Err(webdriver::Refused::Dropped(e)) => {
                eprintln!("the driver dropped the session request: {e}");
                driver::terminate_tagged(&tag);
                last_error = e;
            }
            Err(webdriver::Refused::NoSession(e)) => {
                driver::terminate_tagged(&tag);
                panic!("Studio did not start (not retried): {e}");
            }
        }
    }
    panic!("no WebDriver session after 3 attempts: {last_error}")
}

/// How long a window that just started may take to answer its first script (seconds when well;
/// a loaded CI runner has been seen at most a few).
const FIRST_ANSWER: std::time::Duration = std::time::Duration::from_secs(45);

/// Where window retries are written, one line each: `cargo xtask test` counts them in its totals
/// line (a passing test's own output is not shown, so a retry would otherwise go unseen).
pub const RETRIES_FILE: &str = "window-retries.txt";

fn count_retry(why: &str) {
    use std::io::Write as _;
    let test = std::thread::current().name().unwrap_or("?").to_string();
    eprintln!("{test}: retrying the window after: {why}");
    let path = out_dir().join(RETRIES_FILE);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    writeln!(file, "{test}\t{why}").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The window's private folders as they were before its first start, put back before a retry.
struct Profile {
    /// `(folder, its copy)`; a folder that did not exist yet has no copy and is removed.
    kept: Vec<(PathBuf, Option<PathBuf>)>,
    _copies: tempfile::TempDir,
}

impl Profile {
    /// The folders the app writes: its data, its media cache, its window state.
    fn keep(env: &[(&str, &str)]) -> Self {
        let dirs: Vec<PathBuf> = ["STUDIO_DATA_DIR", "STUDIO_MEDIA_CACHE", "XDG_CONFIG_HOME"]
            .iter()
            .filter_map(|k| {
                env.iter()
                    .rev()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| PathBuf::from(v))
            })
            .collect();
        let copies = tempfile::Builder::new()
            .prefix("studio-e2e-profile")
            .tempdir()
            .expect("a folder for the profile's copy");
        let kept = dirs
            .into_iter()
            .enumerate()
            .map(|(i, dir)| {
                let copy = dir.is_dir().then(|| {
                    let to = copies.path().join(i.to_string());
                    test_support::copy_dir(&dir, &to);
                    to
                });
                (dir, copy)
            })
            .collect();
        Profile {
            kept,
            _copies: copies,
        }
    }

    fn restore(&self) {
        for (dir, copy) in &self.kept {
            if dir.exists() {
                std::fs::remove_dir_all(dir)
                    .unwrap_or_else(|e| panic!("clearing {} for a retry: {e}", dir.display()));
            }
            if let Some(copy) = copy {
                test_support::copy_dir(copy, dir);
            }
        }
    }
}

/// Where screenshots are saved for a person to look at.
pub fn out_dir() -> PathBuf {
    let dir = std::env::var_os("STUDIO_E2E_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/e2e"));
    std::fs::create_dir_all(&dir).expect("creating the screenshot dir");
    dir
}

/// Polls `f` until it yields a value or `timeout` passes.
pub fn wait_for<T>(timeout: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
