//! Linux and macOS: the engine leads its own process group; on Linux it also dies with the
//! thread that started it (`PR_SET_PDEATHSIG`).

use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

use super::Stop;

/// Before the engine starts: its own group (a stop reaches whatever it starts), and on Linux
/// the death signal.
pub fn prepare(cmd: &mut Command) {
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setpgid(0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            {
                // Studio gone (quit, crash, kill): the engine goes too.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Studio died between fork and prctl: nobody would signal us.
                if libc::getppid() == 1 {
                    libc::_exit(1);
                }
            }
            Ok(())
        });
    }
}

/// Nothing more once it runs: the group and the death signal were set before exec.
pub fn adopt(_child: &Child) -> std::io::Result<()> {
    Ok(())
}

/// SIGTERM or SIGKILL to the engine's process group, and to the engine itself.
pub fn stop(pid: u32, how: Stop) {
    let signal = match how {
        Stop::Ask => libc::SIGTERM,
        Stop::Force => libc::SIGKILL,
    };
    let pid = pid as i32;
    if pid > 1 {
        // SAFETY: kill(2) on a group and a pid we started; at worst they are gone.
        unsafe {
            libc::kill(-pid, signal);
            libc::kill(pid, signal);
        }
    }
}

/// Whether process `pid` was started with `arg` on its command line.
#[cfg(target_os = "linux")]
pub fn has_arg(pid: u32, arg: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| c.split(|b| *b == 0).any(|a| a == arg.as_bytes()))
        .unwrap_or(false)
}

#[cfg(not(target_os = "linux"))]
pub use super::by_sysinfo::has_arg;
