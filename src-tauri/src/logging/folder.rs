//! The log folder on disk: private (folder 0700, files 0600), one file a day, and bounded — a
//! file stops at [`MAX_FILE`] with one line saying so, and the folder is pruned to [`MAX_FOLDER`]
//! and [`KEEP_DAYS`] files whenever a day's file opens. Whatever a page or a peer manages to get
//! printed, it cannot fill the disk or read another person's log.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most one log file holds (a day's Studio log, an engine's log, `STUDIO_LOG_FILE`).
pub const MAX_FILE: u64 = 8 << 20;
/// The most the whole folder holds after pruning.
pub const MAX_FOLDER: u64 = 32 << 20;
/// How many of Studio's daily files are kept.
pub const KEEP_DAYS: usize = 7;
const FULL: &[u8] =
    b"studio: this log file is full; what follows is not logged until it rolls over\n";

/// Makes `dir` (and its parents) and makes it private.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    platform::private_dir(dir)
}

/// Opens `path` to append, readable by its owner only (also a file an older Studio made 0644).
pub fn open_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let file = options.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    // Inside the private folder it inherited the rule; one made by an older Studio is tightened.
    #[cfg(windows)]
    platform::make_private(path)?;
    Ok(file)
}

/// A writer that stops at a size: the write that would cross it is replaced by one line saying
/// the file is full, and everything after is dropped (never an error: a full log must not stop
/// the app).
pub struct Capped<W> {
    inner: W,
    left: u64,
    full: bool,
}

impl<W: Write> Capped<W> {
    /// `already` is what the file held when it was opened.
    pub fn new(inner: W, already: u64, cap: u64) -> Self {
        Capped {
            inner,
            left: cap.saturating_sub(already),
            full: already >= cap,
        }
    }
}

impl Capped<File> {
    /// Opens `path` private and capped at [`MAX_FILE`].
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let file = open_private(path)?;
        let already = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(Capped::new(file, already, MAX_FILE))
    }
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.full {
            return Ok(buf.len());
        }
        let len = buf.len() as u64;
        if len + FULL.len() as u64 > self.left {
            self.full = true;
            self.inner.write_all(FULL)?;
            return Ok(buf.len());
        }
        self.inner.write_all(buf)?;
        self.left -= len;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Studio's daily files in a private folder: `studio.YYYY-MM-DD.log`, each capped.
pub struct LogFolder {
    dir: PathBuf,
    today: fn() -> String,
    day: String,
    file: Option<Capped<File>>,
}

/// Today's date in UTC, as the file names hold it.
pub fn utc_day() -> String {
    let d = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

impl LogFolder {
    pub fn new(dir: PathBuf, today: fn() -> String) -> std::io::Result<Self> {
        private_dir(&dir)?;
        Ok(LogFolder {
            dir,
            today,
            day: String::new(),
            file: None,
        })
    }

    fn current(&mut self) -> Option<&mut Capped<File>> {
        let day = (self.today)();
        if day != self.day || self.file.is_none() {
            let name = format!("studio.{day}.log");
            prune(&self.dir, &name);
            self.file = Capped::open(&self.dir.join(&name)).ok();
            self.day = day;
        }
        self.file.as_mut()
    }
}

impl Write for LogFolder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.current() {
            Some(file) => file.write(buf),
            None => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self.file.as_mut() {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

/// Removes what the folder may no longer keep, oldest first, never `current`: Studio's daily
/// files beyond [`KEEP_DAYS`], then any file while the folder holds more than [`MAX_FOLDER`]
/// less room for the file about to grow.
pub fn prune(dir: &Path, current: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, String, PathBuf, u64)> = entries
        .flatten()
        .filter_map(|e| {
            let meta = e.path().symlink_metadata().ok()?;
            let name = e.file_name().to_string_lossy().into_owned();
            (meta.is_file() && name != current).then(|| {
                let when = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                (when, name, e.path(), meta.len())
            })
        })
        .collect();
    // Oldest first (by time, then by name: the dated names sort by day).
    files.sort();
    let dailies = files
        .iter()
        .filter(|f| f.1.starts_with("studio.") && f.1.ends_with(".log"))
        .count();
    let mut extra_days = (dailies + 1).saturating_sub(KEEP_DAYS);
    let mut total: u64 = files.iter().map(|f| f.3).sum();
    for (_, name, path, len) in files {
        let daily = name.starts_with("studio.") && name.ends_with(".log");
        let too_many = daily && extra_days > 0;
        if (too_many || total + MAX_FILE > MAX_FOLDER) && std::fs::remove_file(&path).is_ok() {
            total -= len;
            if daily {
                extra_days = extra_days.saturating_sub(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_writer_says_full_once_and_drops_the_rest() {
        let mut out = Capped::new(Vec::new(), 0, 200);
        for _ in 0..100 {
            out.write_all(b"0123456789\n").unwrap();
        }
        let text = String::from_utf8(out.inner).unwrap();
        assert!(
            text.len() <= 200,
            "{} bytes past a 200-byte cap",
            text.len()
        );
        assert_eq!(text.matches("is full").count(), 1, "{text}");
        // A file opened already full takes nothing at all.
        let mut full = Capped::new(Vec::new(), 300, 200);
        full.write_all(b"more\n").unwrap();
        assert!(full.inner.is_empty());
    }

    #[test]
    fn the_folder_is_private_and_bounded() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("logs");
        // A huge stray file (oldest), ten old days and an engine log already there.
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("stray.log"), vec![b'x'; MAX_FOLDER as usize]).unwrap();
        for day in 1..=10 {
            std::fs::write(dir.join(format!("studio.2026-01-{day:02}.log")), b"old\n").unwrap();
        }
        std::fs::write(dir.join("engine-table.log"), b"engine\n").unwrap();
        let mut folder = LogFolder::new(dir.clone(), || "2026-12-03".into()).unwrap();
        folder.write_all(b"hello\n").unwrap();
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        let dailies = names.iter().filter(|n| n.starts_with("studio.")).count();
        assert_eq!(dailies, KEEP_DAYS, "{names:?}");
        assert!(names.contains(&"studio.2026-12-03.log".to_string()));
        assert!(
            !names.contains(&"studio.2026-01-01.log".to_string()),
            "{names:?}"
        );
        assert!(!names.contains(&"stray.log".to_string()), "{names:?}");
        assert!(names.contains(&"engine-table.log".to_string()), "{names:?}");
        let total: u64 = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.metadata().unwrap().len())
            .sum();
        assert!(total + MAX_FILE <= MAX_FOLDER, "{total} bytes kept");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o700);
            assert_eq!(mode(&dir.join("studio.2026-12-03.log")), 0o600);
            // A symlink planted where today's file goes is not followed.
            let other = tmp.path().join("elsewhere");
            std::fs::write(&other, b"").unwrap();
            std::os::unix::fs::symlink(&other, dir.join("studio.2026-12-04.log")).unwrap();
            assert!(open_private(&dir.join("studio.2026-12-04.log")).is_err());
        }
    }
}
