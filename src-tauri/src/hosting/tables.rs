//! A hosted table on disk and the engine that serves it: the profile's `hosted/` folder, the
//! engine chosen before, the sidecar files the engine writes (`iroh-ticket.txt`,
//! `keeper-key.txt`) and the fixed loopback port that keeps a table's ticket across restarts.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use hosting::engine::{self, Engine, Found};
use ipc::EngineView;

/// A table as hosted: its name, its folder and how it is served.
#[derive(Clone)]
pub(super) struct Table {
    pub name: String,
    pub dir: PathBuf,
    pub local_only: bool,
    pub engine: Engine,
    pub version: String,
    pub port: u16,
}

impl Table {
    pub fn keys(&self) -> PathBuf {
        self.dir.join("keys.toml")
    }
    pub fn pid_file(&self) -> PathBuf {
        self.dir.join("engine.pid")
    }
}

/// Where hosted tables and the chosen engine are kept in the profile.
pub(super) fn hosted_dir() -> PathBuf {
    crate::profile::studio_dir().join("hosted")
}

fn remembered_engine() -> Option<PathBuf> {
    std::fs::read_to_string(hosted_dir().join("engine.txt"))
        .ok()
        .map(|s| PathBuf::from(s.trim()))
        .filter(|p| !p.as_os_str().is_empty())
}

pub(super) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

/// `name=value` from a sidecar file the engine writes (`ticket=`, `key=`).
pub(super) fn sidecar(path: &Path, name: &str) -> Option<String> {
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

pub(super) fn table_port(dir: &Path) -> Result<u16, String> {
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
/// An engine that answered before is not asked again while its files are unchanged.
pub(crate) async fn probe(engine: &Engine) -> Result<String, String> {
    static KNOWN: std::sync::Mutex<Option<hosting::probe::Remembered>> =
        std::sync::Mutex::new(None);
    let known = || KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(version) = known().as_ref().and_then(|k| k.get(engine)) {
        return Ok(version);
    }
    let e = engine.clone();
    let version = tauri::async_runtime::spawn_blocking(move || {
        hosting::probe::run(&e, hosting::probe::TIMEOUT)
    })
    .await
    .map_err(|e| e.to_string())??;
    known()
        .get_or_insert_with(Default::default)
        .keep(engine, &version);
    Ok(version)
}

/// The engine to use now, and how it was found.
pub(crate) fn discover() -> Option<(Engine, Found)> {
    let path = std::env::var("PATH").unwrap_or_default();
    engine::discover(remembered_engine().as_deref(), &path)
}

pub(super) fn engine_view(engine: &Engine, version: String, found: Found) -> EngineView {
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
