//! The window's hosting commands: which engine, host a table (and join it as keeper), watch,
//! stop and restart its engine, and the list of hosted tables (host again, open, delete).

use std::path::PathBuf;
use std::time::Instant;

use hosting::engine::{self, Found};
use hosting::state::Phase;
use hosting::tables::slug;
use ipc::{cmd, HostingEvent, Message, Reply};
use tauri::ipc::Channel;
use tauri::State;

use super::tables::{discover, engine_view, hosted_dir, now_ms, probe, table_port, Table};
use hosting::process;

use super::{Hosting, STOP_GRACE};
use crate::seat::{Dial, Kind, Seat};

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
    let last_name = hosting::tables::list(&hosted_dir())
        .into_iter()
        .next()
        .map(|t| t.name);
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
    hosting::tables::remember(&table.dir, &name, local_only, now_ms())
        .map_err(|e| format!("{}: {e}", table.dir.display()))?;
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

/// The hosted tables this profile keeps, the most recently used first.
#[tauri::command]
pub fn hosted_tables(args: cmd::HostedTables) -> Reply<cmd::HostedTables> {
    let cmd::HostedTables {} = args;
    hosting::tables::list(&hosted_dir())
        .into_iter()
        .map(|t| ipc::HostedTable {
            name: t.name,
            folder: t.dir.display().to_string(),
            last_used_ms: t.last_used_ms,
            local_only: t.local_only,
        })
        .collect()
}

/// Opens a hosted table's folder in the file manager, and says where it is.
#[tauri::command]
pub fn open_hosted_folder(
    app: tauri::AppHandle,
    args: cmd::OpenHostedFolder,
) -> Result<Reply<cmd::OpenHostedFolder>, String> {
    let cmd::OpenHostedFolder { name } = args;
    use tauri_plugin_opener::OpenerExt;
    let dir = hosting::tables::list(&hosted_dir())
        .into_iter()
        .find(|t| t.name == name)
        .ok_or_else(|| format!("there is no hosted table called {name}"))?
        .dir;
    let shown = dir.display().to_string();
    if std::env::var_os("STUDIO_NO_OPEN").is_none() {
        if let Err(e) = app.opener().open_path(shown.clone(), None::<&str>) {
            tracing::warn!("a hosted table's folder did not open: {e}");
        }
    }
    Ok(shown)
}

/// Deletes a hosted table's folder (keys, rooms, saved story), armed by typing its name.
#[tauri::command]
pub async fn delete_hosted_table(
    hosting: State<'_, Hosting>,
    args: cmd::DeleteHostedTable,
) -> Result<Reply<cmd::DeleteHostedTable>, String> {
    let cmd::DeleteHostedTable { name, typed } = args;
    use hosting::tables::Refused;
    let dir = hosting::tables::to_delete(&hosted_dir(), &name, &typed).map_err(|r| match r {
        Refused::NotArmed => format!("type the table's name, {name}, to delete it"),
        Refused::Unknown => format!("there is no hosted table called {name}"),
    })?;
    {
        let inner = hosting.lock();
        if inner.phase.running() && inner.table.as_ref().is_some_and(|t| t.dir == dir) {
            return Err(format!("{name} is being hosted: stop hosting it first"));
        }
    }
    tauri::async_runtime::spawn_blocking({
        let dir = dir.clone();
        move || std::fs::remove_dir_all(&dir)
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| format!("{}: {e}", dir.display()))?;
    // Which table, never what its folder held.
    tracing::info!("a hosted table was deleted");
    Ok(())
}

/// Asks for an engine: its source folder, or its executable.
#[tauri::command]
pub async fn pick_engine(app: tauri::AppHandle, args: cmd::PickEngine) -> Reply<cmd::PickEngine> {
    let cmd::PickEngine { folder } = args;
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let dialog = app.dialog().file();
    let send = move |picked: Option<tauri_plugin_dialog::FilePath>| {
        let _ = tx.send(picked.map(|p| p.to_string()));
    };
    if folder {
        dialog.pick_folder(send);
    } else {
        dialog.pick_file(send);
    }
    rx.await.ok().flatten()
}
