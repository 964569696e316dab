//! tauri-driver (or WebKitWebDriver attached to a running app) on a free port, stopped with
//! SIGTERM (SIGKILL orphans WebKitWebDriver).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct TauriDriver {
    child: Child,
    port: u16,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl TauriDriver {
    /// `env` reaches the app: tauri-driver's children inherit it.
    pub fn start(env: &[(&str, &str)]) -> Self {
        let bin = std::env::var("TAURI_DRIVER").unwrap_or_else(|_| "tauri-driver".into());
        let (port, native_port) = (free_port(), free_port());
        let args = [
            "--port".to_string(),
            port.to_string(),
            "--native-port".to_string(),
            native_port.to_string(),
        ];
        Self::spawn(&bin, &args, env, port)
    }

    /// A second driver for a window whose first session is gone: WebKitWebDriver attached (by
    /// `--target`, `host:port`) to the app's own automation server, the one tauri-driver's
    /// WebKitWebDriver started it with (`WEBKIT_INSPECTOR_SERVER` in the app's environment).
    /// It starts no app: its session is the same window, read afresh.
    pub fn attach(target: &str) -> Self {
        let port = free_port();
        let args = [format!("--port={port}"), format!("--target={target}")];
        Self::spawn("WebKitWebDriver", &args, &[], port)
    }

    /// Starts `bin` and waits until it listens on `port`.
    fn spawn(bin: &str, args: &[String], env: &[(&str, &str)], port: u16) -> Self {
        let child = Command::new(bin)
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {bin}: {e}"));
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "{bin} did not listen on {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        TauriDriver { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for TauriDriver {
    fn drop(&mut self) {
        // SAFETY: plain kill(2) on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// SIGTERM to every process whose command line carries `tag`, then wait for them to go.
pub fn terminate_tagged(tag: &str) {
    let tagged = || -> Vec<i32> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .map(|c| c.split(|b| *b == 0).any(|arg| arg == tag.as_bytes()))
                    .unwrap_or(false)
            })
            .collect()
    };
    for pid in tagged() {
        // SAFETY: kill(2) on a pid we just found; at worst it is already gone.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while !tagged().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    // A window that did not end on SIGTERM (a stuck or stopped process) must not outlive its
    // test: the next scenario would share the machine with it.
    for pid in tagged() {
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}
