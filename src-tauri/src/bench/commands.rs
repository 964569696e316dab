//! The bench's commands: open a folder (command line or native picker), switch the viewer.

use std::path::PathBuf;

use tauri::ipc::Channel;

use crate::table_session::{Joined, PumpBatch, Tables};

/// `--pack <dir>` from the command line, handed to the first page that asks.
#[derive(Default)]
pub struct StartupPack(pub std::sync::Mutex<Option<PathBuf>>);

impl StartupPack {
    pub fn new(dir: Option<PathBuf>) -> Self {
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
    tables: tauri::State<'_, Tables>,
    dir: String,
    viewer: Option<String>,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    let viewer = viewer.unwrap_or_else(|| "keeper".into());
    tables
        .open_pack(PathBuf::from(dir), &viewer, on_event)
        .await
}

/// Switches the bench's viewer (`keeper` / `player`) on a fresh page channel.
#[tauri::command]
pub async fn bench_view(
    tables: tauri::State<'_, Tables>,
    viewer: String,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    tables.bench_view(&viewer, on_event).await
}
