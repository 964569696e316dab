//! Studio's log: `tracing` events to stderr (or to the file `STUDIO_LOG_FILE` names), and always
//! to the log folder for bug reports ([`log_dir`]: daily files, a week kept). `RUST_LOG` filters
//! as usual (default: Studio's own crates at info, the rest at warn). Nothing logged carries a
//! key: frames are logged by type, secrets redact in `Debug`.
//!
//! What others print is filtered too. Tauri writes the app's real invoke key to stderr whenever
//! a frame posts an IPC message with a wrong one (any panel page can), so on Unix Studio's own
//! stderr runs through a pipe it reads: such lines are replaced by a sentence without the key,
//! at most one per [`NOTICE_EVERY`], and the rest goes on unchanged, into the log file when
//! there is one (so GTK's and WebKit's warnings land there too).

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tracing_subscriber::EnvFilter;

/// How often the wrong-invoke-key notice may appear (a page can post thousands a second).
pub const NOTICE_EVERY: Duration = Duration::from_secs(5);
const KEY_MARK: &str = "__TAURI_INVOKE_KEY__";

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
/// log folder for the app (`~/.local/share/dev.loreweaver.studio/logs` on Linux, as Tauri's
/// `app_log_dir`).
pub fn log_dir() -> std::path::PathBuf {
    if let Some(dir) = std::env::var_os("STUDIO_DATA_DIR") {
        return std::path::PathBuf::from(dir).join("logs");
    }
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| home.join(".local/share"));
    data.join("dev.loreweaver.studio").join("logs")
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

fn rolling() -> Option<tracing_appender::rolling::RollingFileAppender> {
    let dir = log_dir();
    std::fs::create_dir_all(&dir).ok()?;
    tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix("studio")
        .filename_suffix("log")
        .max_log_files(7)
        .build(&dir)
        .ok()
}

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,studio_lib=info,transport=info,local_table=info"));
    let file = std::env::var_os("STUDIO_LOG_FILE").and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    });
    let folder = rolling();
    let sink: Sink = match file {
        Some(file) => Arc::new(Mutex::new(Box::new(Tee(file, folder)))),
        None => Arc::new(Mutex::new(Box::new(Tee(real_stderr(), folder)))),
    };
    #[cfg(unix)]
    filter_stderr(sink.clone());
    // A second init (tests that start the app twice in one process) keeps the first.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(move || SinkWriter(sink.clone()))
        .try_init();
}

/// Remembers the app's invoke key so that no line carrying it is ever printed.
pub fn never_print(key: &str) {
    if !key.is_empty() {
        let _ = INVOKE_KEY.set(key.to_string());
    }
}

/// A handle on the stderr Studio started with (before the filter took fd 2 over).
fn real_stderr() -> std::fs::File {
    #[cfg(unix)]
    {
        use std::os::fd::{FromRawFd, OwnedFd};
        // SAFETY: dup of fd 2 gives a new descriptor we own (or -1, checked).
        let fd = unsafe { libc::dup(2) };
        if fd >= 0 {
            return std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
        }
    }
    // No dup: a file that writes nowhere is better than a log that panics.
    std::fs::OpenOptions::new()
        .write(true)
        .open(if cfg!(windows) { "NUL" } else { "/dev/null" })
        .expect("the null device opens")
}

/// Points fd 2 at a pipe and forwards what arrives, line by line, through [`Redactor`].
#[cfg(unix)]
fn filter_stderr(sink: Sink) {
    use std::io::BufRead;
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe fills two fds we then own; dup2 onto 2 replaces stderr for the process.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return;
    }
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    use std::os::fd::AsRawFd;
    if unsafe { libc::dup2(write.as_raw_fd(), 2) } < 0 {
        return;
    }
    drop(write);
    let spawned = std::thread::Builder::new()
        .name("stderr-filter".into())
        .spawn(move || {
            let mut lines = std::io::BufReader::new(std::fs::File::from(read));
            let mut redactor = Redactor::default();
            let mut line = Vec::new();
            while lines.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                let text = String::from_utf8_lossy(&line);
                if let Some(out) = redactor.line(&text, INVOKE_KEY.get().map(String::as_str)) {
                    let _ = SinkWriter(sink.clone()).write_all(out.as_bytes());
                }
                line.clear();
            }
        });
    if spawned.is_err() {
        tracing::warn!("stderr is not filtered: the filter thread did not start");
    }
}

/// Decides what of a stderr line may be printed.
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
        let now = Instant::now();
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
            "studio: a page posted an IPC message with a wrong invoke key; refused (the key is never printed){tail}\n"
        ))
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
}
