//! The pack author's bench: a pack folder served by the in-process local table (loopback
//! only), enabled in its room, joined as keeper or player, and reloaded on every save.
//!
//! The local table's pack watcher (`local_table::watch`) reloads the pack on every save and the
//! table republishes the manifest (the panels repaint from the fresh `ui_manifest`). A pack
//! that no longer loads is reported as the `pack` crate's problem list (file, line, column and
//! a fix for each, the same rules the table loads by) while the last good pack stays served.
//!
//! `commands` holds the page's entry points; `vars` the variables editor.

mod commands;
pub mod data;
mod engine;
mod forge;
mod forge_io;
mod install;
mod on_engine;
mod report;
mod vars;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ipc::{Problem, PumpBatch};
use local_table::keystore::{KeyEntry, KeySource};

use local_table::{LocalTable, RunningTable};
use tauri::ipc::Channel;

pub use commands::*;
pub use engine::*;
pub use forge::*;
pub use forge_io::*;
pub use install::*;
pub use vars::*;

use tauri::async_runtime::Mutex as AsyncMutex;

use crate::seat::{Dial, Follower, Joining, Kind, Later, Listener, Seat};

/// The bench while it is open: its table, keys and watcher.
#[derive(Clone, Default)]
pub struct PackBench(Arc<AsyncMutex<Option<Open>>>);

struct Open {
    table: RunningTable,
    bench: Bench,
    /// The same pack on the real engine, once the author ran it there.
    engine: Option<on_engine::EngineRun>,
    /// The table's private data folder: removed when this is dropped, after the table stopped.
    _data: data::BenchData,
}

/// A fresh private data folder for one of the bench's tables.
fn fresh_data() -> Result<data::BenchData, String> {
    let root = data::root();
    let swept = data::sweep(&root, &std::env::temp_dir());
    if swept > 0 {
        tracing::info!(swept, "removed bench data folders earlier runs left behind");
    }
    data::BenchData::create_in(&root)
        .map_err(|e| format!("the bench's data folder could not be made: {e}"))
}

impl PackBench {
    /// Opens the bench on `dir`, viewing as `viewer`: the table in play is left first.
    pub async fn open(
        &self,
        seat: &Seat,
        dir: PathBuf,
        viewer: &str,
        on_event: Channel<PumpBatch>,
    ) -> Result<ipc::Joined, String> {
        seat.leave().await;
        let data = fresh_data()?;
        let (table, bench) = start_table(&dir, data.path().to_path_buf()).await?;
        *self.0.lock().await = Some(Open {
            table,
            bench,
            engine: None,
            _data: data,
        });
        self.view(seat, viewer, on_event).await
    }

    /// Joins the open bench's table (the offline one or the engine, whichever it shows) as
    /// `viewer`, on a fresh page channel; the tables, their rooms and variables stay as they are.
    pub async fn view(
        &self,
        seat: &Seat,
        viewer: &str,
        on_event: Channel<PumpBatch>,
    ) -> Result<ipc::Joined, String> {
        let (dial, status) = {
            let mut open = self.0.lock().await;
            let Some(Open {
                table,
                bench,
                engine,
                ..
            }) = open.as_mut()
            else {
                return Err("no pack is open on the bench".into());
            };
            bench.report.point(viewer, on_event.clone());
            if bench._watcher.is_none() {
                watch(table, bench)?;
            }
            let player = viewer == "player";
            let showing = bench.report.showing_engine();
            let (ticket, key) = match engine.as_ref().filter(|_| showing) {
                Some(e) if player => (e.ticket.clone(), e.player_key.clone()),
                Some(e) => (e.ticket.clone(), e.keeper_key.clone()),
                None if player => (table.endpoint_ticket(), bench.player_key.clone()),
                None => (table.endpoint_ticket(), bench.keeper_key.clone()),
            };
            let dial = Dial {
                ticket,
                key,
                name: None,
                local_only: true,
                kind: Kind::PackBench,
            };
            (dial, bench.report.status())
        };
        seat.join(dial, false, on_event).await?;
        Ok(ipc::Joined {
            demo: false,
            pack_bench: Some(status),
        })
    }

    /// Shows the pack on the engine (started and mounted on first use) or on the offline
    /// table; `stop_engine` ends the engine. The seat rejoins as the same viewer.
    pub async fn table(
        &self,
        seat: &Seat,
        engine: bool,
        stop_engine: bool,
        on_event: Channel<PumpBatch>,
    ) -> Result<ipc::Joined, String> {
        let (dir, report, viewer, running) = {
            let open = self.0.lock().await;
            let open = open.as_ref().ok_or("no pack is open on the bench")?;
            (
                open.bench.dir.clone(),
                open.bench.report.clone(),
                open.bench.report.viewer(),
                open.engine.is_some(),
            )
        };
        if stop_engine {
            report.engine(None, false);
            let run = self.0.lock().await.as_mut().and_then(|o| o.engine.take());
            // The seat moves to the offline table first (its session on the engine closes).
            let joined = self.view(seat, &viewer, on_event).await;
            if let Some(run) = run {
                run.stop().await;
            }
            return joined;
        } else if engine && !running {
            let changed: on_engine::Changed = {
                let report = report.clone();
                Arc::new(move || report.send())
            };
            let run = on_engine::EngineRun::start(&dir, fresh_data()?, changed).await?;
            let seen = run.seen.clone();
            match self.0.lock().await.as_mut() {
                Some(open) => open.engine = Some(run),
                None => {
                    run.stop().await;
                    return Err("the bench was closed while the engine started".into());
                }
            }
            report.engine(Some(seen), true);
        } else {
            report.show_engine(engine && running);
        }
        self.view(seat, &viewer, on_event).await
    }

