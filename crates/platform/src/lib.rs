//! The rules Studio applies per platform, in one place. Private folders and files are in
//! [`private_dir`] and its siblings, whether a process runs is [`process_alive`]; this page is
//! about the other rule.
//!
//! Opening a file that may be a trap: a pack's file, a cached picture, a file to share. Studio
//! never follows a link there (a link could point at the person's keys) and never waits on a
//! FIFO. The refusal happens at the open itself, so a link swapped in after a check is refused
//! too.
//!
//! - **Unix** (Linux, macOS): `O_NOFOLLOW | O_NONBLOCK`; a link answers `ELOOP`.
//! - **Windows**: `FILE_FLAG_OPEN_REPARSE_POINT` opens a symbolic link or junction itself
//!   instead of its target; the opened handle is then asked whether it is a reparse point, and
//!   one is refused. (Windows has no FIFOs in the file system.)
//! - Elsewhere (wasm): a plain open; nothing there reads files.

use std::fs::File;
use std::io;
use std::path::Path;

mod private;
mod process;
pub use private::{create_new_private, is_private, make_private, private_dir};
pub use process::process_alive;

/// The error a refused link carries on every platform (see [`is_link_refusal`]).
#[derive(Debug)]
pub struct LinkRefused;

impl std::fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a link, not a file: refused")
    }
}

impl std::error::Error for LinkRefused {}

/// Opens `path` for reading without following a final link and without waiting on a FIFO.
pub fn open_no_follow(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        // Said plainly when it is a link already (the open below is what guarantees it).
        if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
            return Err(io::Error::other(LinkRefused));
        }
        /// winbase.h: open the link itself, not what it points at.
        const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
        options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
    }
    let file = options.open(path)?;
    #[cfg(windows)]
    {
        use std::os::windows::fs::MetadataExt;
        /// winnt.h: a symbolic link, junction or other reparse point.
        const FILE_ATTRIBUTE_REPARSE_POINT: u32 = 0x400;
        if file.metadata()?.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
            return Err(io::Error::other(LinkRefused));
        }
    }
    Ok(file)
}

/// Whether `e` is [`open_no_follow`] refusing a link.
pub fn is_link_refusal(e: &io::Error) -> bool {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return true;
    }
    e.get_ref().is_some_and(|inner| inner.is::<LinkRefused>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_opens_and_a_missing_one_is_not_called_a_link() {
        let t = tempfile::tempdir().unwrap();
        let file = t.path().join("keys.toml");
        std::fs::write(&file, b"secret").unwrap();
        let mut read = String::new();
        io::Read::read_to_string(&mut open_no_follow(&file).unwrap(), &mut read).unwrap();
        assert_eq!(read, "secret");
        assert!(!is_link_refusal(
            &open_no_follow(&t.path().join("none")).unwrap_err()
        ));
    }

    /// Unix only: under Wine 8 (the Windows tests here) a link made by `symlink_file` dangles
    /// (its target reads as not found), so the Windows refusal cannot be shown there.
    #[cfg(unix)]
    #[test]
    fn a_link_to_a_file_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let secret = t.path().join("keys.toml");
        std::fs::write(&secret, b"secret").unwrap();
        let trap = t.path().join("map.png");
        std::os::unix::fs::symlink(&secret, &trap).unwrap();
        let e = open_no_follow(&trap).expect_err("a link was followed");
        assert!(is_link_refusal(&e), "not told as a link refusal: {e}");
    }
}
