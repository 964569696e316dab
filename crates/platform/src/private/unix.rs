//! Unix modes: `0700` for a folder, `0600` for a file.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub(super) fn make_private(path: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    let mode = if meta.is_dir() { 0o700 } else { 0o600 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

pub(super) fn is_private(path: &Path) -> io::Result<bool> {
    Ok(std::fs::symlink_metadata(path)?.permissions().mode() & 0o077 == 0)
}