    /// Who the author looks as now, while the bench is open.
    pub async fn viewer(&self) -> Option<String> {
        self.0
            .lock()
            .await
            .as_ref()
            .map(|o| o.bench.report.viewer())
    }

    /// Runs `f` on the open bench's table.
    /// The open pack's folder.
    pub async fn dir(&self) -> Result<std::path::PathBuf, String> {
        match self.0.lock().await.as_ref() {
            Some(open) => Ok(open.bench.dir.clone()),
            None => Err("no pack is open on the bench".into()),
        }
    }

    pub async fn with_table<R>(&self, f: impl FnOnce(&RunningTable) -> R) -> Result<R, String> {
        match self.0.lock().await.as_ref() {
            Some(open) => Ok(f(&open.table)),
            None => Err("no pack is open on the bench".into()),
        }
    }

    /// Tells the window again (a variable changed on the offline table: the side-by-side view
    /// resolves against it).
    pub async fn report(&self) {
        if let Some(open) = self.0.lock().await.as_ref() {
            open.bench.report.send();
        }
    }

    /// Sets a variable on the engine too, when the bench runs one.
    pub async fn set_engine_var(&self, id: &str, value: &str) -> Result<(), String> {
        match self.0.lock().await.as_ref().and_then(|o| o.engine.as_ref()) {
            Some(run) => run.set_var(id, value).await,
            None => Ok(()),
        }
    }
}

impl Follower for PackBench {
    fn joined(&self, _: &Joining<'_>) -> Option<Box<dyn Listener>> {
        None
    }

    /// Closing the bench stops its watcher, its table and its engine.
    fn left(&self) -> Later<'_> {
        Box::pin(async move {
            if let Some(open) = self.0.lock().await.take() {
                drop(open.bench);
                if let Some(run) = open.engine {
                    run.stop().await;
                }
                open.table.shutdown().await;
                // The table no longer writes: its data folder goes.
                drop(open._data);
            }
        })
    }
}

/// The bench's room on its table.
pub const ROOM: &str = "bench";

/// The bench's table and watcher; dropped (watcher stopped) when the bench closes.
pub struct Bench {
    pub dir: PathBuf,
    pub keeper_key: String,
    pub player_key: String,
    /// What the window is told after every change, on the page's current channel.
    report: report::Report,
    _watcher: Option<local_table::watch::PackWatcher>,
}

/// One of our lint's problems as the window shows it.
pub(crate) fn problem(p: pack::Problem) -> Problem {
    Problem {
        file: p.file,
        line: p.line,
        column: p.column,
        message: p.message,
        hint: p.hint,
    }
}

/// A reload error as problems: the lint's own list, or one line for anything else.
fn problems_of(e: local_table::Error) -> Vec<Problem> {
    match e {
        local_table::Error::Lint(_, list) => list.into_iter().map(problem).collect(),
        other => vec![Problem {
            file: String::new(),
            line: 0,
            column: 0,
            message: other.to_string(),
            hint: String::new(),
        }],
    }
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
        room: ROOM.into(),
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
    // The room holds the pack alone, as the engine's dev room does (no demo variables).
    config.without_story = true;
    config.pacing = local_table::Pacing::fast();
    // A pack that does not load yet still opens: the bench serves nothing and lists why.
    let first = local_table::packs::load(dir).err().map(problems_of);
    if first.is_some() {
        config.packs.clear();
    }
    let table = LocalTable::start(config)
        .await
        .map_err(|e| format!("the pack could not be opened: {e}"))?;
    let report = report::Report::new(dir, table.packs_handle(), first.unwrap_or_default());
    Ok((
        table,
        Bench {
            dir: dir.to_path_buf(),
            keeper_key,
            player_key,
            report,
            _watcher: None,
        },
    ))
}

/// Watches the pack folder; every change on disk reloads the pack and reports to the window.
pub fn watch(table: &RunningTable, bench: &mut Bench) -> Result<(), String> {
    let report = bench.report.clone();
    let watcher =
        local_table::watch::watch_pack(table.packs_handle(), &bench.dir, move |outcome| {
            report.reloaded(outcome.err().map(problems_of).unwrap_or_default());
        })?;
    bench._watcher = Some(watcher);
    Ok(())
}
