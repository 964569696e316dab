//! The pack author's bench: a pack folder served by the in-process local table (loopback
//! only), enabled in its room, joined as keeper or player, and reloaded on every save.
//!
//! A debounced file watcher sees changes under the folder; the table re-reads the pack and
//! republishes the manifest (the panels repaint from the fresh `ui_manifest`). A pack that no
//! longer loads is reported with the loader's message (file, line and column from the YAML
//! parser) and the last good pack stays served.

use std::path::{Path, PathBuf};
use std::time::Duration;

use local_table::keystore::{KeyEntry, KeySource};
use local_table::{LocalTable, RunningTable};
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer, Debouncer};
use serde::Serialize;
use tauri::ipc::Channel;

use crate::table_session::{PumpBatch, PumpEvent};

/// Saves that land within this window become one reload.
const DEBOUNCE: Duration = Duration::from_millis(120);

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
    _watcher: Option<Debouncer<RecommendedWatcher>>,
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

/// Watches the pack folder; every debounced change reloads the pack and reports to `channel`.
pub fn watch(
    table: &RunningTable,
    bench: &mut Bench,
    viewer: String,
    channel: Channel<PumpBatch>,
) -> Result<(), String> {
    let packs = table.packs_handle();
    let dir = bench.dir.clone();
    let mut reloads = 0u64;
    let dir_for_events = dir.clone();
    // The watcher also reports reads (the reload's own reads among them): only a change in
    // what is on disk reloads, or every reload would trigger the next.
    let mut last = fingerprint(&dir);
    let mut debouncer = new_debouncer(
        DEBOUNCE,
        move |res: notify_debouncer_mini::DebounceEventResult| {
            if res.map(|events| events.is_empty()).unwrap_or(true) {
                return;
            }
            let now = fingerprint(&dir_for_events);
            if now == last {
                return;
            }
            last = now;
            reloads += 1;
            let error = packs.reload(&dir_for_events).err().map(|e| e.to_string());
            if let Some(e) = &error {
                tracing::info!("pack reload refused: {e}");
            }
            let status = BenchStatus {
                dir: dir_for_events.display().to_string(),
                viewer: viewer.clone(),
                error,
                panels: packs
                    .audiences()
                    .into_iter()
                    .map(|(id, audience)| BenchPanel { id, audience })
                    .collect(),
                reloads,
            };
            let _ = channel.send(vec![PumpEvent::Bench(status)]);
        },
    )
    .map_err(|e| format!("cannot watch the pack folder: {e}"))?;
    debouncer
        .watcher()
        .watch(&dir, RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    bench._watcher = Some(debouncer);
    Ok(())
}

/// Every file under `dir` with its size and modification time, in path order.
fn fingerprint(dir: &Path) -> Vec<(PathBuf, u64, Option<std::time::SystemTime>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), meta.len(), meta.modified().ok()));
            }
        }
    }
    out.sort();
    out
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
