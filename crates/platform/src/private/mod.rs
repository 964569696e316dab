//! Folders and files only the person using Studio can reach: the media cache, the logs, saved
//! keys, the bench's engine data. The rule is one on every platform, written per platform:
//!
//! - **Unix** (Linux, macOS): folders `0700`, files `0600`.
//! - **Windows**: a protected DACL (nothing inherited from the parent) with one entry, full
//!   control for the current user's SID, inherited by what is created inside a private folder.
//!   A profile folder's usual ACL also grants SYSTEM and Administrators; a private one does not.
//! - Elsewhere (wasm): nothing to do; nothing there writes files.

use std::fs::File;
use std::io;
use std::path::Path;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as os;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as os;

/// Creates `dir` and its missing parents, and makes `dir` private (also one made open before).
pub fn private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    make_private(dir)
}

/// Makes an existing folder or file private, tightening one made open before; a path that is
/// already private is left untouched.
pub fn make_private(path: &Path) -> io::Result<()> {
    #[cfg(any(unix, windows))]
    if !os::is_private(path)? {
        os::make_private(path)?;
    }
    #[cfg(not(any(unix, windows)))]
    let _ = path;
    Ok(())
}

/// A new file only the user can reach, failing if anything (a link included) is at `path`.
pub fn create_new_private(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    // Before a byte is written: inside a private folder it inherited the same rule already.
    #[cfg(windows)]
    os::make_private(path)?;
    Ok(file)
}

/// Whether only the user can reach `path`: on Unix no group or other bits; on Windows a
/// protected DACL whose every allowing entry names the current user.
pub fn is_private(path: &Path) -> io::Result<bool> {
    #[cfg(any(unix, windows))]
    return os::is_private(path);
    #[cfg(not(any(unix, windows)))]
    {
        let _ = path;
        Ok(true)
    }
}

/// On files, read back: Unix only (see `windows.rs`'s tests for why not under Wine).
#[cfg(all(test, unix))]
mod tests;
