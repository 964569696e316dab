//! The engine as Studio's child: its own process group, killed with Studio (`PR_SET_PDEATHSIG`
//! on Linux), its stdout and stderr read line by line, its end reported.
//!
//! The child is spawned by a thread that then waits on it: Linux sends the death signal when
//! the *thread* that forked the child ends, so that thread lives exactly as long as the child.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

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
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                // SAFETY: only async-signal-safe calls between fork and exec.
                unsafe {
                    cmd.pre_exec(|| {
                        // Its own group: a stop reaches whatever the engine starts itself.
                        if libc::setpgid(0, 0) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                        #[cfg(target_os = "linux")]
                        {
                            // Studio gone (quit, crash, kill): the engine goes too.
                            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                                return Err(std::io::Error::last_os_error());
                            }
                            // Studio died between fork and prctl: nobody would signal us.
                            if libc::getppid() == 1 {
                                libc::_exit(1);
                            }
                        }
                        Ok(())
                    });
                }
            }
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

/// Sends `signal` to the engine's process group (and the engine itself).
#[cfg(unix)]
pub fn signal(pid: u32, signal: i32) {
    let pid = pid as i32;
    if pid > 1 {
        // SAFETY: kill(2) on a group and a pid we started; at worst they are gone.
        unsafe {
            libc::kill(-pid, signal);
            libc::kill(pid, signal);
        }
    }
}

/// Whether process `pid` exists (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Whether process `pid` was started with `arg` on its command line.
pub fn has_arg(pid: u32, arg: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| c.split(|b| *b == 0).any(|a| a == arg.as_bytes()))
        .unwrap_or(false)
}

/// SIGTERM to a process Studio did not start this time (an engine left running), then SIGKILL
/// after `grace`.
pub fn stop_pid(pid: u32, grace: Duration) {
    signal(pid, libc::SIGTERM);
    let until = Instant::now() + grace;
    while alive(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    if alive(pid) {
        signal(pid, libc::SIGKILL);
    }
}
