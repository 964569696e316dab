//! The pack bench's watcher: a debounced file watcher on a pack folder that reloads the pack
//! (see [`crate::table::PacksHandle::reload`]) whenever what is on disk changes.
//!
//! The watcher also reports reads, the reload's own among them, so a change is decided by a
//! fingerprint of the folder (every file's size and modification time), never by the event
//! alone: otherwise each reload would trigger the next.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer, Debouncer};

use crate::error::Error;
use crate::table::PacksHandle;

/// Saves that land within this window become one reload.
pub const DEBOUNCE: Duration = Duration::from_millis(120);

/// Watches until dropped.
pub struct PackWatcher {
    _debouncer: Debouncer<RecommendedWatcher>,
}

type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// Every file under `dir` with its size and modification time, in path order.
fn fingerprint(dir: &Path) -> Fingerprint {
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

/// Reloads the pack at `dir` on every change; `on_reload` hears each outcome (the pack id, or
/// the loader's error while the last good pack stays served).
pub fn watch_pack(
    packs: PacksHandle,
    dir: &Path,
    mut on_reload: impl FnMut(Result<String, Error>) + Send + 'static,
) -> Result<PackWatcher, String> {
    let folder = dir.to_path_buf();
    let mut last = fingerprint(&folder);
    let mut debouncer = new_debouncer(
        DEBOUNCE,
        move |res: notify_debouncer_mini::DebounceEventResult| {
            if res.map(|events| events.is_empty()).unwrap_or(true) {
                return;
            }
            let now = fingerprint(&folder);
            if now == last {
                return;
            }
            last = now;
            let outcome = packs.reload(&folder);
            if let Err(e) = &outcome {
                tracing::info!("pack reload refused: {e}");
            }
            on_reload(outcome);
        },
    )
    .map_err(|e| format!("cannot watch the pack folder: {e}"))?;
    debouncer
        .watcher()
        .watch(dir, RecursiveMode::Recursive)
        .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    Ok(PackWatcher {
        _debouncer: debouncer,
    })
}
