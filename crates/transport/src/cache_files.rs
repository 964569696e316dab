//! The media cache's file handling, trusting nothing by name: private directories and files
//! (0700/0600; an owner-only ACL on Windows: see `platform`), opens that never follow a
//! symlink, and stamps that tell whether a file is the one Studio verified. The cache is shared
//! with the terminal client (and anyone who can write there), so a name is a claim until Studio
//! has hashed what it names.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Where uploads are staged: a private directory inside the cache.
pub(crate) const STAGING_DIR: &str = ".staging";

/// Who a file is and what it holds, as far as `fstat` can tell. The change time cannot be set
/// by anyone but the kernel, so a rewrite that restores size and mtime still changes the stamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<SystemTime>,
    changed: (i64, i64),
}

impl Stamp {
    pub(crate) fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                dev: meta.dev(),
                ino: meta.ino(),
                len: meta.len(),
                modified: meta.modified().ok(),
                changed: (meta.ctime(), meta.ctime_nsec()),
            }
        }
        #[cfg(not(unix))]
        Stamp {
            dev: 0,
            ino: 0,
            len: meta.len(),
            modified: meta.modified().ok(),
            changed: (0, 0),
        }
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }
}

/// Creates `dir` (and its parents) and makes `dir` itself private to the user.
pub(crate) fn private_dir(dir: &Path) -> io::Result<()> {
    platform::private_dir(dir)
}

/// Tightens a file we own to the user's alone (an existing cache may have been made 0644, or
/// inherit a profile's wider ACL on Windows).
pub(crate) fn make_private(path: &Path) -> io::Result<()> {
    platform::make_private(path)
}

/// A new file only the user can read, failing if anything (a symlink included) is there.
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
    platform::create_new_private(path)
}

/// Opens for reading without following a symlink: a link at `path` is an error.
pub(crate) fn open_no_follow(path: &Path) -> io::Result<File> {
    platform::open_no_follow(path)
}

/// A fresh staging file in the private staging directory: an unguessable name, created 0600 and
/// exclusively (nobody can have planted it). The name starts with our pid so a later start can
/// tell an abandoned file from one another running Studio is still using.
pub(crate) fn staging_file(cache_dir: &Path) -> io::Result<(PathBuf, File)> {
    let dir = cache_dir.join(STAGING_DIR);
    private_dir(&dir)?;
    let path = dir.join(format!(
        "{}-{:032x}",
        std::process::id(),
        rand::random::<u128>()
    ));
    let file = create_private(&path)?;
    Ok((path, file))
}

/// Removes staged uploads nobody is writing any more: their process is gone, or they are a day
/// old. Runs when the cache opens.
pub(crate) fn sweep_staging(cache_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(cache_dir.join(STAGING_DIR)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let pid = name
            .split_once('-')
            .and_then(|(p, _)| p.parse::<u32>().ok());
        let alive = pid.is_some_and(process_alive);
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_none_or(|age| age > Duration::from_secs(24 * 3600));
        if !alive || stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn process_alive(pid: u32) -> bool {
    pid == std::process::id() || platform::process_alive(pid)
}
