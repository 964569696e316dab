//! Studio's log: `tracing` events to stderr (or to the file `STUDIO_LOG_FILE` names), and always
//! to the log folder for bug reports ([`log_dir`], see [`folder`]: private, daily, capped).
//! `RUST_LOG` filters as usual (default: Studio's own crates at info, the rest at warn). Nothing
//! logged carries a key: frames are logged by type, secrets redact in `Debug`.
//!
//! What others print is filtered too. Tauri reports every IPC message posted with a wrong invoke
//! key (any panel page can post one) with the real key *and the page's own text*, newlines
//! included. Tauri reports it as one `tracing` event, and [`BadKeyEvents`] drops that event whole
//! and says so at most once per [`NOTICE_EVERY`]: no page-chosen byte reaches the log. Studio's
//! own stderr runs through a pipe it reads as well (GTK's and WebKit's warnings land in the log
//! that way): a line holding the key is dropped like the event, and the rest is throttled
//! ([`Throttle`]) and cut at [`MAX_LINE`]. How stderr is pointed at the pipe is the platform's
//! ([`stderr`]): fd 2 on Unix, the process's standard error handle on Windows.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

pub mod folder;
#[cfg_attr(unix, path = "stderr_unix.rs")]
#[cfg_attr(windows, path = "stderr_windows.rs")]
mod stderr;

/// How often the wrong-invoke-key notice may appear (a page can post thousands a second).
pub const NOTICE_EVERY: Duration = Duration::from_secs(5);
const KEY_MARK: &str = "__TAURI_INVOKE_KEY__";
/// The longest stderr line passed on (the rest of it is cut).
pub const MAX_LINE: usize = 2048;

/// The app's invoke key, once known: any line that holds it is redacted.
static INVOKE_KEY: OnceLock<String> = OnceLock::new();

type Sink = Arc<Mutex<Box<dyn Write + Send>>>;

/// One write to the shared sink (a whole tracing event or a whole stderr line).
struct SinkWriter(Sink);

impl Write for SinkWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut sink = self.0.lock().unwrap_or_else(|e| e.into_inner());
        sink.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).flush()
    }
}

/// Where the log files go: `STUDIO_DATA_DIR/logs` for a private profile, else the platform's
/// log folder for the app, as Tauri's `app_log_dir` names it (it is needed before Tauri runs):
/// `~/.local/share/dev.loreweaver.studio/logs` on Linux (`$XDG_DATA_HOME`),
/// `~/Library/Logs/dev.loreweaver.studio` on macOS, `%LOCALAPPDATA%\dev.loreweaver.studio\logs`
/// on Windows.
pub fn log_dir() -> std::path::PathBuf {
    const APP: &str = "dev.loreweaver.studio";
    if let Some(dir) = std::env::var_os("STUDIO_DATA_DIR") {
        return std::path::PathBuf::from(dir).join("logs");
    }
    if cfg!(target_os = "macos") {
        return dirs::home_dir()
            .unwrap_or_default()
            .join("Library/Logs")
            .join(APP);
    }
    dirs::data_local_dir()
        .unwrap_or_default()
        .join(APP)
        .join("logs")
}

/// Writes to the primary output and to the log folder's current file.
struct Tee<A, B>(A, Option<B>);

impl<A: Write, B: Write> Write for Tee<A, B> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(b) = self.1.as_mut() {
            let _ = b.write_all(buf);
        }
        self.0.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(b) = self.1.as_mut() {
            let _ = b.flush();
        }
        self.0.flush()
    }
}

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,studio_lib=info,transport=info,local_table=info"));
    let file = std::env::var_os("STUDIO_LOG_FILE")
        .and_then(|path| folder::Capped::open(std::path::Path::new(&path)).ok());
    let daily = folder::LogFolder::new(log_dir(), folder::utc_day).ok();
    let sink: Sink = match file {
        Some(file) => Arc::new(Mutex::new(Box::new(Tee(file, daily)))),
        None => Arc::new(Mutex::new(Box::new(Tee(real_stderr(), daily)))),
    };
    filter_stderr(sink.clone());
    let writer = sink.clone();
    // A second init (tests that start the app twice in one process) keeps the first.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(BadKeyEvents::new(sink))
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(move || SinkWriter(writer.clone())),
        )
        .try_init();
}

/// Remembers the app's invoke key so that no line carrying it is ever printed.
pub fn never_print(key: &str) {
    if !key.is_empty() {
        let _ = INVOKE_KEY.set(key.to_string());
    }
}

