//! A window that stopped answering WebDriver: what it looked like, for the next person to read.
//!
//! CI has seen about one such window a run (at the connect screen, right after start or after
//! Leave), never on a developer's machine. Asking the window for a screenshot would wait out the
//! call limit again, so the harness asks the parts around it instead: the app's threads, its
//! web process, the heartbeat lines in its log (the page answers the watchdog's script evaluations), a
//! fresh WebKitWebDriver attached to the app's own automation server (does the window answer a
//! driver that is not the stuck one?), and the main thread's stack where gdb is installed.
//! The test is written to [`HANGS_FILE`]: `cargo xtask test` runs such a test once more and
//! says so in its totals line.

use std::fmt::Write as _;
use std::time::Duration;

use crate::{out_dir, proc_stat, Studio};

/// One line per test whose window stopped answering (in the e2e output folder).
pub const HANGS_FILE: &str = "window-hangs.txt";

/// How long the fresh driver may take for each call.
const PROBE_LIMIT: Duration = Duration::from_secs(20);

/// Writes the test down and prints what the window's parts look like. Runs while the test is
/// panicking, so nothing here may panic: the description is made on a thread of its own.
pub(crate) fn report(studio: &Studio) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    record(&test);
    let described = std::thread::scope(|scope| scope.spawn(|| describe(studio)).join());
    match described {
        Ok(text) => eprintln!(
            "{test}: {}; what its parts looked like:\n{text}",
            crate::webdriver::HUNG
        ),
        Err(_) => eprintln!("{test}: the hang's description failed (see above)"),
    }
}

fn record(test: &str) {
    use std::io::Write as _;
    let path = out_dir().join(HANGS_FILE);
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{test}"));
    if let Err(e) = written {
        eprintln!("{}: {e}", path.display());
    }
}

fn describe(studio: &Studio) -> String {
    let mut out = String::new();
    let pid = match studio.try_app_pid() {
        Ok(pid) => pid,
        Err(e) => return format!("  the app: {e}"),
    };
    let _ = writeln!(out, "  app pid {pid}: {}", stat_line(pid));
    // The main thread (the window's, and the automation server's) in full; the rest counted.
    let all = threads(pid);
    for (tid, name, state, wchan) in all.iter().filter(|t| t.0 == pid) {
        let _ = writeln!(out, "    main thread {tid} {name}: {state} in {wchan}");
    }
    let mut states = std::collections::BTreeMap::new();
    for (_, _, state, _) in all.iter().filter(|t| t.0 != pid) {
        *states.entry(*state).or_insert(0) += 1;
    }
    let _ = writeln!(out, "    other threads by state: {states:?}");
    for web in crate::pids().into_iter().filter(|p| {
        proc_stat(*p).is_some_and(|(comm, _, ppid)| ppid == pid && comm.starts_with("WebKit"))
    }) {
        let _ = writeln!(out, "  child {web}: {}", stat_line(web));
    }
    let _ = writeln!(out, "  its log:\n{}", log_tail(pid));
    let _ = writeln!(out, "  a fresh driver: {}", fresh_driver(studio));
    let _ = writeln!(out, "  main thread: {}", main_stack(pid));
    out
}

/// `comm state` of a process, or why not.
fn stat_line(pid: i32) -> String {
    proc_stat(pid)
        .map(|(comm, state, _)| format!("{comm} {state}"))
        .unwrap_or_else(|| "gone".into())
}

/// Every thread of `pid`: id, name, state, the kernel function it sleeps in.
fn threads(pid: i32) -> Vec<(i32, String, char, String)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut all: Vec<_> = tasks
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|tid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/stat")).ok()?;
            let name = stat[stat.find('(')? + 1..stat.rfind(')')?].to_string();
            let state = stat[stat.rfind(')')? + 1..].trim().chars().next()?;
            let wchan = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/wchan"))
                .unwrap_or_default();
            Some((tid, name, state, wchan))
        })
        .collect();
    all.sort();
    all
}

/// The heartbeat lines and the last lines of the app's newest log file.
fn log_tail(pid: i32) -> String {
    let data = std::fs::read(format!("/proc/{pid}/environ"))
        .ok()
        .and_then(|env| {
            env.split(|b| *b == 0)
                .find_map(|e| e.strip_prefix(b"STUDIO_DATA_DIR="))
                .map(|d| std::path::PathBuf::from(String::from_utf8_lossy(d).into_owned()))
        });
    let Some(data) = data else {
        return "    (no STUDIO_DATA_DIR in its environment)".into();
    };
    let dir = crate::logs::dir(&data);
    let newest = std::fs::read_dir(&dir).ok().and_then(|entries| {
        entries
            .flatten()
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .max()
    });
    let Some((_, file)) = newest else {
        return format!("    (no log file in {})", dir.display());
    };
    let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap_or_default()).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let beats = lines.iter().filter(|l| l.contains("heartbeat"));
    let last = lines[lines.len().saturating_sub(8)..].iter();
    beats
        .chain(last)
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the window answers a WebDriver that is not the stuck one.
fn fresh_driver(studio: &Studio) -> String {
    let attached = match studio.try_reattach(PROBE_LIMIT) {
        Ok(a) => a,
        Err(e) => return format!("could not attach: {e}"),
    };
    let started = std::time::Instant::now();
    match attached.execute(
        "return [document.readyState, document.body ? document.body.innerText.length : -1];",
        serde_json::json!([]),
    ) {
        Ok(v) => format!(
            "answered in {} ms: readyState and text length {v}",
            started.elapsed().as_millis()
        ),
        Err(e) => format!("no answer either: {e}"),
    }
}

/// The main thread's stack, where gdb is installed.
fn main_stack(pid: i32) -> String {
    let out = std::process::Command::new("timeout")
        .args([
            "30",
            "gdb",
            "-p",
            &pid.to_string(),
            "-batch",
            "-ex",
            "thread 1",
            "-ex",
            "bt 30",
        ])
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let mut frames: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
            // `thread 1` prints the top frame once more before `bt` does.
            frames.dedup();
            format!("\n    {}", frames.join("\n    "))
        }
        Ok(o) => format!("(gdb: {})", String::from_utf8_lossy(&o.stderr).trim()),
        Err(e) => format!("(no gdb: {e})"),
    }
}
