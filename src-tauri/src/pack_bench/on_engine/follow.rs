//! What the bench's hidden connections are shown by the engine, kept as the differences need
//! it; the keeper's connection also times saves and hears the dev room's notices.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use hosting::log::Ring;
use pack::differences;
use protocol::frame::Speaker;
use protocol::ServerFrame;
use tokio::sync::mpsc;
use transport::session::SessionEvent;

/// Called when what the engine shows changed (the bench reports to the window).
pub type Changed = Arc<dyn Fn() + Send + Sync>;

/// The engine's skipped reload (`dev.commands.reload_failed`) and done reload.
const RELOAD_SKIPPED: &str = "Reload skipped";
const RELOAD_DONE: &str = "Dev reload";

/// What the engine showed the bench's keeper and player.
#[derive(Default)]
pub struct Seen {
    /// The engine's folder and version.
    pub label: String,
    pub keeper: differences::Seen,
    pub player: differences::Seen,
    /// Save → manifest for the last save the engine followed.
    pub reload_ms: Option<u64>,
    pub reloads: u64,
    /// The engine's sentence when it skipped the last reload.
    pub refusal: Option<String>,
    /// The mount's answer, or how the engine ended.
    pub message: Option<String>,
    pub ended: bool,
    /// The engine's last lines, keys redacted (for the sentence when it ends).
    pub lines: Ring,
    /// When the keeper's last manifest came.
    last_manifest: Option<SystemTime>,
}

/// The newest modification time of a file in the pack folder (hidden entries skipped, as the
/// engine's own watcher does).
fn newest(dir: &Path) -> Option<SystemTime> {
    let mut newest = None;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else if let Ok(t) = meta.modified() {
                newest = newest.max(Some(t));
            }
        }
    }
    newest
}

impl Seen {
    /// A keeper's manifest: after a save newer than the last manifest, the engine followed it.
    fn manifest_came(&mut self, dir: &Path) {
        let now = SystemTime::now();
        if let (Some(last), Some(saved)) = (self.last_manifest, newest(dir)) {
            if saved > last {
                self.reloads += 1;
                self.reload_ms = now.duration_since(saved).ok().map(|d| d.as_millis() as u64);
            }
        }
        self.last_manifest = Some(now);
    }
}

/// Follows one hidden connection's frames into `seen`; a keeper's system narratives (the
/// answers to its `.dev` commands) come out of the returned receiver.
pub fn follow(
    mut events: mpsc::Receiver<SessionEvent>,
    keeper: bool,
    dir: PathBuf,
    seen: Arc<Mutex<Seen>>,
    changed: Changed,
) -> mpsc::Receiver<String> {
    let (replies, answers) = mpsc::channel(16);
    tauri::async_runtime::spawn(async move {
        while let Some(event) = events.recv().await {
            let SessionEvent::Frame(frame, _) = event else {
                continue;
            };
            let mut s = seen.lock().unwrap_or_else(|e| e.into_inner());
            let view = if keeper { &mut s.keeper } else { &mut s.player };
            match frame {
                ServerFrame::UiManifest(m) => {
                    view.panels = m
                        .panels
                        .iter()
                        .filter_map(|p| serde_json::to_value(p).ok())
                        .collect();
                    if keeper {
                        s.manifest_came(&dir);
                    }
                }
                ServerFrame::State(state) => {
                    view.variables = state
                        .variables
                        .unwrap_or_default()
                        .iter()
                        .filter_map(|v| serde_json::to_value(v).ok())
                        .collect();
                }
                ServerFrame::PackCards(c) => {
                    view.cards = Some(
                        c.cards
                            .iter()
                            .filter_map(|c| serde_json::to_value(c).ok())
                            .collect(),
                    );
                }
                ServerFrame::System(n) if keeper => {
                    if n.text.starts_with(RELOAD_SKIPPED) {
                        s.refusal = Some(n.text);
                    } else if n.text.starts_with(RELOAD_DONE) {
                        s.refusal = None;
                    } else {
                        continue;
                    }
                }
                ServerFrame::Narrative(n) if keeper && n.speaker == Speaker::System => {
                    drop(s);
                    let _ = replies.try_send(n.text);
                    continue;
                }
                _ => continue,
            }
            drop(s);
            changed();
        }
    });
    answers
}
