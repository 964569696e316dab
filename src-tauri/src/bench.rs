//! The pack author's bench: a pack folder served by the in-process local table (loopback
//! only), enabled in its room, joined as keeper or player, and reloaded on every save.
//!
//! The local table's pack watcher (`local_table::watch`) reloads the pack on every save and the
//! table republishes the manifest (the panels repaint from the fresh `ui_manifest`). A pack
//! that no longer loads is reported with the loader's message (file, line and column from the
//! YAML parser) and the last good pack stays served.

use std::path::{Path, PathBuf};

use local_table::keystore::{KeyEntry, KeySource};
use local_table::{LocalTable, RunningTable};
use serde::Serialize;
use tauri::ipc::Channel;

use crate::table_session::{PumpBatch, PumpEvent};

/// What the bench pane shows after a (re)load.
#[derive(Debug, Clone, Serialize)]
pub struct BenchStatus {
    pub dir: String,
    /// The connection's role: `keeper` or `player`.
    pub viewer: String,
    /// `None` when the pack loaded; else the loader's message (the last good pack stays).
    pub error: Option<String>,
    /// Every panel of the pack and who receives it (`all`, `keeper`, `players`).
    pub panels: Vec<BenchPanel>,
    /// Reloads so far (0 = the first load).
    pub reloads: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchPanel {
    pub id: String,
    pub audience: &'static str,
}

/// The bench's table and watcher; dropped (watcher stopped) when the bench closes.
pub struct Bench {
    pub dir: PathBuf,
    pub keeper_key: String,
    pub player_key: String,
    _watcher: Option<local_table::watch::PackWatcher>,
}

fn random_key() -> String {
    use rand::Rng as _;
    let bytes: [u8; 18] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Starts the local table for `dir` with fresh keys and private data under `data_dir`.
pub async fn start_table(dir: &Path, data_dir: PathBuf) -> Result<(RunningTable, Bench), String> {
    if !dir.join("pack.yaml").is_file() {
        return Err(format!(
            "{} is not a pack folder: it has no pack.yaml",
            dir.display()
        ));
    }
    let keeper_key = random_key();
    let player_key = random_key();
    let entry = |name: &str, role: &str| KeyEntry {
        room: "bench".into(),
        name: name.into(),
        role: role.into(),
    };
    let keys = KeySource::Memory(vec![
        (keeper_key.clone(), entry("Author", "keeper")),
        (player_key.clone(), entry("Player", "player")),
    ]);
    let mut config = local_table::TableConfig::new(keys, data_dir);
    config.packs = vec![dir.to_path_buf()];
    config.enable_packs = true;
    config.pacing = local_table::Pacing::fast();
    let table = LocalTable::start(config)
        .await
        .map_err(|e| format!("the pack could not be opened: {e}"))?;
    Ok((
        table,
        Bench {
            dir: dir.to_path_buf(),
            keeper_key,
            player_key,
            _watcher: None,
        },
    ))
}

pub fn status(
    table: &RunningTable,
    bench: &Bench,
    viewer: &str,
    error: Option<String>,
    reloads: u64,
) -> BenchStatus {
    BenchStatus {
        dir: bench.dir.display().to_string(),
        viewer: viewer.into(),
        error,
        panels: table
            .panel_audiences()
            .into_iter()
            .map(|(id, audience)| BenchPanel { id, audience })
            .collect(),
        reloads,
    }
}

/// Watches the pack folder; every change on disk reloads the pack and reports to `channel`.
pub fn watch(
    table: &RunningTable,
    bench: &mut Bench,
    viewer: String,
    channel: Channel<PumpBatch>,
) -> Result<(), String> {
    let packs = table.packs_handle();
    let audiences = packs.clone();
    let dir = bench.dir.display().to_string();
    let mut reloads = 0u64;
    let watcher = local_table::watch::watch_pack(packs, &bench.dir, move |outcome| {
        reloads += 1;
        let status = BenchStatus {
            dir: dir.clone(),
            viewer: viewer.clone(),
            error: outcome.err().map(|e| e.to_string()),
            panels: audiences
                .audiences()
                .into_iter()
                .map(|(id, audience)| BenchPanel { id, audience })
                .collect(),
            reloads,
        };
        let _ = channel.send(vec![PumpEvent::Bench(status)]);
    })?;
    bench._watcher = Some(watcher);
    Ok(())
}

/// `--pack <dir>` from the command line, handed to the first page that asks.
#[derive(Default)]
pub struct StartupPack(pub std::sync::Mutex<Option<PathBuf>>);

impl StartupPack {
    pub fn from_args() -> Self {
        let mut args = std::env::args_os().skip(1);
        let mut dir = None;
        while let Some(a) = args.next() {
            if a == "--pack" {
                dir = args.next().map(PathBuf::from);
            }
        }
        StartupPack(std::sync::Mutex::new(dir))
    }
}

/// The folder given with `--pack`, once (a reload of the page does not reopen it).
#[tauri::command]
pub fn startup_pack(startup: tauri::State<'_, StartupPack>) -> Option<String> {
    startup
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .map(|p| p.display().to_string())
}

/// The native folder picker (Tauri's dialog plugin); `None` when cancelled.
#[tauri::command]
pub async fn pick_pack_folder(app: tauri::AppHandle) -> Option<String> {
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog().file().pick_folder(move |picked| {
        let _ = tx.send(picked.map(|p| p.to_string()));
    });
    rx.await.ok().flatten()
}

/// Opens the pack bench on a folder.
#[tauri::command]
pub async fn open_pack(
    tables: tauri::State<'_, crate::table_session::Tables>,
    dir: String,
    viewer: Option<String>,
    on_event: Channel<PumpBatch>,
) -> Result<crate::table_session::Joined, String> {
    let viewer = viewer.unwrap_or_else(|| "keeper".into());
    tables
        .open_pack(PathBuf::from(dir), &viewer, on_event)
        .await
}

/// Switches the bench's viewer (`keeper` / `player`) on a fresh page channel.
#[tauri::command]
pub async fn bench_view(
    tables: tauri::State<'_, crate::table_session::Tables>,
    viewer: String,
    on_event: Channel<PumpBatch>,
) -> Result<crate::table_session::Joined, String> {
    tables.bench_view(&viewer, on_event).await
}
