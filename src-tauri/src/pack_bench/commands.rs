//! The bench's commands: open a folder (command line or native picker), switch the viewer.

use std::path::PathBuf;

use ipc::{cmd, Message, Reply};
use tauri::ipc::Channel;

use super::PackBench;
use crate::seat::Seat;

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
pub fn startup_pack(
    startup: tauri::State<'_, StartupPack>,
    args: cmd::StartupPack,
) -> Reply<cmd::StartupPack> {
    let cmd::StartupPack {} = args;
    startup
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .map(|p| p.display().to_string())
}

/// The native folder picker (Tauri's dialog plugin); `None` when cancelled. `STUDIO_PICK_DIR`
/// answers for it (the end-to-end tests: a GTK dialog cannot be driven over WebDriver).
#[tauri::command]
pub async fn pick_pack_folder(
    app: tauri::AppHandle,
    args: cmd::PickPackFolder,
) -> Reply<cmd::PickPackFolder> {
    let cmd::PickPackFolder {} = args;
    if let Some(dir) = std::env::var_os("STUDIO_PICK_DIR") {
        return Some(PathBuf::from(dir).display().to_string());
    }
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
    bench: tauri::State<'_, PackBench>,
    seat: tauri::State<'_, Seat>,
    args: cmd::OpenPack,
    on_event: Channel<Message<cmd::OpenPack>>,
) -> Result<Reply<cmd::OpenPack>, String> {
    let cmd::OpenPack { dir, viewer } = args;
    let viewer = viewer.unwrap_or_else(|| "keeper".into());
    bench
        .open(&seat, PathBuf::from(dir), &viewer, on_event)
        .await
}

/// Switches the bench's viewer (`keeper` / `player`) on a fresh page channel.
#[tauri::command]
pub async fn pack_bench_view(
    bench: tauri::State<'_, PackBench>,
    seat: tauri::State<'_, Seat>,
    args: cmd::PackBenchView,
    on_event: Channel<Message<cmd::PackBenchView>>,
) -> Result<Reply<cmd::PackBenchView>, String> {
    let cmd::PackBenchView { viewer } = args;
    bench.view(&seat, &viewer, on_event).await
}

/// Shows the pack on the engine or on the offline table (and can stop the engine).
#[tauri::command]
pub async fn pack_bench_table(
    bench: tauri::State<'_, PackBench>,
    seat: tauri::State<'_, Seat>,
    args: cmd::PackBenchTable,
    on_event: Channel<Message<cmd::PackBenchTable>>,
) -> Result<Reply<cmd::PackBenchTable>, String> {
    let cmd::PackBenchTable {
        engine,
        stop_engine,
    } = args;
    bench
        .table(&seat, engine, stop_engine, on_event)
        .await
        .map_err(|e| crate::clean::text(&e))
}