/// A handle on the stderr Studio started with (before the filter took it over).
fn real_stderr() -> std::fs::File {
    match stderr::duplicate() {
        Ok(file) => file,
        // No stderr (a Windows GUI app has none): a file that writes nowhere is better than a
        // log that panics.
        Err(_) => std::fs::OpenOptions::new()
            .write(true)
            .open(if cfg!(windows) { "NUL" } else { "/dev/null" })
            .expect("the null device opens"),
    }
}

/// Points stderr at a pipe and forwards what arrives, line by line, through [`Redactor`].
fn filter_stderr(sink: Sink) {
    use std::io::BufRead;
    let Ok((read, write)) = std::io::pipe() else {
        return;
    };
    if let Err(e) = stderr::point_at(write) {
        tracing::warn!("stderr is not filtered: {e}");
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("stderr-filter".into())
        .spawn(move || {
            let mut lines = std::io::BufReader::new(read);
            let mut redactor = Redactor::default();
            let mut throttle = Throttle::default();
            let mut line = Vec::new();
            // Reads a line at most MAX_LINE long (the rest of a longer one is read and dropped).
            while std::io::Read::take(&mut lines, MAX_LINE as u64)
                .read_until(b'\n', &mut line)
                .is_ok_and(|n| n > 0)
            {
                let whole = line.ends_with(b"\n");
                if !whole {
                    line.extend_from_slice(b" [cut]\n");
                    let mut rest = Vec::new();
                    while lines.read_until(b'\n', &mut rest).is_ok_and(|n| n > 0) {
                        if rest.ends_with(b"\n") {
                            break;
                        }
                        rest.clear();
                    }
                }
                let text = String::from_utf8_lossy(&line);
                let out = redactor.line(&text, INVOKE_KEY.get().map(String::as_str));
                if let Some(out) = out.and_then(|out| throttle.pass(out, Instant::now())) {
                    let _ = SinkWriter(sink.clone()).write_all(out.as_bytes());
                }
                line.clear();
            }
        });
    if spawned.is_err() {
        tracing::warn!("stderr is not filtered: the filter thread did not start");
    }
}

/// Decides what of a stderr line may be printed, and words the wrong-key notice.
#[derive(Default)]
pub struct Redactor {
    last_notice: Option<Instant>,
    suppressed: u64,
}

impl Redactor {
    /// The line to print instead of `line` (which ends with its newline), or `None`.
    pub fn line(&mut self, line: &str, key: Option<&str>) -> Option<String> {
        let holds_key = line.contains(KEY_MARK) || key.is_some_and(|k| line.contains(k));
        if !holds_key {
            return Some(line.to_string());
        }
        self.notice(Instant::now())
    }

    /// One wrong-key event: the notice to print, or `None` within [`NOTICE_EVERY`] of the last.
    pub fn notice(&mut self, now: Instant) -> Option<String> {
        if self
            .last_notice
            .is_some_and(|t| now.duration_since(t) < NOTICE_EVERY)
        {
            self.suppressed += 1;
            return None;
        }
        self.last_notice = Some(now);
        let more = std::mem::take(&mut self.suppressed);
        let tail = if more > 0 {
            format!(" ({more} more since the last notice)")
        } else {
            String::new()
        };
        Some(format!(
            "studio: a page posted an IPC message with a wrong invoke key; refused (the key and the page's text are never printed){tail}\n"
        ))
    }
}

/// How many stderr lines may pass at once, and how many a second after that.
const BURST: f64 = 200.0;
const PER_SECOND: f64 = 20.0;

/// Lets stderr lines through at a bounded rate (a token bucket), and says how many it dropped
/// when lines pass again.
pub struct Throttle {
    tokens: f64,
    at: Option<Instant>,
    dropped: u64,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle {
            tokens: BURST,
            at: None,
            dropped: 0,
        }
    }
}

impl Throttle {
    pub fn pass(&mut self, line: String, now: Instant) -> Option<String> {
        if let Some(at) = self.at {
            let refill = now.duration_since(at).as_secs_f64() * PER_SECOND;
            self.tokens = (self.tokens + refill).min(BURST);
        }
        self.at = Some(now);
        if self.tokens < 1.0 {
            self.dropped += 1;
            return None;
        }
        self.tokens -= 1.0;
        match std::mem::take(&mut self.dropped) {
            0 => Some(line),
            n => Some(format!(
                "studio: {n} lines of stderr were dropped (too many)\n{line}"
            )),
        }
    }
}

/// Drops Tauri's wrong-invoke-key event whole (it holds the real key and the page's text) and
/// writes the rate-limited notice in its place.
pub struct BadKeyEvents {
    sink: Sink,
    redactor: Mutex<Redactor>,
}

impl BadKeyEvents {
    fn new(sink: Sink) -> Self {
        BadKeyEvents {
            sink,
            redactor: Mutex::new(Redactor::default()),
        }
    }
}

