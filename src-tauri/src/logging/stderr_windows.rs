//! Windows: stderr is the process's standard error handle, which Rust's `eprintln!` and
//! `tracing`'s writers look up at every write. (A release build is a GUI app and starts with
//! none; the pipe then gives what Tauri and WebView2's loader print somewhere to go.)

use std::io::PipeWriter;
use std::os::windows::io::{AsHandle, AsRawHandle, IntoRawHandle};

use windows_sys::Win32::Foundation::{FALSE, HANDLE};
use windows_sys::Win32::System::Console::{SetStdHandle, STD_ERROR_HANDLE};

/// Another handle on the stderr Studio started with (an error when it has none).
pub fn duplicate() -> std::io::Result<std::fs::File> {
    let handle = std::io::stderr().as_handle().try_clone_to_owned()?;
    if handle.as_raw_handle().is_null() {
        return Err(std::io::Error::other("no standard error"));
    }
    Ok(std::fs::File::from(handle))
}

/// Makes the pipe's writing end the process's standard error (kept open for Studio's life).
pub fn point_at(write: PipeWriter) -> std::io::Result<()> {
    let handle = write.into_raw_handle();
    // SAFETY: the handle is a valid pipe end we own; it is never closed, as stderr must live on.
    if unsafe { SetStdHandle(STD_ERROR_HANDLE, handle as HANDLE) } == FALSE {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
