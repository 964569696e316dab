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
mod vars;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ipc::{PackBenchPanel, PackBenchStatus, Problem, PumpBatch, PumpEvent};
use local_table::keystore::{KeyEntry, KeySource};

use local_table::{LocalTable, RunningTable};
use tauri::ipc::Channel;

pub use commands::*;
pub use engine::*;
pub use vars::*;

use tauri::async_runtime::Mutex as AsyncMutex;

use crate::seat::{Dial, Follower, Joining, Kind, Later, Listener, Seat};

/// The bench while it is open: its table, keys and watcher.
#[derive(Clone, Default)]
pub struct PackBench(Arc<AsyncMutex<Option<Open>>>);

struct Open {
    table: RunningTable,
    bench: Bench,
    /// Who the author is looking as now (`keeper` or `player`).
    viewer: String,
    /// The table's private data folder: removed when this is dropped, after the table stopped.
    _data: data::BenchData,
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
        let root = data::root();
        let swept = data::sweep(&root, &std::env::temp_dir());
        if swept > 0 {
            tracing::info!(swept, "removed bench data folders earlier runs left behind");
        }
        let data = data::BenchData::create_in(&root)
            .map_err(|e| format!("the bench's data folder could not be made: {e}"))?;
        let (table, bench) = start_table(&dir, data.path().to_path_buf()).await?;
        *self.0.lock().await = Some(Open {
            table,
            bench,
            viewer: viewer.into(),
            _data: data,
        });
        self.view(seat, viewer, on_event).await
    }

    /// Joins the open bench's table as `viewer`, on a fresh page channel; the table, its room
    /// and its variables stay as they are.
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
                viewer: now,
                ..
            }) = open.as_mut()
            else {
                return Err("no pack is open on the bench".into());
            };
            watch(table, bench, viewer.to_string(), on_event.clone())?;
            *now = viewer.to_string();
            let key = if viewer == "player" {
                bench.player_key.clone()
            } else {
                bench.keeper_key.clone()
            };
            let dial = Dial {
                ticket: table.endpoint_ticket(),
                key,
                name: None,
                local_only: true,
                kind: Kind::PackBench,
            };
            (dial, status(table, bench, viewer))
        };
        seat.join(dial, false, on_event).await?;
        Ok(ipc::Joined {
            demo: false,
            pack_bench: Some(status),
        })
    }

    /// Who the author looks as now, while the bench is open.
    pub async fn viewer(&self) -> Option<String> {
        self.0.lock().await.as_ref().map(|o| o.viewer.clone())
    }

    /// Runs `f` on the open bench's table.
    pub async fn with_table<R>(&self, f: impl FnOnce(&RunningTable) -> R) -> Result<R, String> {
        match self.0.lock().await.as_ref() {
            Some(open) => Ok(f(&open.table)),
            None => Err("no pack is open on the bench".into()),
        }
    }
}

impl Follower for PackBench {
    fn joined(&self, _: &Joining<'_>) -> Option<Box<dyn Listener>> {
        None
    }

    /// Closing the bench stops its watcher and its table.
    fn left(&self) -> Later<'_> {
        Box::pin(async move {
            if let Some(open) = self.0.lock().await.take() {
                drop(open.bench);
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
    /// The last reload's problems and the reload count, kept across viewer switches.
    last: Arc<Mutex<(Vec<Problem>, u64)>>,
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
    config.pacing = local_table::Pacing::fast();
    // A pack that does not load yet still opens: the bench serves nothing and lists why.
    let first = local_table::packs::load(dir).err().map(problems_of);
    if first.is_some() {
        config.packs.clear();
    }
    let table = LocalTable::start(config)
        .await
        .map_err(|e| format!("the pack could not be opened: {e}"))?;
    Ok((
        table,
        Bench {
            dir: dir.to_path_buf(),
            keeper_key,
            player_key,
            last: Arc::new(Mutex::new((first.unwrap_or_default(), 0))),
            _watcher: None,
        },
    ))
}

pub fn status(table: &RunningTable, bench: &Bench, viewer: &str) -> PackBenchStatus {
    let (problems, reloads) = bench.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
    PackBenchStatus {
        dir: bench.dir.display().to_string(),
        viewer: viewer.into(),
        problems,
        panels: table
            .panel_audiences()
            .into_iter()
            .map(|(id, audience)| PackBenchPanel {
                id,
                audience: audience.into(),
            })
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
    let last = bench.last.clone();
    // Dropping the previous viewer's watcher first: one watcher per bench.
    bench._watcher = None;
    let watcher = local_table::watch::watch_pack(packs, &bench.dir, move |outcome| {
        let problems = outcome.err().map(problems_of).unwrap_or_default();
        let reloads = {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            last.1 += 1;
            last.0 = problems.clone();
            last.1
        };
        let status = PackBenchStatus {
            dir: dir.clone(),
            viewer: viewer.clone(),
            problems,
            panels: audiences
                .audiences()
                .into_iter()
                .map(|(id, audience)| PackBenchPanel {
                    id,
                    audience: audience.into(),
                })
                .collect(),
            reloads,
        };
        let _ = channel.send(PumpBatch::of(&PumpEvent::PackBench(status)));
    })?;
    bench._watcher = Some(watcher);
    Ok(())
}
