//! Tauri commands: thin shells over the transport and the pure protocol crate.

use ipc::{cmd, Reply};
use protocol::ClientFrame;
use tauri::ipc::Channel;
use tauri::State;

use crate::clean;
use crate::pack_bench::PackBench;
use crate::seat::{Kind, Seat};

#[tauri::command]
pub fn studio_info(args: cmd::StudioInfo) -> Reply<cmd::StudioInfo> {
    let cmd::StudioInfo {} = args;
    ipc::StudioInfoView {
        studio_version: env!("CARGO_PKG_VERSION").into(),
        protocol_version: protocol::PROTOCOL_VERSION.into(),
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
pub fn open_log_folder(
    app: tauri::AppHandle,
    args: cmd::OpenLogFolder,
) -> Reply<cmd::OpenLogFolder> {
    let cmd::OpenLogFolder {} = args;
    use tauri_plugin_opener::OpenerExt;
    let dir = crate::logging::log_dir();
    let _ = crate::logging::folder::private_dir(&dir);
    let shown = dir.display().to_string();
    if std::env::var_os("STUDIO_NO_OPEN").is_none() {
        if let Err(e) = app.opener().open_path(shown.clone(), None::<&str>) {
            tracing::warn!("the log folder did not open: {e}");
        }
    }
    shown
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
pub fn startup_ticket(
    startup: State<'_, StartupTicket>,
    args: cmd::StartupTicket,
) -> Reply<cmd::StartupTicket> {
    let cmd::StartupTicket {} = args;
    startup.0.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Dials a pasted ticket and joins with an invite key; frames then flow through `on_event`.
#[tauri::command]
pub async fn join_table(
    seat: State<'_, Seat>,
    args: cmd::JoinTable,
    on_event: Channel<ipc::Message<cmd::JoinTable>>,
) -> Result<Reply<cmd::JoinTable>, String> {
    let cmd::JoinTable {
        ticket,
        key,
        name,
        remember,
    } = args;
    // Only when the person chose to: the key is saved once the welcome names the room.
    seat.join_remote(&ticket, key, name, remember.unwrap_or(true), on_event)
        .await
        .map_err(|e| clean::text(&e))?;
    Ok(ipc::Joined {
        demo: false,
        pack_bench: None,
    })
}

/// Sends one client frame (validated by the transport before it reaches the wire).
#[tauri::command]
pub async fn send_frame(
    seat: State<'_, Seat>,
    args: cmd::SendFrame,
) -> Result<Reply<cmd::SendFrame>, String> {
    let cmd::SendFrame { frame } = args;
    // The transport sends the join and the pings itself; a stray one would confuse both.
    if matches!(
        frame,
        ClientFrame::Join(_) | ClientFrame::Ping(_) | ClientFrame::Unknown { .. }
    ) {
        return Err("that frame cannot be sent from the interface".into());
    }
    // The frame's type only: its fields may carry a key.
    tracing::info!(frame = frame.tag(), "sending");
    seat.send(frame).await
}

/// Leaves the table (and stops the demo or bench table if it was running).
#[tauri::command]
pub async fn leave_table(
    seat: State<'_, Seat>,
    args: cmd::LeaveTable,
) -> Result<Reply<cmd::LeaveTable>, String> {
    let cmd::LeaveTable {} = args;
    seat.leave().await;
    Ok(())
}

/// Joins the table in play again after the window reloaded (the stall watchdog's recovery): a
/// demo or bench table keeps running and keeps its room.
#[tauri::command]
pub async fn rejoin_table(
    seat: State<'_, Seat>,
    bench: State<'_, PackBench>,
    args: cmd::RejoinTable,
    on_event: Channel<ipc::Message<cmd::RejoinTable>>,
) -> Result<Reply<cmd::RejoinTable>, String> {
    let cmd::RejoinTable {} = args;
    let joined = match (seat.kind().await, bench.viewer().await) {
        // The bench's watcher reports to the new page too.
        (Some(Kind::PackBench), Some(viewer)) => bench.view(&seat, &viewer, on_event).await,
        _ => seat.rejoin(on_event).await.map(|kind| ipc::Joined {
            demo: kind == Kind::Demo,
            pack_bench: None,
        }),
    }
    .map_err(|e| clean::text(&e))?;
    tracing::info!("rejoined the table after the window was reloaded");
    Ok(joined)
}
