//! What the bench tells the window: the offline table's last reload (problems, count, every
//! panel and who receives it) and, once the pack runs on the engine, what the engine shows and
//! where the two disagree. Sent on the page's current channel after every change on either.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ipc::{
    PackBenchBeside, PackBenchDifference, PackBenchEngine, PackBenchPanel, PackBenchStatus,
    Problem, PumpBatch, PumpEvent,
};
use local_table::table::PacksHandle;
use pack::differences;
use tauri::ipc::Channel;

use super::on_engine::{Seen, POLL_MS};

#[derive(Clone)]
pub struct Report(Arc<Inner>);

struct Inner {
    dir: PathBuf,
    packs: PacksHandle,
    now: Mutex<Now>,
    /// The next report's place in order (the window keeps the newest it received).
    seq: AtomicU64,
}

struct Now {
    /// The offline table's last reload: its problems and the reload count.
    problems: Vec<Problem>,
    reloads: u64,
    viewer: String,
    channel: Option<Channel<PumpBatch>>,
    /// What the engine shows, while the bench runs one.
    engine: Option<Arc<Mutex<Seen>>>,
    /// The window shows the engine's table.
    showing: bool,
}

impl Report {
    pub fn new(dir: &Path, packs: PacksHandle, problems: Vec<Problem>) -> Self {
        Report(Arc::new(Inner {
            dir: dir.to_path_buf(),
            packs,
            now: Mutex::new(Now {
                problems,
                reloads: 0,
                viewer: "keeper".into(),
                channel: None,
                engine: None,
                showing: false,
            }),
            seq: AtomicU64::new(1),
        }))
    }

    fn now(&self) -> MutexGuard<'_, Now> {
        self.0.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The page (and viewer) reports go to from now on.
    pub fn point(&self, viewer: &str, channel: Channel<PumpBatch>) {
        let mut now = self.now();
        now.viewer = viewer.into();
        now.channel = Some(channel);
    }

    pub fn viewer(&self) -> String {
        self.now().viewer.clone()
    }

    pub fn showing_engine(&self) -> bool {
        let now = self.now();
        now.showing && now.engine.is_some()
    }

    /// The engine the bench runs now (`None`: stopped), and whether the window shows it.
    pub fn engine(&self, seen: Option<Arc<Mutex<Seen>>>, showing: bool) {
        let mut now = self.now();
        now.engine = seen;
        now.showing = showing;
    }

    pub fn show_engine(&self, showing: bool) {
        self.now().showing = showing;
    }

    /// The offline table reloaded the pack (`problems` empty: it loaded).
    pub fn reloaded(&self, problems: Vec<Problem>) {
        {
            let mut now = self.now();
            now.reloads += 1;
            now.problems = problems;
        }
        self.send();
    }

    /// Tells the window.
    pub fn send(&self) {
        let status = self.status();
        let channel = self.now().channel.clone();
        if let Some(ch) = channel {
            let _ = ch.send(PumpBatch::of(&PumpEvent::PackBench(status)));
        }
    }

    pub fn status(&self) -> PackBenchStatus {
        // Numbered before anything is read: a later number never holds older news.
        let seq = self.0.seq.fetch_add(1, Ordering::SeqCst);
        let (problems, reloads, viewer, engine, showing) = {
            let now = self.now();
            (
                now.problems.clone(),
                now.reloads,
                now.viewer.clone(),
                now.engine.clone(),
                now.showing,
            )
        };
        let beside = self.beside(&viewer, engine.as_deref().filter(|_| showing));
        PackBenchStatus {
            dir: self.0.dir.display().to_string(),
            viewer,
            warnings: if problems.is_empty() {
                self.0
                    .packs
                    .warnings()
                    .into_iter()
                    .map(super::problem)
                    .collect()
            } else {
                vec![]
            },
            problems,
            panels: self
                .0
                .packs
                .audiences()
                .into_iter()
                .map(|(id, audience)| PackBenchPanel {
                    id,
                    audience: audience.into(),
                })
                .collect(),
            beside: Some(Box::new(beside)),
            reloads,
            engine: engine.map(|seen| Box::new(self.engine_status(&seen, showing))),
            seq,
        }
    }

    /// The audience the window does not show, on the table it shows: the engine's hidden
    /// connection's view, or what the offline table sends that audience.
    fn beside(&self, viewer: &str, engine: Option<&Mutex<Seen>>) -> PackBenchBeside {
        let keeper = viewer == "player";
        let other = if keeper { "keeper" } else { "player" };
        if let Some(seen) = engine {
            let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            let view = if keeper { &seen.keeper } else { &seen.player };
            return PackBenchBeside {
                viewer: other.into(),
                panels: view.panels.clone(),
                variables: view.variables.clone(),
            };
        }
        let panels = self
            .0
            .packs
            .pack(&self.0.dir)
            .map(|p| {
                p.panels
                    .iter()
                    .filter(|panel| panel.audience.reaches(keeper))
                    .map(|panel| panel.wire.clone())
                    .collect()
            })
            .unwrap_or_default();
        let variables = self
            .0
            .packs
            .room_vars(super::ROOM)
            .into_iter()
            .filter(|v| keeper || !v.hidden)
            .map(|v| {
                let mut wire = serde_json::json!({"id": v.id, "label": v.label, "kind": v.kind, "value": v.value});
                if let (Some(min), Some(max)) = (v.min, v.max) {
                    wire["min"] = min.into();
                    wire["max"] = max.into();
                }
                if v.hidden {
                    wire["hidden"] = true.into();
                }
                wire
            })
            .collect();
        PackBenchBeside {
            viewer: other.into(),
            panels,
            variables,
        }
    }

    fn engine_status(&self, seen: &Mutex<Seen>, showing: bool) -> PackBenchEngine {
        let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        let ids = |s: &differences::Seen| {
            s.panels
                .iter()
                .filter_map(|p| p.get("id").and_then(|i| i.as_str()).map(str::to_string))
                .collect()
        };
        PackBenchEngine {
            state: if seen.ended { "ended" } else { "running" }.into(),
            engine: seen.label.clone(),
            showing,
            poll_ms: POLL_MS,
            reload_ms: seen.reload_ms,
            reloads: seen.reloads,
            refusal: seen.refusal.clone(),
            message: seen.message.clone(),
            keeper_panels: ids(&seen.keeper),
            player_panels: ids(&seen.player),
            differences: self.differences(&seen),
        }
    }

    /// The offline table's last good pack and room against what the engine showed.
    fn differences(&self, seen: &Seen) -> Vec<PackBenchDifference> {
        let Some(pack) = self.0.packs.pack(&self.0.dir) else {
            return Vec::new();
        };
        let vars: Vec<differences::Var> = self
            .0
            .packs
            .room_vars(super::ROOM)
            .into_iter()
            .map(|v| differences::Var {
                id: v.id,
                kind: v.kind,
                value: v.value,
                hidden: v.hidden,
            })
            .collect();
        differences::compare(&pack, &vars, &seen.keeper, &seen.player)
            .into_iter()
            .map(|d| PackBenchDifference {
                audience: d.audience.into(),
                subject: d.subject.into(),
                id: d.id,
                what: d.what,
                file: d.file,
                known: d.known.map(str::to_string),
            })
            .collect()
    }
}
