//! Whether a process is still running, by its id: Studio asks it of an engine it hosts and of
//! the Studio that staged an upload in the shared cache.
//!
//! - **Linux**: `/proc/<pid>/stat`, a zombie counting as ended.
//! - **macOS** (and other Unix): `kill(pid, 0)`; `EPERM` means it exists (another user's).
//! - **Windows**: `OpenProcess` and `GetExitCodeProcess` (`STILL_ACTIVE` while it runs).

/// Whether process `pid` exists and has not ended.
#[cfg(target_os = "linux")]
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Whether process `pid` exists and has not ended.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists (pid > 0: 0 would mean our group).
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Whether process `pid` exists and has not ended.
#[cfg(windows)]
pub fn process_alive(pid: u32) -> bool {
    use windows_sys::Win32::Foundation::{CloseHandle, FALSE, STILL_ACTIVE};
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    // SAFETY: the handle is checked and closed here.
    unsafe {
        let process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
        if process.is_null() {
            return false;
        }
        let mut code = 0u32;
        let ok = GetExitCodeProcess(process, &mut code) != FALSE;
        CloseHandle(process);
        ok && code == STILL_ACTIVE as u32
    }
}

/// Nothing runs processes there (wasm).
#[cfg(not(any(unix, windows)))]
pub fn process_alive(_pid: u32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::process_alive;

    #[test]
    fn this_process_is_alive_and_an_ended_one_is_not() {
        assert!(process_alive(std::process::id()));
        // A child that has ended and been waited for.
        let program = std::env::current_exe().unwrap();
        let mut child = std::process::Command::new(program)
            .args(["--exact", "no::such::test"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_alive(pid), "an ended process is called alive");
        assert!(!process_alive(0) || cfg!(windows), "pid 0 runs no Studio");
    }
}
