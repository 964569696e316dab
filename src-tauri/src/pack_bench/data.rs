//! The bench table's data folder (room state, uploads): private to this person, with a name
//! nobody could guess or make first, and gone when the bench closes.
//!
//! It lives in `<profile>/bench/` (0700), as `bench-<pid>-<random>` made fresh by `tempfile`
//! (0700, created exclusively: a folder that already exists is never taken over). The folder
//! goes when the bench's table is left ([`BenchData`] is dropped); what a crash left behind is
//! swept the next time a bench opens: folders of processes no longer running, and the
//! predictable `/tmp/loreweaver-bench-<pid>-<n>` folders older Studios made, when they are ours.

use std::io;
use std::path::{Path, PathBuf};

/// Where this profile's bench folders live.
pub fn root() -> PathBuf {
    crate::profile::studio_dir().join("bench")
}

/// One bench's data folder; removed (with everything in it) on drop.
#[derive(Debug)]
pub struct BenchData(tempfile::TempDir);

impl BenchData {
    /// A fresh private folder under `root` (made 0700 if missing; refused if it is not a
    /// folder of ours, e.g. a symlink someone planted).
    pub fn create_in(root: &Path) -> io::Result<BenchData> {
        private_root(root)?;
        let prefix = format!("bench-{}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(std::fs::Permissions::from_mode(0o700));
        }
        builder.tempdir_in(root).map(BenchData)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

/// Makes `root` a private folder of ours: created 0700, or, when it exists, a real folder (not
/// a symlink) owned by this user, set back to 0700.
fn private_root(root: &Path) -> io::Result<()> {
    let mut dirs = std::fs::DirBuilder::new();
    dirs.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        dirs.mode(0o700);
    }
    dirs.create(root)?;
    let meta = std::fs::symlink_metadata(root)?;
    if !meta.is_dir() || !ours(&meta) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is not a private folder of this user", root.display()),
        ));
    }
    // What is made inside inherits the rule (on Windows, the owner-only ACL's one entry).
    platform::make_private(root)
}

#[cfg(unix)]
fn ours(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    // SAFETY: getuid has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::getuid() }
}

#[cfg(not(unix))]
fn ours(_: &std::fs::Metadata) -> bool {
    true
}

/// Whether process `pid` still runs (a pid we may not signal still runs).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(pid: u32) -> bool {
    pid == std::process::id()
}

/// The pid in a bench folder's name `{prefix}{pid}-…`, if it is one.
fn pid_of(name: &str, prefix: &str) -> Option<u32> {
    name.strip_prefix(prefix)?.split('-').next()?.parse().ok()
}

/// Removes the bench folders left behind in `root` (their process is gone) and this user's
/// old predictable ones in `legacy_tmp`. Returns how many went. Never follows a symlink and
/// never touches what another user made.
pub fn sweep(root: &Path, legacy_tmp: &Path) -> usize {
    let mut swept = 0;
    for (dir, prefix) in [(root, "bench-"), (legacy_tmp, "loreweaver-bench-")] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| pid_of(n, prefix)) else {
                continue;
            };
            let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            if !meta.is_dir() || !ours(&meta) || alive(pid) {
                continue;
            }
            if std::fs::remove_dir_all(entry.path()).is_ok() {
                swept += 1;
            }
        }
    }
    swept
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Issue #28 item 5: private, fresh, and gone on drop.
    #[cfg(unix)]
    #[test]
    fn a_bench_folder_is_private_fresh_and_removed() {
        use std::os::unix::fs::PermissionsExt as _;
        let profile = tempfile::tempdir().unwrap();
        let root = profile.path().join("bench");
        // Someone made the predictable names (and the old /tmp form) first: never used.
        std::fs::create_dir_all(&root).unwrap();
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
        let planted = root.join(format!("bench-{}-0", std::process::id()));
        std::fs::create_dir(&planted).unwrap();
        let a = BenchData::create_in(&root).unwrap();
        let b = BenchData::create_in(&root).unwrap();
        assert_ne!(a.path(), b.path());
        for d in [a.path(), b.path()] {
            assert_ne!(d, planted);
            assert!(d.starts_with(&root), "{}", d.display());
            assert!(!d.starts_with(std::env::temp_dir().join("loreweaver-bench")));
            let mode = std::fs::metadata(d).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", d.display());
        }
        let root_mode = std::fs::metadata(&root).unwrap().permissions().mode() & 0o777;
        assert_eq!(root_mode, 0o700);
        let (pa, pb) = (a.path().to_path_buf(), b.path().to_path_buf());
        std::fs::write(pa.join("room.json"), "{}").unwrap();
        drop(a);
        assert!(!pa.exists());
        assert!(pb.exists());
        drop(b);
        assert!(!pb.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let root = dir.path().join("bench");
        std::os::unix::fs::symlink(&elsewhere, &root).unwrap();
        assert!(BenchData::create_in(&root).is_err());
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn what_a_dead_process_left_is_swept_and_live_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let (root, tmp) = (dir.path().join("bench"), dir.path().join("tmp"));
        std::fs::create_dir_all(&tmp).unwrap();
        let live = BenchData::create_in(&root).unwrap();
        // No process has pid 0x7fff_fff0 (above any pid_max).
        let dead = root.join("bench-2147483632-abc123");
        let legacy = tmp.join("loreweaver-bench-2147483632-0");
        let other = tmp.join("unrelated-2147483632");
        for d in [&dead, &legacy, &other] {
            std::fs::create_dir_all(d.join("rooms")).unwrap();
        }
        // A symlink with a bench name is never followed.
        let target = dir.path().join("keep");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("x"), "x").unwrap();
        std::os::unix::fs::symlink(&target, tmp.join("loreweaver-bench-2147483633-1")).unwrap();
        assert_eq!(sweep(&root, &tmp), 2);
        assert!(!dead.exists() && !legacy.exists());
        assert!(other.exists() && live.path().exists() && target.join("x").exists());
    }
}
