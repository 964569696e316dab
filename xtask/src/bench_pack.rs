//! The pack bench's reload latency: a save in a pack folder → the fresh `ui_manifest` at a
//! viewer's connection, through the same watcher, table and transport Studio's bench uses (the
//! window then repaints in a frame or two). Loopback, Local-only endpoints.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use local_table::keystore::{KeyEntry, KeySource};
use protocol::ServerFrame;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent};

pub const RELOAD_TARGET_MS: f64 = 500.0;
const SAVES: usize = 7;

pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}

pub fn fixture() -> PathBuf {
    crate::cmd::root().join("tests/fixtures/bench-pack")
}

/// The median save → manifest time in milliseconds over [`SAVES`] saves.
pub async fn save_to_manifest_ms(work: &Path) -> Result<f64, String> {
    let dir = work.join("bench-pack");
    copy_dir(&fixture(), &dir).map_err(|e| format!("copying the fixture pack: {e}"))?;
    let key = "bench-keeper-key".to_string();
    let keys = KeySource::Memory(vec![(
        key.clone(),
        KeyEntry {
            room: "bench".into(),
            name: "Author".into(),
            role: "keeper".into(),
        },
    )]);
    let mut config = local_table::TableConfig::new(keys, work.join("table"));
    config.packs = vec![dir.clone()];
    config.enable_packs = true;
    let table = local_table::LocalTable::start(config)
        .await
        .map_err(|e| e.to_string())?;
    let _watcher = local_table::watch::watch_pack(table.packs_handle(), &dir, |_| {})?;
    let endpoint = bind(NetworkMode::LocalOnly)
        .await
        .map_err(|e| e.to_string())?;
    let params = JoinParams {
        key,
        name: None,
        client_version: "bench".into(),
    };
    let (session, mut events) = Session::connect(endpoint, table.endpoint_ticket(), params)
        .await
        .map_err(|e| e.to_string())?;
    let median = median_of_saves(
        &dir,
        &mut events,
        Duration::from_millis(300),
        Duration::ZERO,
        Duration::from_secs(5),
    )
    .await;
    session.close();
    median
}

/// Saves a new panel title [`SAVES`] times, each `settle` (plus an even share of `spread`: the
/// saves land at different phases of a polling watcher) after the last one's manifest, and
/// gives the median ms from the write to the `ui_manifest` carrying the new title.
pub async fn median_of_saves(
    dir: &Path,
    events: &mut tokio::sync::mpsc::Receiver<SessionEvent>,
    settle: Duration,
    spread: Duration,
    limit: Duration,
) -> Result<f64, String> {
    let panels = dir.join("ui/panels.yaml");
    let original = std::fs::read_to_string(&panels).map_err(|e| e.to_string())?;
    let mut times = Vec::new();
    for i in 0..SAVES {
        // Let the previous save's events settle so each save is its own reload.
        tokio::time::sleep(settle + spread * i as u32 / SAVES as u32).await;
        while events.try_recv().is_ok() {}
        let title = format!("Notes {i}");
        let start = Instant::now();
        std::fs::write(
            &panels,
            original.replace("\"Notes\"", &format!("\"{title}\"")),
        )
        .map_err(|e| e.to_string())?;
        loop {
            let event = tokio::time::timeout(limit, events.recv())
                .await
                .map_err(|_| format!("no manifest within {} s of save {i}", limit.as_secs()))?
                .ok_or("the session ended")?;
            if let SessionEvent::Frame(ServerFrame::UiManifest(m), _) = event {
                if m.panels.iter().any(|p| p.title.pick("en") == title) {
                    times.push(start.elapsed().as_secs_f64() * 1000.0);
                    break;
                }
            }
        }
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}
