//! Studio's own log, as a person filing a bug report would attach it: every file in the
//! profile's log folder (`STUDIO_DATA_DIR/logs`, daily files).
//!
//! Every read fails loudly: a folder or file read as empty would pass every "the secret is not in
//! the log" check. A scan for what must be absent is only worth something next to a positive
//! control, so [`wait_line`] proves the reader sees a line the app is known to write.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::wait_for;

/// The log folder of a window started with `STUDIO_DATA_DIR` = `data`.
pub fn dir(data: &Path) -> PathBuf {
    data.join("logs")
}

/// Every log file under `data`, with its whole text (bytes that are not UTF-8 read as U+FFFD,
/// so a secret in ASCII is still found). A missing folder, an unreadable file or a folder with
/// no file panics.
pub fn files(data: &Path) -> Vec<(PathBuf, String)> {
    let dir = dir(data);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading the log folder {}: {e}", dir.display()));
    let mut out: Vec<(PathBuf, String)> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("listing the log folder {}: {e}", dir.display())))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p)
                .unwrap_or_else(|e| panic!("reading the log {}: {e}", p.display()));
            let text = String::from_utf8_lossy(&bytes).into_owned();
            (p, text)
        })
        .collect();
    assert!(
        !out.is_empty(),
        "the log folder {} holds no file",
        dir.display()
    );
    out.sort();
    out
}

/// How many times `needle` occurs in the profile's log, over every file.
pub fn count(data: &Path, needle: &str) -> usize {
    files(data)
        .iter()
        .map(|(_, text)| text.matches(needle).count())
        .sum()
}

/// Waits until some log file holds `needle` (the positive control: the reader sees what the
/// app writes, in the files it writes them to).
pub fn wait_line(data: &Path, needle: &str, timeout: Duration) {
    wait_for(
        timeout,
        &format!("the log line {needle:?} in {}", dir(data).display()),
        || {
            // The folder exists from the app's first line on; before that, nothing is logged yet.
            dir(data).is_dir().then_some(())?;
            (count(data, needle) > 0).then_some(())
        },
    );
}

/// Panics, naming the file and the line (the secret itself masked), when any log file under
/// `data` holds `secret`.
pub fn assert_absent(data: &Path, secret: &str, what: &str) {
    assert!(!secret.is_empty(), "an empty {what} is in every log");
    for (path, text) in files(data) {
        if let Some(line) = text.lines().find(|l| l.contains(secret)) {
            let line = line.replace(secret, "<the secret>");
            panic!("{what} is in the log {}: {line}", path.display());
        }
    }
}
