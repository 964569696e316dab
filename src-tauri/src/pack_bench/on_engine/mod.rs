//! Run on the engine: the bench's pack in the real engine's dev room, beside the offline table.
//!
//! Studio starts an engine of its own for the bench: loopback only (hosting's launcher), its
//! keystore and data in a bench data folder, `TRPG_DEV__SOURCE_ROOT` the folder above the
//! pack. Two hidden connections stay on it: a keeper, who sends `.dev mount <pack>` and
//! `.panels enable <id>` and asks for the pack's cards, and a player. What each is shown
//! (`ui_manifest`, `state.variables`, `pack_cards`) is what players would see, and what the
//! differences with the offline table are computed from (`follow`). The window's own seat
//! joins the engine with the author's keeper or player key, as it joins the offline table.
//! The engine looks at the folder every 1.5 s itself; the bench times each save (the newest
//! file time in the folder) to the manifest that follows it.

mod follow;

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hosting::engine::Engine;
use iroh_tickets::endpoint::EndpointTicket;
use protocol::ClientFrame;
use tokio::sync::mpsc::Receiver;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionHandle};

use super::data::BenchData;
use hosting::process;

pub use follow::{Changed, Seen};

/// How often the engine's dev room looks at the folder (`gateway/dev_room.py` POLL_SECONDS).
pub const POLL_MS: u64 = 1500;
/// How long the engine may take to serve (it imports itself, then binds loopback).
const SERVE_WAIT: Duration = Duration::from_secs(75);
/// How long `.dev mount` may take (it imports the pack's world cards).
const MOUNT_WAIT: Duration = Duration::from_secs(30);
/// How long a switch like `.panels enable` may take (it pushes manifests to the room).
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// The room the bench plays in on the engine.
const ROOM: &str = "bench";

/// The engine's answers to `.dev mount` (its `locales/en/dev.json`): the first one means the
/// mount is live, the others why it is not.
const MOUNTED: &str = "Dev mount live";
const NOT_MOUNTED: &[&str] = &[
    "Dev rooms are off",
    "That path is not a directory",
    "That directory has no pack.yaml",
    "The source tree does not parse",
    "Only an authenticated Keeper",
];
/// The engine's answers to `.panels enable <id>` (`locales/en/commands.json`), each followed
/// by the pack id: switched on, or no installed pack with panels by that id.
const PANELS_ANSWERS: &[&str] = &[
    "Enabled UI panels from pack: ",
    "No installed pack with UI panels named: ",
];

/// The engine while the bench runs the pack on it; stopped when dropped.
pub struct EngineRun {
    pid: u32,
    pub ticket: EndpointTicket,
    /// The author's keys for the window's seat (the hidden connections have their own).
    pub keeper_key: String,
    pub player_key: String,
    watchers: Vec<SessionHandle>,
    pub seen: Arc<Mutex<Seen>>,
    _data: BenchData,
}

fn key() -> String {
    super::random_key()
}

/// The engine's end, reported by hosting's process watcher.
struct Ended {
    seen: Arc<Mutex<Seen>>,
    changed: follow::Changed,
}

impl process::Watcher for Ended {
    fn line(&self, text: &str) {
        lock(&self.seen).lines.push(text);
    }

    fn exited(&self, status: std::process::ExitStatus) {
        {
            let mut s = lock(&self.seen);
            s.ended = true;
            let last = s.lines.last(3).join(" / ");
            s.message = Some(format!("the engine ended ({status}): {last}"));
        }
        (self.changed)();
    }
}

fn lock(seen: &Mutex<Seen>) -> MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(|e| e.into_inner())
}

/// The pack's id as its `pack.yaml` says (the dev room enables panels by it).
fn pack_id(dir: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(dir.join("pack.yaml"))
        .map_err(|e| format!("{}: {e}", dir.join("pack.yaml").display()))?;
    let doc = pack::yaml::parse(&text).map_err(|e| format!("pack.yaml: {}", e.message))?;
    doc.get("id")
        .and_then(|n| n.as_str())
        .map(str::to_string)
        .ok_or_else(|| "pack.yaml has no id".to_string())
}

