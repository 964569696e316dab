//! The pack bench's watcher: a debounced file watcher on a pack folder that reloads the pack
//! (see [`crate::table::PacksHandle::reload`]) whenever what is on disk changes.
//!
//! The watcher also reports reads, the reload's own among them, so a change is decided by a
//! fingerprint of the folder (every file's size and modification time), never by the event
//! alone: otherwise each reload would trigger the next.
//!
//! Neither the watch nor the fingerprint follows a symlink: a link in a pack (`ln -s / x`) must
//! not have Studio watch or walk the whole disk (the pack reader refuses links anyway).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer_opt, Config, Debouncer};

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
            // `DirEntry::metadata` does not follow a link: a linked folder is one entry here.
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
    watch_folder(dir, move || {
        let outcome = packs.reload(&folder);
        if let Err(e) = &outcome {
            tracing::info!("pack reload refused: {e}");
        }
        on_reload(outcome);
    })
}

/// Calls `on_change` whenever the fingerprint of `dir` changes.
fn watch_folder(
    dir: &Path,
    mut on_change: impl FnMut() + Send + 'static,
) -> Result<PackWatcher, String> {
    let folder = dir.to_path_buf();
    let mut last = fingerprint(&folder);
    let config = Config::default().with_timeout(DEBOUNCE).with_notify_config(
        notify_debouncer_mini::notify::Config::default().with_follow_symlinks(false),
    );
    let mut debouncer = new_debouncer_opt::<_, RecommendedWatcher>(
        config,
        move |res: notify_debouncer_mini::DebounceEventResult| {
            if res.map(|events| events.is_empty()).unwrap_or(true) {
                return;
            }
            let now = fingerprint(&folder);
            if now == last {
                return;
            }
            last = now;
            on_change();
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The inotify watches this process holds (one `inotify wd:` line each in fdinfo).
    fn inotify_watches() -> usize {
        let Ok(fds) = std::fs::read_dir("/proc/self/fdinfo") else {
            return 0;
        };
        fds.flatten()
            .filter_map(|fd| std::fs::read_to_string(fd.path()).ok())
            .map(|info| {
                info.lines()
                    .filter(|l| l.starts_with("inotify wd:"))
                    .count()
            })
            .sum()
    }

    #[test]
    fn a_linked_folder_is_neither_watched_nor_walked() {
        let outside = tempfile::tempdir().unwrap();
        for i in 0..300 {
            std::fs::create_dir_all(outside.path().join(format!("d{i}/e"))).unwrap();
        }
        std::fs::write(outside.path().join("d0/e/file"), "x").unwrap();
        let pack = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(pack.path().join("ui")).unwrap();
        std::fs::write(pack.path().join("pack.yaml"), "id: t\n").unwrap();
        std::os::unix::fs::symlink(outside.path(), pack.path().join("x")).unwrap();
        // The fingerprint lists the pack's own file and the link, nothing behind it.
        let print = fingerprint(pack.path());
        assert_eq!(print.len(), 2, "{print:?}");
        let before = inotify_watches();
        let watcher = watch_folder(pack.path(), || {}).unwrap();
        let added = inotify_watches().saturating_sub(before);
        // The pack and its `ui` folder (other tests may add a few of their own meanwhile).
        assert!(added < 50, "{added} folders watched for a pack of two");
        drop(watcher);
    }
}
