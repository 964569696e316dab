//! The real engine (`../shared/engine`, installed by `cargo xtask setup`) hosted for a test on
//! loopback only: Studio's own launcher for "this machine only" (`src-tauri/src/hosting/loopback.py`) binds its endpoint on a fixed 127.0.0.1 port
//! with no relays, so the ticket survives a restart and nothing leaves the machine. Each table
//! gets its own data folder and keystore with a fresh keeper and player key.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::peers::free_udp_port;
use test_support::engine_install;

pub struct EngineTable {
    dir: PathBuf,
    port: u16,
    child: Option<Child>,
    ticket: String,
    pub room: String,
    pub keeper_key: String,
    pub player_key: String,
}

impl EngineTable {
    /// Starts an engine whose keys and data live in `dir`, with one keeper and one player key.
    pub fn start(dir: PathBuf) -> Self {
        crate::assert_in_scenario("an engine");
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
        let keys = format!(
            "[\"{keeper_key}\"]\nroom = \"{room}\"\nname = \"Keeper\"\nrole = \"keeper\"\n\n\
             [\"{player_key}\"]\nroom = \"{room}\"\nname = \"Player\"\nrole = \"player\"\n"
        );
        std::fs::write(dir.join("keys.toml"), keys).expect("the keystore");
        let mut table = EngineTable {
            dir,
            port: free_udp_port(),
            child: None,
            ticket: String::new(),
            room,
            keeper_key,
            player_key,
        };
        table.spawn();
        table
    }

    pub fn ticket(&self) -> &str {
        &self.ticket
    }

    /// The engine's key id for `key` (what `admin_delete_key` names): sha256, 16 hex digits.
    pub fn key_id(key: &str) -> String {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(key.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
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
        let launcher =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../src-tauri/src/hosting/loopback.py");
        let child = Command::new(&python)
            .arg(&launcher)
            .arg("--serve")
            .arg("--keys")
            .arg(self.dir.join("keys.toml"))
            .current_dir(&engine)
            .env("STUDIO_ENGINE_PORT", self.port.to_string())
            .env("TRPG_DATA_DIR", self.dir.join("data"))
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

impl Drop for EngineTable {
    fn drop(&mut self) {
        self.kill();
    }
}
