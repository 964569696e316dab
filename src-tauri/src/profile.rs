//! Studio's own files: saved tables, panel-code answers, the demo table.

use std::path::PathBuf;

/// `~/.loreweaver/studio` (`STUDIO_DATA_DIR` moves it).
pub fn studio_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("STUDIO_DATA_DIR") {
        return PathBuf::from(dir);
    }
    // The terminal client's `~/.loreweaver` on every platform (`%USERPROFILE%` on Windows).
    dirs::home_dir()
        .unwrap_or_default()
        .join(".loreweaver")
        .join("studio")
}