impl EngineRun {
    /// Starts an engine on `dir`, mounts the pack in its dev room and joins the hidden keeper
    /// and player; `changed` is called whenever what they see changes.
    pub async fn start(
        dir: &Path,
        data: BenchData,
        changed: follow::Changed,
    ) -> Result<EngineRun, String> {
        let (engine, _) = crate::hosting::engine_in_use()
            .ok_or("no engine found: choose one under Host a table (connect screen) first")?;
        let Engine::Source {
            dir: engine_dir,
            python,
        } = &engine
        else {
            return Err(format!(
                "the bench runs the engine for this machine only, which needs its source folder (with its virtual environment); {} is an executable",
                engine.path().display()
            ));
        };
        let version = crate::hosting::probe_engine(&engine).await?;
        let id = pack_id(dir)?;
        let source_root = dir
            .parent()
            .ok_or("the pack folder has no folder above it")?;
        let (keeper_key, player_key) = (key(), key());
        let (watch_keeper, watch_player) = (key(), key());
        let entry = |k: &str, name: &str, role: &str| {
            format!("[\"{k}\"]\nroom = \"{ROOM}\"\nname = \"{name}\"\nrole = \"{role}\"\n\n")
        };
        let keys = [
            entry(&keeper_key, "Author", "keeper"),
            entry(&player_key, "Player", "player"),
            entry(&watch_keeper, "Studio (keeper's view)", "keeper"),
            entry(&watch_player, "Studio (player's view)", "player"),
        ]
        .concat();
        let home = data.path();
        let write = |name: &str, text: &str| {
            std::fs::write(home.join(name), text).map_err(|e| format!("{name}: {e}"))
        };
        write("keys.toml", &keys)?;
        write("studio-loopback.py", crate::hosting::LOOPBACK_LAUNCHER)?;
        let port = std::net::UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .map_err(|e| format!("no loopback port for the engine: {e}"))?
            .port();
        let seen = Arc::new(Mutex::new(Seen::default()));
        {
            let mut s = lock(&seen);
            s.label = format!("{} {version}", engine.path().display());
            for k in [&keeper_key, &player_key, &watch_keeper, &watch_player] {
                s.lines.know(k);
            }
        }
        let launch = process::Launch {
            program: python.clone(),
            args: vec![
                home.join("studio-loopback.py").display().to_string(),
                "--serve".into(),
                "--keys".into(),
                home.join("keys.toml").display().to_string(),
            ],
            workdir: engine_dir.clone(),
            env: vec![
                ("STUDIO_ENGINE_PORT".into(), port.to_string()),
                (
                    "TRPG_DATA_DIR".into(),
                    home.join("data").display().to_string(),
                ),
                (
                    "TRPG_DEV__SOURCE_ROOT".into(),
                    source_root.display().to_string(),
                ),
            ],
        };
        let ended = Arc::new(Ended {
            seen: seen.clone(),
            changed: changed.clone(),
        });
        let pid = process::spawn(launch, ended)?;
        let started = Instant::now();
        // From here on a failure must not leave the engine running.
        let mut run = EngineRun {
            pid,
            ticket: serve_ticket(home, &seen).await?,
            keeper_key,
            player_key,
            watchers: Vec::new(),
            seen,
            _data: data,
        };
        tracing::info!(
            ms = started.elapsed().as_millis() as u64,
            "pack bench: the engine serves"
        );
        let (keeper, mut replies) = run.watch(&watch_keeper, true, dir, changed.clone()).await?;
        let mount = format!(".dev mount {}", dir.display());
        send(&keeper, &mount).await?;
        let answer = mounted(&mut replies).await?;
        send(&keeper, &format!(".panels enable {id}")).await?;
        // The engine pushes manifests to the members joined when the switch lands: a player
        // joining before the answer could miss both the push and the switch.
        panels_enabled(&mut replies, &id, ANSWER_WAIT).await?;
        keeper
            .send(ClientFrame::ListPackCards)
            .await
            .map_err(|e| e.to_string())?;
        lock(&run.seen).message = Some(answer);
        run.watch(&watch_player, false, dir, changed).await?;
        tracing::info!(
            ms = started.elapsed().as_millis() as u64,
            "pack bench: the pack is mounted on the engine"
        );
        Ok(run)
    }

    /// Joins a hidden connection and follows what it is shown.
    async fn watch(
        &mut self,
        key: &str,
        keeper: bool,
        dir: &Path,
        changed: follow::Changed,
    ) -> Result<(SessionHandle, Receiver<String>), String> {
        let endpoint = bind(NetworkMode::LocalOnly)
            .await
            .map_err(|e| e.to_string())?;
        let params = JoinParams {
            key: key.into(),
            name: None,
            client_version: env!("CARGO_PKG_VERSION").into(),
        };
        let (handle, events) = Session::connect(endpoint, self.ticket.clone(), params)
            .await
            .map_err(|e| format!("the bench could not join its engine: {e}"))?;
        let replies = follow::follow(
            events,
            keeper,
            dir.to_path_buf(),
            self.seen.clone(),
            changed,
        );
        self.watchers.push(handle.clone());
        Ok((handle, replies))
    }

