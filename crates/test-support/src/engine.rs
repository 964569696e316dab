//! The real engine hosted for a test on loopback only: Studio's own launcher for "this machine
//! only" (`src-tauri/src/hosting/loopback.py`) binds its endpoint on a fixed 127.0.0.1 port with
//! no relays, so the ticket survives a restart and nothing leaves the machine. Each engine gets
//! its own data folder and keystore with a fresh keeper and player key.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::{engine_install, repo};

pub struct Engine {
    dir: PathBuf,
    port: u16,
    /// Extra environment for the engine (e.g. `TRPG_DEV__SOURCE_ROOT` for its dev room).
    env: Vec<(String, String)>,
    child: Option<Child>,
    ticket: String,
    pub room: String,
    pub keeper_key: String,
    pub player_key: String,
}

/// The keys of `room`: the first room's keys as they are, another's suffixed with its name.
fn keys_in(keeper: &str, player: &str, first: &str, room: &str) -> (String, String) {
    if room == first {
        (keeper.into(), player.into())
    } else {
        (format!("{keeper}-{room}"), format!("{player}-{room}"))
    }
}

/// A UDP port free on 127.0.0.1 right now.
pub fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map(|a| a.port())
        .expect("a free loopback UDP port")
}

/// Runs the engine's `app.py` with `args` (no server: `--pack`, `--install`, …) on the data
/// folder an [`Engine`] started in `dir` uses; panics unless it exits 0.
pub fn run_app(dir: &Path, args: &[&str]) -> Output {
    let (engine, python) = engine_install();
    let out = Command::new(&python)
        .arg("app.py")
        .args(args)
        .current_dir(&engine)
        .env("TRPG_DATA_DIR", dir.join("data"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    assert!(
        out.status.success(),
        "app.py {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

impl Engine {
    /// Starts an engine whose keys and data live in `dir`, with one keeper and one player key.
    pub fn start(dir: PathBuf) -> Self {
        Self::start_with(dir, &[], &[])
    }

    /// [`Engine::start`] with extra environment for the engine and extra rooms, each with a
    /// keeper and a player key of its own ([`Engine::keys_for`]).
    pub fn start_with(dir: PathBuf, env: &[(&str, &str)], rooms: &[&str]) -> Self {
        std::fs::create_dir_all(&dir).expect("the engine's folder");
        let unique = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default()
        );
        let room = "studio-e2e".to_string();
        let keeper_key = format!("e2e-keeper-{unique}");
        let player_key = format!("e2e-player-{unique}");
        let mut keys = String::new();
        for r in std::iter::once(room.as_str()).chain(rooms.iter().copied()) {
            let (k, p) = keys_in(&keeper_key, &player_key, &room, r);
            keys += &format!(
                "[\"{k}\"]\nroom = \"{r}\"\nname = \"Keeper\"\nrole = \"keeper\"\n\n\
                 [\"{p}\"]\nroom = \"{r}\"\nname = \"Player\"\nrole = \"player\"\n\n"
            );
        }
        std::fs::write(dir.join("keys.toml"), keys).expect("the keystore");
        let mut engine = Engine {
            dir,
            port: free_udp_port(),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            child: None,
            ticket: String::new(),
            room,
            keeper_key,
            player_key,
        };
        engine.spawn();
        engine
    }

    /// The keeper and player keys of `room` (one of those given to [`Engine::start_with`]).
    pub fn keys_for(&self, room: &str) -> (String, String) {
        keys_in(&self.keeper_key, &self.player_key, &self.room, room)
    }

    pub fn ticket(&self) -> &str {
        &self.ticket
    }

    fn spawn(&mut self) {
        let (engine, python) = engine_install();
        let ticket_file = self.dir.join("iroh-ticket.txt");
        let _ = std::fs::remove_file(&ticket_file);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("engine.log"))
            .expect("the engine's log");
        // The launcher Studio ships for hosting "for this machine only": one copy, tested both ways.
        let launcher = repo().join("src-tauri/src/hosting/loopback.py");
        let child = Command::new(&python)
            .arg(&launcher)
            .arg("--serve")
            .arg("--keys")
            .arg(self.dir.join("keys.toml"))
            .current_dir(&engine)
            .env("STUDIO_ENGINE_PORT", self.port.to_string())
            .env("TRPG_DATA_DIR", self.dir.join("data"))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let written = std::fs::read_to_string(&ticket_file).ok();
            if let Some(t) = written
                .as_deref()
                .and_then(|t| t.lines().find_map(|l| l.strip_prefix("ticket=")))
            {
                self.ticket = t.trim().to_string();
                return;
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!(
                    "the engine exited ({status}) before serving; see {}",
                    self.dir.join("engine.log").display()
                );
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not serve within 60 s; see {}",
                self.dir.join("engine.log").display()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Ends the engine at once, mid-whatever (SIGKILL).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same port and identity: the same ticket.
    pub fn restart(&mut self) {
        self.kill();
        let before = self.ticket.clone();
        self.spawn();
        assert_eq!(self.ticket, before, "the ticket changed across a restart");
    }

    /// What the engine printed, for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("engine.log")).unwrap_or_default()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}
