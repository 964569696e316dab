//! The engine as Studio's child: its own process group, ended with Studio, its stdout and
//! stderr read line by line, its end reported.
//!
//! What "its own group" and "ended with Studio" mean is the platform's (`unix.rs`,
//! `windows.rs`): on Unix a process group, with `PR_SET_PDEATHSIG` on Linux (macOS has no such call: an engine
//! outlives a crashed Studio there and is found as stale at the next start); on Windows a Job
//! Object that kills its processes when Studio's handle to it closes, however Studio ends.
//!
//! The child is spawned by a thread that then waits on it: Linux sends the death signal when
//! the *thread* that forked the child ends, so that thread lives exactly as long as the child.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[cfg(not(target_os = "linux"))]
mod by_sysinfo;
#[cfg_attr(unix, path = "unix.rs")]
#[cfg_attr(windows, path = "windows.rs")]
mod os;

pub use os::has_arg;
pub use platform::process_alive as alive;

/// How a stop is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Time to save and leave (SIGTERM; Ctrl+Break on Windows).
    Ask,
    /// Now, with whatever the engine started (SIGKILL; the Job Object's end on Windows).
    Force,
}

/// Stops the engine `pid` and its group as `how` says.
pub fn stop(pid: u32, how: Stop) {
    os::stop(pid, how)
}

/// Everything needed to start one engine process.
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub workdir: PathBuf,
    pub env: Vec<(String, String)>,
}

/// Called from the reader and waiter threads.
pub trait Watcher: Send + Sync + 'static {
    fn line(&self, text: &str);
    fn exited(&self, status: ExitStatus);
}

/// Starts the engine; the reply is its pid once it runs.
pub fn spawn(launch: Launch, watcher: std::sync::Arc<dyn Watcher>) -> Result<u32, String> {
    let (tx, rx) = std::sync::mpsc::channel::<Result<u32, String>>();
    std::thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            let mut cmd = Command::new(&launch.program);
            cmd.args(&launch.args)
                .current_dir(&launch.workdir)
                .envs(launch.env.iter().map(|(k, v)| (k, v)))
                .env("PYTHONUNBUFFERED", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            os::prepare(&mut cmd);
            let mut child = match cmd.spawn() {
                Ok(c) => c,
                Err(e) => {
                    let _ = tx.send(Err(format!(
                        "{} could not be started: {e}",
                        launch.program.display()
                    )));
                    return;
                }
            };
            if let Err(e) = os::adopt(&child) {
                let _ = child.kill();
                let _ = child.wait();
                let _ = tx.send(Err(format!("the engine could not be tied to Studio: {e}")));
                return;
            }
            let _ = tx.send(Ok(child.id()));
            let readers: Vec<_> = [
                child
                    .stdout
                    .take()
                    .map(|o| Box::new(o) as Box<dyn std::io::Read + Send>),
                child
                    .stderr
                    .take()
                    .map(|e| Box::new(e) as Box<dyn std::io::Read + Send>),
            ]
            .into_iter()
            .flatten()
            .map(|out| {
                let w = watcher.clone();
                std::thread::spawn(move || {
                    let mut lines = std::io::BufReader::new(out);
                    let mut buf = Vec::new();
                    while lines.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                        w.line(&String::from_utf8_lossy(&buf));
                        buf.clear();
                    }
                })
            })
            .collect();
            let status = child.wait();
            // Its last words before its end (a grandchild holding the pipes is not waited for).
            let until = Instant::now() + Duration::from_millis(500);
            for r in readers {
                while !r.is_finished() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            if let Ok(status) = status {
                watcher.exited(status);
            }
        })
        .map_err(|e| format!("no thread for the engine: {e}"))?;
    rx.recv()
        .map_err(|_| "the engine's thread ended before it started".to_string())?
}

/// Asks a process Studio did not start this time (an engine left running) to stop, then forces
/// it after `grace`.
pub fn stop_pid(pid: u32, grace: Duration) {
    stop(pid, Stop::Ask);
    let until = Instant::now() + grace;
    while alive(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    if alive(pid) {
        stop(pid, Stop::Force);
    }
}

#[cfg(test)]
mod tests;