/// The first bytes of an event's message (formatting stops there: a page's megabyte is never
/// copied).
#[derive(Default)]
struct MessageStart(String);

impl std::fmt::Write for MessageStart {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = 64usize.saturating_sub(self.0.len());
        if room == 0 {
            return Err(std::fmt::Error);
        }
        let cut = s.char_indices().map(|(i, _)| i).find(|i| *i >= room);
        self.0.push_str(&s[..cut.unwrap_or(s.len())]);
        if cut.is_some() {
            return Err(std::fmt::Error);
        }
        Ok(())
    }
}

impl tracing::field::Visit for MessageStart {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" && self.0.is_empty() {
            let _ = std::fmt::write(self, format_args!("{value:?}"));
        }
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "message" && self.0.is_empty() {
            let _ = std::fmt::Write::write_str(self, value);
        }
    }
}

/// Whether an event is Tauri's report of a wrong invoke key.
pub fn is_bad_key_event(event: &tracing::Event<'_>) -> bool {
    // Only Tauri's own events are read: every other event passes without being formatted.
    if !event.metadata().target().starts_with("tauri") {
        return false;
    }
    let mut start = MessageStart::default();
    event.record(&mut start);
    start.0.starts_with(KEY_MARK)
}

impl<S: tracing::Subscriber> Layer<S> for BadKeyEvents {
    fn event_enabled(&self, event: &tracing::Event<'_>, _: Context<'_, S>) -> bool {
        if !is_bad_key_event(event) {
            return true;
        }
        let notice = self
            .redactor
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .notice(Instant::now());
        if let Some(notice) = notice {
            let _ = SinkWriter(self.sink.clone()).write_all(notice.as_bytes());
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invoke_key_never_passes_and_the_notice_is_rate_limited() {
        let key = "k3y-0f-th3-app";
        let mut r = Redactor::default();
        let tauri_line =
            format!("__TAURI_INVOKE_KEY__ expected {key} but received 0123456789abcdef\n");
        let first = r.line(&tauri_line, Some(key)).expect("one notice");
        assert!(!first.contains(key) && first.contains("wrong invoke key"));
        for _ in 0..100 {
            assert_eq!(r.line(&tauri_line, Some(key)), None, "not rate-limited");
        }
        // Any line that holds the key, however it is worded.
        assert_eq!(r.line(&format!("oops {key}\n"), Some(key)), None);
        // Everything else passes untouched.
        assert_eq!(
            r.line("Gtk-WARNING: something\n", Some(key)).as_deref(),
            Some("Gtk-WARNING: something\n")
        );
        r.last_notice = Some(Instant::now() - NOTICE_EVERY);
        let again = r.line(&tauri_line, Some(key)).unwrap();
        assert!(again.contains("101 more"), "{again}");
    }

    /// A sink the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_bad_key_event_is_dropped_whole_however_long() {
        let out = Shared::default();
        let sink: Sink = Arc::new(Mutex::new(Box::new(out.clone())));
        let writer = sink.clone();
        let subscriber = tracing_subscriber::registry()
            .with(BadKeyEvents::new(sink))
            .with(
                tracing_subscriber::fmt::layer()
                    .with_ansi(false)
                    .with_writer(move || SinkWriter(writer.clone())),
            );
        let page = format!("x\nFORGED-LINE\n{}", "A".repeat(1 << 20));
        tracing::subscriber::with_default(subscriber, || {
            for _ in 0..20 {
                // As Tauri words it, where it does (tauri/src/webview/mod.rs, `on_message`).
                tracing::error!(
                    target: "tauri::webview",
                    "__TAURI_INVOKE_KEY__ expected k3y but received {}",
                    page
                );
            }
            tracing::warn!("an ordinary warning");
        });
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(!text.contains("FORGED"), "{}", &text[..text.len().min(300)]);
        assert!(!text.contains("k3y"));
        assert_eq!(text.matches("wrong invoke key").count(), 1, "{text}");
        assert!(text.contains("an ordinary warning"), "{text}");
        assert!(
            text.len() < 1024,
            "{} bytes for 20 MB of page text",
            text.len()
        );
    }

    #[test]
    fn stderr_lines_are_throttled_and_the_drop_is_said() {
        let mut t = Throttle::default();
        let start = Instant::now();
        let passed = (0..10_000)
            .filter(|i| t.pass(format!("{i}\n"), start).is_some())
            .count();
        assert_eq!(passed, BURST as usize);
        let later = t
            .pass("later\n".into(), start + Duration::from_secs(1))
            .unwrap();
        assert!(
            later.contains("9800 lines of stderr were dropped"),
            "{later}"
        );
        assert!(later.ends_with("later\n"));
    }
}
