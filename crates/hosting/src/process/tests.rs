//! The engine's life on the platform the tests run on (Linux here; Windows under Wine through
//! `cargo xtask check-windows`). The "engine" is this test binary itself, running the ignored
//! test below, so the same child exists on every platform.

use std::sync::{Arc, Condvar, Mutex};

use super::*;

const CHILD: &str = "process::tests::an_engine_that_runs_until_stopped";

#[test]
#[ignore = "the child process of the tests below, started by them"]
fn an_engine_that_runs_until_stopped() {
    println!("engine ready");
    std::thread::sleep(Duration::from_secs(120));
}

const STUDIO: &str = "process::tests::a_studio_that_dies_with_its_engine_running";

#[test]
#[ignore = "a Studio that starts an engine and dies, started by the test below"]
fn a_studio_that_dies_with_its_engine_running() {
    let seen = Arc::new(Seen::default());
    let pid = start(&seen, CHILD);
    assert!(seen.until(|(lines, _)| lines.iter().any(|l| l.contains("engine ready"))));
    println!("engine pid {pid}");
    // No stop, no cleanup: as a crash or a kill would leave it.
    std::process::exit(0);
}

#[derive(Default)]
struct Seen {
    lines: Mutex<(Vec<String>, Option<ExitStatus>)>,
    changed: Condvar,
}

impl Watcher for Seen {
    fn line(&self, text: &str) {
        self.lines.lock().unwrap().0.push(text.to_string());
        self.changed.notify_all();
    }
    fn exited(&self, status: ExitStatus) {
        self.lines.lock().unwrap().1 = Some(status);
        self.changed.notify_all();
    }
}

impl Seen {
    /// Waits until `done` holds of what was seen; false after 60 s.
    fn until(&self, done: impl Fn(&(Vec<String>, Option<ExitStatus>)) -> bool) -> bool {
        let guard = self.lines.lock().unwrap();
        let waited = self
            .changed
            .wait_timeout_while(guard, Duration::from_secs(60), |seen| !done(seen))
            .unwrap();
        !waited.1.timed_out()
    }
}

fn start(seen: &Arc<Seen>, test: &str) -> u32 {
    let launch = Launch {
        program: std::env::current_exe().unwrap(),
        args: ["--ignored", "--exact", "--nocapture", test]
            .map(String::from)
            .to_vec(),
        workdir: std::env::temp_dir(),
        env: vec![],
    };
    spawn(launch, seen.clone()).unwrap()
}

#[test]
fn a_started_engine_is_alive_found_by_its_command_line_and_ended_by_a_stop() {
    let seen = Arc::new(Seen::default());
    let pid = start(&seen, CHILD);
    assert!(
        seen.until(|(lines, _)| lines.iter().any(|l| l.contains("engine ready"))),
        "the engine's output never came"
    );
    assert!(alive(pid), "a running engine is not alive");
    assert!(has_arg(pid, CHILD), "its command line was not found");
    assert!(!has_arg(pid, "--no-such-arg"));
    stop_pid(pid, Duration::from_secs(5));
    assert!(
        seen.until(|(_, end)| end.is_some()),
        "its end was never reported"
    );
    assert!(!alive(pid), "a stopped engine is still alive");
}

#[test]
fn a_program_that_cannot_start_is_said_so() {
    let launch = Launch {
        program: std::env::temp_dir().join("no-such-engine"),
        args: vec![],
        workdir: std::env::temp_dir(),
        env: vec![],
    };
    let e = spawn(launch, Arc::new(Seen::default())).unwrap_err();
    assert!(e.contains("could not be started"), "{e}");
}

#[test]
fn an_engine_ends_with_the_studio_that_started_it() {
    let seen = Arc::new(Seen::default());
    start(&seen, STUDIO);
    assert!(
        seen.until(|(_, end)| end.is_some()),
        "the Studio never ended"
    );
    let lines = seen.lines.lock().unwrap().0.clone();
    let engine: u32 = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("engine pid "))
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("the Studio never said its engine's pid: {lines:?}"));
    let until = Instant::now() + Duration::from_secs(30);
    while alive(engine) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = alive(engine);
    if left {
        stop(engine, Stop::Force);
    }
    assert!(!left, "the engine outlived the Studio that started it");
}
