//! Hosting a table: Studio starts the real engine as its child (one data folder per hosted
//! table, inside the profile), waits for its ticket, reads its bootstrap keeper key and joins
//! as keeper through the seat. The key goes to the seat only, never to the window. The
//! engine's output is redacted (`hosting::log`) into a ring the Log drawer reads and into a log
//! file in the profile's log folder. Stop is SIGTERM, then SIGKILL after 10 s; Studio's death
//! takes the engine with it (`process`). What an engine is, its probe and the state machine
//! are the pure `hosting` crate.

mod process;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use hosting::engine::{self, Engine, Found};
use hosting::log::Ring;
use hosting::state::{Event, Phase};
use ipc::{cmd, EngineView, HostingEvent, HostingView, Message, Reply};
use tauri::ipc::Channel;
use tauri::State;

use crate::seat::{Dial, Kind, Seat};

/// The launcher for "this machine only": the engine bound to 127.0.0.1 with no relays.
const LOOPBACK_LAUNCHER: &str = include_str!("loopback.py");
/// How long Stop waits after SIGTERM before SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long an engine may take to write its ticket (it gives up on relays itself after 45 s).
const TICKET_WAIT: Duration = Duration::from_secs(75);

/// The hosted table while Studio hosts it (one at a time).
#[derive(Clone, Default)]
pub struct Hosting(Arc<Mutex<Inner>>);

#[derive(Default)]
struct Inner {
    phase: Phase,
    ring: Ring,
    table: Option<Table>,
    pid: Option<u32>,
    started_ms: Option<u64>,
    ticket: Option<String>,
    /// The keeper key read from `keeper-key.txt`: for the seat only, never in a view.
    key: Option<String>,
    demo_model: bool,
    channel: Option<Channel<HostingEvent>>,
    log: Option<std::fs::File>,
    /// Bumped on every start: only the latest process's end counts.
    generation: u64,
}

/// A table as hosted: its name, its folder and how it is served.
#[derive(Clone)]
struct Table {
    name: String,
    dir: PathBuf,
    local_only: bool,
    engine: Engine,
    version: String,
    port: u16,
}

impl Table {
    fn keys(&self) -> PathBuf {
        self.dir.join("keys.toml")
    }
    fn pid_file(&self) -> PathBuf {
        self.dir.join("engine.pid")
    }
}

/// Where hosted tables and the chosen engine are kept in the profile.
fn hosted_dir() -> PathBuf {
    crate::profile::studio_dir().join("hosted")
}

fn remembered_engine() -> Option<PathBuf> {
    std::fs::read_to_string(hosted_dir().join("engine.txt"))
        .ok()
        .map(|s| PathBuf::from(s.trim()))
        .filter(|p| !p.as_os_str().is_empty())
}

