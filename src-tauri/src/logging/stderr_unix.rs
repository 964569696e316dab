//! Unix: stderr is file descriptor 2, which GTK, WebKit and Rust all write to.

use std::io::PipeWriter;
use std::os::fd::{AsFd, AsRawFd};

/// Another descriptor for the stderr Studio started with.
pub fn duplicate() -> std::io::Result<std::fs::File> {
    Ok(std::fs::File::from(
        std::io::stderr().as_fd().try_clone_to_owned()?,
    ))
}

/// Makes fd 2 the pipe's writing end (the pipe's own descriptor is then closed: fd 2 holds it).
pub fn point_at(write: PipeWriter) -> std::io::Result<()> {
    // SAFETY: dup2 onto 2 replaces stderr for the whole process with a descriptor we own.
    if unsafe { libc::dup2(write.as_raw_fd(), 2) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