    /// Sets a variable on the engine (the bench sets it on both tables).
    pub async fn set_var(&self, id: &str, value: &str) -> Result<(), String> {
        match self.watchers.first() {
            Some(keeper) => send(keeper, &format!(".var set {id} {value}")).await,
            None => Err("the engine is not joined".into()),
        }
    }

    /// Stops the engine: the hidden connections close, SIGTERM, SIGKILL after 10 s.
    pub async fn stop(self) {
        for w in &self.watchers {
            w.close();
        }
        let pid = self.pid;
        let _ = tauri::async_runtime::spawn_blocking(move || {
            process::stop_pid(pid, crate::hosting::STOP_GRACE)
        })
        .await;
        tracing::info!("pack bench: the engine stopped");
    }
}

impl Drop for EngineRun {
    /// A run dropped without [`EngineRun::stop`] (a failed start) still ends its engine.
    fn drop(&mut self) {
        if process::alive(self.pid) {
            process::stop(self.pid, process::Stop::Force);
        }
    }
}

async fn send(session: &SessionHandle, text: &str) -> Result<(), String> {
    session
        .send(ClientFrame::input(text))
        .await
        .map_err(|e| format!("the engine did not take {text:?}: {e}"))
}

/// Waits for the engine's ticket file (or its end).
async fn serve_ticket(home: &Path, seen: &Mutex<Seen>) -> Result<EndpointTicket, String> {
    let file = home.join("iroh-ticket.txt");
    let until = Instant::now() + SERVE_WAIT;
    loop {
        let written = std::fs::read_to_string(&file).unwrap_or_default();
        if let Some(t) = written.lines().find_map(|l| l.strip_prefix("ticket=")) {
            return t
                .trim()
                .parse()
                .map_err(|e| format!("the engine's ticket does not read: {e}"));
        }
        let ended = {
            let s = lock(seen);
            s.ended.then(|| s.message.clone())
        };
        if let Some(m) = ended {
            return Err(m.unwrap_or_else(|| "the engine ended before it served".into()));
        }
        if Instant::now() > until {
            return Err(format!(
                "the engine did not serve within {} s",
                SERVE_WAIT.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The engine's answer to `.dev mount`: its sentence when live, else why not.
async fn mounted(replies: &mut Receiver<String>) -> Result<String, String> {
    answer(replies, ".dev mount", MOUNT_WAIT, |text| {
        if text.contains(MOUNTED) {
            Some(Ok(text.lines().next().unwrap_or_default().to_string()))
        } else if NOT_MOUNTED.iter().any(|n| text.starts_with(n)) {
            Some(Err(format!("the engine did not mount the pack: {text}")))
        } else {
            None
        }
    })
    .await
}

/// The engine's answer to `.panels enable <id>`. A pack without panels is answered as unknown,
/// which is no failure: its players are rightly shown no panels.
async fn panels_enabled(
    replies: &mut Receiver<String>,
    id: &str,
    wait: Duration,
) -> Result<(), String> {
    answer(replies, ".panels enable", wait, |text| {
        let ours = text.lines().any(|line| {
            PANELS_ANSWERS.iter().any(|a| {
                line.strip_prefix(a)
                    .is_some_and(|rest| rest.trim_end_matches(['.', ' ']) == id)
            })
        });
        ours.then_some(Ok(()))
    })
    .await
}

/// Reads the keeper's replies until `judge` knows one as the answer to `command`.
async fn answer<T>(
    replies: &mut Receiver<String>,
    command: &str,
    wait: Duration,
    judge: impl Fn(&str) -> Option<Result<T, String>>,
) -> Result<T, String> {
    let until = tokio::time::Instant::now() + wait;
    loop {
        let text = tokio::time::timeout_at(until, replies.recv())
            .await
            .map_err(|_| {
                format!(
                    "the engine did not answer {command} within {} s",
                    wait.as_secs()
                )
            })?
            .ok_or("the engine closed the bench's connection")?;
        if let Some(verdict) = judge(&text) {
            return verdict;
        }
    }
}

#[cfg(test)]
mod tests;