/// A table's folder name from the name the person gave it.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(40).collect();
    if out.is_empty() {
        "table".into()
    } else {
        out
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// `name=value` from a sidecar file the engine writes (`ticket=`, `key=`).
fn sidecar(path: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let prefix = format!("{name}=");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A free UDP port on loopback (kept in the table's folder: the same port keeps the ticket).
fn free_port() -> Result<u16, String> {
    let s = std::net::UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    s.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn table_port(dir: &Path) -> Result<u16, String> {
    let file = dir.join("port");
    if let Some(p) = std::fs::read_to_string(&file)
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return Ok(p);
    }
    let p = free_port()?;
    std::fs::write(&file, p.to_string()).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(p)
}

/// Probes `engine` off the async runtime.
async fn probe(engine: &Engine) -> Result<String, String> {
    let e = engine.clone();
    tauri::async_runtime::spawn_blocking(move || hosting::probe::run(&e, hosting::probe::TIMEOUT))
        .await
        .map_err(|e| e.to_string())?
}

/// The engine to use now, and how it was found.
fn discover() -> Option<(Engine, Found)> {
    let path = std::env::var("PATH").unwrap_or_default();
    engine::discover(remembered_engine().as_deref(), &path)
}

fn engine_view(engine: &Engine, version: String, found: Found) -> EngineView {
    EngineView {
        path: engine.path().display().to_string(),
        version,
        found: match found {
            Found::Chosen => "chosen",
            Found::OnPath => "path",
        }
        .into(),
    }
}

/// The engine's end as a process reports it.
struct Watch {
    hosting: Hosting,
    generation: u64,
}

impl process::Watcher for Watch {
    fn line(&self, text: &str) {
        self.hosting.line(text);
    }

    fn exited(&self, status: std::process::ExitStatus) {
        use std::os::unix::process::ExitStatusExt;
        let mut inner = self.hosting.lock();
        if inner.generation != self.generation {
            return;
        }
        let last_lines = inner.ring.last(hosting::state::CRASH_LINES);
        let before = inner.phase.clone();
        inner.phase = before.next(Event::Exited {
            code: status.code(),
            signal: status.signal(),
            last_lines,
        });
        inner.pid = None;
        if let Some(t) = &inner.table {
            let _ = std::fs::remove_file(t.pid_file());
        }
        let note = format!("Studio: the engine ended ({status})");
        Hosting::keep_line(&mut inner, &note);
        tracing::info!(
            state = inner.phase.name(),
            %status,
            "the hosted engine ended"
        );
        Hosting::send_state(&inner);
    }
}

impl Hosting {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn view(inner: &Inner) -> HostingView {
        let crash = match &inner.phase {
            Phase::Crashed(c) => Some(c),
            _ => None,
        };
        HostingView {
            state: inner.phase.name().into(),
            name: inner.table.as_ref().map(|t| t.name.clone()),
            ticket: inner.ticket.clone(),
            version: inner.table.as_ref().map(|t| t.version.clone()),
            started_ms: inner.started_ms,
            demo_model: inner.demo_model,
            local_only: inner.table.as_ref().is_some_and(|t| t.local_only),
            pid: inner.pid,
            exit_code: crash.and_then(|c| c.code),
            exit_signal: crash.and_then(|c| c.signal),
            last_lines: crash.map(|c| c.last_lines.clone()).unwrap_or_default(),
            before_serving: crash.is_some_and(|c| c.before_serving),
        }
    }

    fn send_state(inner: &Inner) {
        if let Some(ch) = &inner.channel {
            let _ = ch.send(HostingEvent::State(Self::view(inner)));
        }
    }

    /// Keeps one line (redacted) in the ring and the log file; the redacted line.
    fn keep_line(inner: &mut Inner, raw: &str) -> String {
        let line = inner.ring.push(raw);
        if let Some(f) = inner.log.as_mut() {
            use std::io::Write;
            let _ = writeln!(f, "{line}");
        }
        line
    }

    fn line(&self, raw: &str) {
        let mut inner = self.lock();
        let line = Self::keep_line(&mut inner, raw);
        if hosting::log::is_demo_notice(&line) && !inner.demo_model {
            inner.demo_model = true;
            Self::send_state(&inner);
        }
        if let Some(ch) = &inner.channel {
            let _ = ch.send(HostingEvent::Lines(vec![line]));
        }
    }

    /// Starts `table`'s engine and waits for its ticket: the ticket and the keeper key.
    async fn start(&self, table: Table) -> Result<(String, String), String> {
        std::fs::create_dir_all(table.dir.join("data"))
            .map_err(|e| format!("{}: {e}", table.dir.display()))?;
        let ticket_file = table.dir.join("iroh-ticket.txt");
        let _ = std::fs::remove_file(&ticket_file);
        let keys = table.keys().display().to_string();
        let launch = if table.local_only {
            let Engine::Source { dir, python } = &table.engine else {
                return Err(format!(
                    "hosting for this machine only needs the engine's source folder (with its virtual environment); {} is an executable",
                    table.engine.path().display()
                ));
            };
            let launcher = table.dir.join("studio-loopback.py");
            std::fs::write(&launcher, LOOPBACK_LAUNCHER)
                .map_err(|e| format!("{}: {e}", launcher.display()))?;
            process::Launch {
                program: python.clone(),
                args: vec![
                    launcher.display().to_string(),
                    "--serve".into(),
                    "--keys".into(),
                    keys,
                ],
                workdir: dir.clone(),
                env: vec![("STUDIO_ENGINE_PORT".into(), table.port.to_string())],
            }
        } else {
            let (program, mut args) = table.engine.command();
            args.extend(["--serve".into(), "--keys".into(), keys]);
            process::Launch {
                program,
                args,
                workdir: table
                    .engine
                    .workdir()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| table.dir.clone()),
                env: Vec::new(),
            }
        };
        let mut launch = launch;
        launch.env.push((
            "TRPG_DATA_DIR".into(),
            table.dir.join("data").display().to_string(),
        ));
        let generation = {
            let mut inner = self.lock();
            if inner.phase.running() {
                return Err("the engine is already running".into());
            }
            inner.generation += 1;
            inner.phase = inner.phase.next(Event::Spawned);
            inner.ticket = None;
            inner.demo_model = false;
            inner.table = Some(table.clone());
            let log_dir = crate::logging::log_dir();
            let _ = std::fs::create_dir_all(&log_dir);
            inner.log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log_dir.join(format!("engine-{}.log", slug(&table.name))))
                .ok();
            let note = format!(
                "Studio: starting the engine {} for {} ({})",
                table.engine.path().display(),
                table.name,
                if table.local_only {
                    "this machine only"
                } else {
                    "Internet"
                }
            );
            Self::keep_line(&mut inner, &note);
            Self::send_state(&inner);
            inner.generation
        };
        let watch = Arc::new(Watch {
            hosting: self.clone(),
            generation,
        });
        let pid = match process::spawn(launch, watch) {
            Ok(pid) => pid,
            Err(e) => {
                let mut inner = self.lock();
                inner.phase = Phase::Idle;
                Self::send_state(&inner);
                return Err(e);
            }
        };
        let _ = std::fs::write(table.pid_file(), pid.to_string());
        {
            let mut inner = self.lock();
            inner.pid = Some(pid);
            inner.started_ms = Some(now_ms());
            Self::send_state(&inner);
        }
        let deadline = Instant::now() + TICKET_WAIT;
        let ticket = loop {
            if let Some(t) = sidecar(&ticket_file, "ticket") {
                break t;
            }
            let phase = self.lock().phase.clone();
            match phase {
                Phase::Starting => {}
                Phase::Crashed(c) => {
                    let relay = !table.local_only
                        && self
                            .lock()
                            .ring
                            .last(hosting::state::CRASH_LINES)
                            .iter()
                            .any(|l| l.contains("could not start"));
                    let code = c
                        .code
                        .map(|c| format!("exit code {c}"))
                        .or_else(|| c.signal.map(|s| format!("signal {s}")))
                        .unwrap_or_default();
                    return Err(if relay {
                        format!("no relay reachable: the engine could not go online ({code}); host for this machine only instead")
                    } else {
                        format!("the engine ended before it served ({code}); its last lines are in the hosting strip's log")
                    });
                }
                _ => return Err("hosting was stopped before the engine served".into()),
            }
            if Instant::now() > deadline {
                self.stop(STOP_GRACE).await;
                return Err(format!(
                    "the engine wrote no ticket within {} s",
                    TICKET_WAIT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let key = sidecar(&table.dir.join("keeper-key.txt"), "key").ok_or(
            "the engine wrote no keeper key (keeper-key.txt): this table's keystore was made elsewhere",
        )?;
        let mut inner = self.lock();
        inner.ring.know(&key);
        inner.phase = inner.phase.next(Event::TicketSeen);
        inner.ticket = Some(ticket.clone());
        inner.key = Some(key.clone());
        Self::send_state(&inner);
        Ok((ticket, key))
    }

    /// Stops the engine: SIGTERM to its group, SIGKILL after `grace`. Whether one ran.
    pub async fn stop(&self, grace: Duration) -> bool {
        let pid = {
            let mut inner = self.lock();
            if let Phase::Crashed(_) = inner.phase {
                inner.phase = inner.phase.next(Event::StopAsked);
                Self::send_state(&inner);
                return false;
            }
            if !inner.phase.running() {
                return false;
            }
            inner.phase = inner.phase.next(Event::StopAsked);
            Self::send_state(&inner);
            inner.pid
        };
        let Some(pid) = pid else { return false };
        let asked = Instant::now();
        process::signal(pid, libc::SIGTERM);
        let gone = |h: &Hosting| !h.lock().phase.running();
        while !gone(self) && asked.elapsed() < grace {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if !gone(self) {
            tracing::warn!("the hosted engine did not stop on SIGTERM: killing it");
            process::signal(pid, libc::SIGKILL);
            let until = Instant::now() + Duration::from_secs(5);
            while !gone(self) && Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        tracing::info!(
            ms = asked.elapsed().as_millis() as u64,
            "the hosted engine stopped"
        );
        true
    }

    /// On quit: the engine stops with Studio (what `PR_SET_PDEATHSIG` would do, but cleanly).
    pub fn stop_on_exit(&self) {
        let h = self.clone();
        tauri::async_runtime::block_on(async move {
            h.stop(Duration::from_secs(5)).await;
        });
    }
}

/// The engine Studio would use (probed) and the hosted engine's state.
#[tauri::command]
pub async fn hosting_info(
    hosting: State<'_, Hosting>,
    args: cmd::GetHostingInfo,
) -> Result<Reply<cmd::GetHostingInfo>, String> {
    let cmd::GetHostingInfo {} = args;
    let (engine, problem) = match discover() {
        None => (None, None),
        Some((e, found)) => match probe(&e).await {
            Ok(version) => (Some(engine_view(&e, version, found)), None),
            Err(why) => (None, Some(crate::clean::text(&why))),
        },
    };
    let last_name = std::fs::read_to_string(hosted_dir().join("last-name.txt"))
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    Ok(ipc::HostingInfo {
        engine,
        problem,
        last_name,
        hosting: Hosting::view(&hosting.lock()),
    })
}

/// Probes the engine at `path` and remembers it for this profile.
#[tauri::command]
pub async fn choose_engine(args: cmd::ChooseEngine) -> Result<Reply<cmd::ChooseEngine>, String> {
    let path = PathBuf::from(args.path.trim());
    let engine = engine::inspect(&path).map_err(|e| crate::clean::text(&e.0))?;
    let version = probe(&engine).await.map_err(|e| crate::clean::text(&e))?;
    let dir = hosted_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("engine.txt"), engine.path().display().to_string())
        .map_err(|e| e.to_string())?;
    tracing::info!(version = %version, "an engine was chosen");
    Ok(engine_view(&engine, version, Found::Chosen))
}

/// How the keeper's seat dials the hosted table (the key goes to the seat, nowhere else).
fn keeper_dial(ticket: &str, key: String, local_only: bool) -> Result<Dial, String> {
    Ok(Dial {
        ticket: transport::ticket::parse_ticket(ticket).map_err(|e| e.to_string())?,
        key,
        name: None,
        local_only,
        kind: Kind::Hosted,
    })
}

/// Starts the engine for a table and joins it as keeper.
#[tauri::command]
pub async fn host_table(
    seat: State<'_, Seat>,
    hosting: State<'_, Hosting>,
    args: cmd::HostTable,
    on_event: Channel<Message<cmd::HostTable>>,
) -> Result<Reply<cmd::HostTable>, String> {
    let cmd::HostTable {
        name,
        local_only,
        stop_stale,
    } = args;
    host(&seat, &hosting, name, local_only, stop_stale, on_event)
        .await
        .map_err(|e| crate::clean::text(&e))?;
    Ok(ipc::Joined {
        demo: false,
        pack_bench: None,
    })
}

async fn host(
    seat: &Seat,
    hosting: &Hosting,
    name: String,
    local_only: bool,
    stop_stale: bool,
    on_event: Channel<Message<cmd::HostTable>>,
) -> Result<(), String> {
    let name = name.trim().to_string();
    let name = if name.is_empty() {
        "My table".to_string()
    } else {
        name
    };
    let asked = Instant::now();
    // The table already served (the keeper left it): back to it, as its keeper.
    let serving = {
        let inner = hosting.lock();
        match (&inner.phase, &inner.table, &inner.ticket, &inner.key) {
            (Phase::Serving, Some(t), Some(ticket), Some(key)) if slug(&t.name) == slug(&name) => {
                Some((ticket.clone(), key.clone(), t.local_only))
            }
            (phase, Some(t), ..) if phase.running() => {
                return Err(format!(
                    "Studio is already hosting {}: stop it first",
                    t.name
                ))
            }
            _ => None,
        }
    };
    if let Some((ticket, key, local_only)) = serving {
        seat.leave().await;
        return seat
            .join(keeper_dial(&ticket, key, local_only)?, false, on_event)
            .await;
    }
    let (engine, _) = discover().ok_or("no engine found: choose one first")?;
    let dir = hosted_dir().join(slug(&name));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // An engine an earlier Studio left running for this table (it died before it could stop it).
    let keys = dir.join("keys.toml").display().to_string();
    if let Some(pid) = std::fs::read_to_string(dir.join("engine.pid"))
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|pid| process::alive(*pid) && process::has_arg(*pid, &keys))
    {
        if !stop_stale {
            return Err(format!(
                "an engine Studio started earlier is still running for {name} (pid {pid}): stop it to host again"
            ));
        }
        tracing::info!(pid, "stopping an engine left running for this table");
        tauri::async_runtime::spawn_blocking(move || process::stop_pid(pid, STOP_GRACE))
            .await
            .map_err(|e| e.to_string())?;
    }
    let version = probe(&engine).await?;
    let table = Table {
        name: name.clone(),
        port: table_port(&dir)?,
        dir,
        local_only,
        engine,
        version,
    };
    let _ = std::fs::write(hosted_dir().join("last-name.txt"), &name);
    seat.leave().await;
    let spawned = Instant::now();
    let (ticket, key) = hosting.start(table).await?;
    let served = Instant::now();
    seat.join(keeper_dial(&ticket, key, local_only)?, false, on_event)
        .await?;
    tracing::info!(
        probe_ms = (spawned - asked).as_millis() as u64,
        start_to_ticket_ms = (served - spawned).as_millis() as u64,
        ticket_to_joined_ms = served.elapsed().as_millis() as u64,
        "hosting: joined the hosted table as keeper"
    );
    Ok(())
}

/// The window listens to the hosted engine: its state and kept lines now, then every change.
#[tauri::command]
pub fn watch_hosting(
    hosting: State<'_, Hosting>,
    args: cmd::WatchHosting,
    on_hosting: Channel<Message<cmd::WatchHosting>>,
) -> Reply<cmd::WatchHosting> {
    let cmd::WatchHosting {} = args;
    let mut inner = hosting.lock();
    let _ = on_hosting.send(HostingEvent::State(Hosting::view(&inner)));
    let _ = on_hosting.send(HostingEvent::Lines(
        inner.ring.last(hosting::log::RING_LINES),
    ));
    inner.channel = Some(on_hosting);
}

/// Stops the hosted engine; leaves its table if the person sits at it.
#[tauri::command]
pub async fn stop_hosting(
    seat: State<'_, Seat>,
    hosting: State<'_, Hosting>,
    args: cmd::StopHosting,
) -> Result<Reply<cmd::StopHosting>, String> {
    let cmd::StopHosting {} = args;
    hosting.stop(STOP_GRACE).await;
    if seat.kind().await == Some(Kind::Hosted) {
        seat.leave().await;
        return Ok(true);
    }
    Ok(false)
}

/// Starts the hosted engine again after a crash: same folder, same port, so the same ticket;
/// the keeper's seat reconnects by itself.
#[tauri::command]
pub async fn restart_hosting(
    hosting: State<'_, Hosting>,
    args: cmd::RestartHosting,
) -> Result<Reply<cmd::RestartHosting>, String> {
    let cmd::RestartHosting {} = args;
    let table = hosting
        .lock()
        .table
        .clone()
        .ok_or("there is no hosted table to restart")?;
    hosting
        .start(table)
        .await
        .map_err(|e| crate::clean::text(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_name_becomes_a_folder_name() {
        assert_eq!(slug("My Table"), "my-table");
        assert_eq!(slug("  ../../etc  "), "etc");
        assert_eq!(slug("///"), "table");
        assert_eq!(slug("Château d'If"), "château-d-if");
    }

    #[test]
    fn the_launcher_binds_loopback_only() {
        assert!(LOOPBACK_LAUNCHER.contains("preset_minimal()"));
        assert!(LOOPBACK_LAUNCHER.contains("127.0.0.1:{PORT}"));
    }
}
