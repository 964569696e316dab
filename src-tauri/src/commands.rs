//! Tauri commands: thin shells over the transport and the pure protocol crate.

use protocol::ClientFrame;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::State;

use crate::clean;
use crate::saved_tables::{KeyStorage, SavedTable};
use crate::table_session::{Joined, PumpBatch, Tables};

/// What the connect screen shows about this build.
#[derive(Debug, Clone, Serialize)]
pub struct StudioInfo {
    pub studio_version: &'static str,
    pub protocol_version: &'static str,
    /// When this process started (ms since the epoch), for the bench's cold-start figure.
    pub started_at_ms: Option<f64>,
}

#[tauri::command]
pub fn studio_info() -> StudioInfo {
    StudioInfo {
        studio_version: env!("CARGO_PKG_VERSION"),
        protocol_version: protocol::PROTOCOL_VERSION,
        started_at_ms: process_started_at_ms(),
    }
}

/// The kernel's start time of this process (so loading and linking count too): `starttime` of
/// `/proc/self/stat` (clock ticks after boot) against `/proc/uptime`, both to 10 ms.
#[cfg(target_os = "linux")]
fn process_started_at_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    let after = &stat[stat.rfind(')')? + 2..];
    let ticks: f64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs_f64();
    // SAFETY: sysconf only reads a constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (hz > 0.0).then(|| (now - (uptime - ticks / hz)) * 1000.0)
}

#[cfg(not(target_os = "linux"))]
fn process_started_at_ms() -> Option<f64> {
    None
}

/// Opens the log folder in the desktop's file manager, and says where it is (for a bug report,
/// or when no file manager answers).
#[tauri::command]
pub fn open_log_folder(app: tauri::AppHandle) -> String {
    use tauri_plugin_opener::OpenerExt;
    let dir = crate::logging::log_dir();
    let _ = std::fs::create_dir_all(&dir);
    let shown = dir.display().to_string();
    if std::env::var_os("STUDIO_NO_OPEN").is_none() {
        if let Err(e) = app.opener().open_path(shown.clone(), None::<&str>) {
            tracing::warn!("the log folder did not open: {e}");
        }
    }
    shown
}

/// A desktop notification (the page decides when: the window is in the background and the
/// person has notifications on). `kind` is logged, never the words.
#[tauri::command]
pub async fn notify(
    app: tauri::AppHandle,
    kind: String,
    title: String,
    body: String,
) -> Result<(), String> {
    use tauri_plugin_notification::NotificationExt;
    let kind: String = kind
        .chars()
        .filter(char::is_ascii_alphabetic)
        .take(20)
        .collect();
    tracing::info!(kind, "desktop notification");
    let (title, body) = (clean::text(&title), clean::text(&body));
    // The desktop's notification service may be slow or absent: never on the caller's thread.
    tauri::async_runtime::spawn_blocking(move || {
        if let Err(e) = app.notification().builder().title(title).body(body).show() {
            tracing::warn!("the desktop did not show a notification: {e}");
        }
    });
    Ok(())
}

/// The ticket given on the command line (or by a `loreweaver:` link), once.
pub struct StartupTicket(std::sync::Mutex<Option<String>>);

impl StartupTicket {
    pub fn new(ticket: Option<String>) -> Self {
        StartupTicket(std::sync::Mutex::new(ticket))
    }
}

/// The connect screen asks once: a reload does not fill the field again.
#[tauri::command]
pub fn startup_ticket(startup: State<'_, StartupTicket>) -> Option<String> {
    startup.0.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Dials a pasted ticket and joins with an invite key; frames then flow through `on_event`.
#[tauri::command]
pub async fn join_table(
    tables: State<'_, Tables>,
    ticket: String,
    key: String,
    name: Option<String>,
    remember: Option<bool>,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    tables
        .join(&ticket, key, name, remember.unwrap_or(true), on_event)
        .await
        .map_err(|e| clean::text(&e))
}

/// Where a remembered key would go: the OS keyring, or (when none answers) this private file.
#[tauri::command]
pub async fn key_storage(tables: State<'_, Tables>) -> Result<KeyStorage, String> {
    let saved = tables.saved.clone();
    tauri::async_runtime::spawn_blocking(move || saved.storage())
        .await
        .map_err(|e| e.to_string())
}

/// Starts the demo table in-process (Local only) and joins it as keeper.
#[tauri::command]
pub async fn play_demo(
    tables: State<'_, Tables>,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    tables
        .play_demo(on_event)
        .await
        .map_err(|e| clean::text(&e))
}

/// Sends one client frame (validated by the transport before it reaches the wire).
#[tauri::command]
pub async fn send_frame(tables: State<'_, Tables>, frame: ClientFrame) -> Result<(), String> {
    // The transport sends the join and the pings itself; a stray one would confuse both.
    if matches!(
        frame,
        ClientFrame::Join(_) | ClientFrame::Ping(_) | ClientFrame::Unknown { .. }
    ) {
        return Err("that frame cannot be sent from the interface".into());
    }
    // The frame's type only: its fields may carry a key.
    tracing::info!(frame = frame.tag(), "sending");
    tables.send(frame).await
}

/// Leaves the table (and stops the demo table if it was running).
#[tauri::command]
pub async fn leave_table(tables: State<'_, Tables>) -> Result<(), String> {
    tables.leave().await;
    Ok(())
}

/// A saved table as the connect screen shows it: with the room's panel-code answer.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SavedTableView {
    #[serde(flatten)]
    pub table: SavedTable,
    pub panel_code: Option<crate::panels::PanelCode>,
}

/// Tables joined before, most recent first (no keys: those stay in the keyring).
#[tauri::command]
pub fn list_saved_tables(tables: State<'_, Tables>) -> Vec<SavedTableView> {
    // The list is a file anyone could have edited: its words pass the frames' sanitiser.
    tables
        .saved
        .list()
        .into_iter()
        .map(|t| SavedTableView {
            panel_code: tables.consent.get(&t.id),
            table: clean::saved(t),
        })
        .collect()
}

/// Joins the table in play again after the window reloaded (the stall watchdog's recovery).
#[tauri::command]
pub async fn rejoin_table(
    tables: State<'_, Tables>,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    let joined = tables.rejoin(on_event).await.map_err(|e| clean::text(&e))?;
    tracing::info!("rejoined the table after the window was reloaded");
    Ok(joined)
}

/// Rejoins a saved table with its stored key.
#[tauri::command]
pub async fn join_saved_table(
    tables: State<'_, Tables>,
    id: String,
    on_event: Channel<PumpBatch>,
) -> Result<Joined, String> {
    tables
        .join_saved(&id, on_event)
        .await
        .map_err(|e| clean::text(&e))
}

/// Forgets a saved table and its key.
#[tauri::command]
pub fn forget_saved_table(tables: State<'_, Tables>, id: String) -> Result<(), String> {
    tables.consent.set(&id, None)?;
    tables.saved.forget(&id)
}
