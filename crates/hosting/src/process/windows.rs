//! Windows: the engine runs in a Job Object that kills every process in it when the job's
//! last handle closes. Studio keeps that handle for the engine's life and never hands it on,
//! so however Studio ends (quit, crash, Task Manager) Windows closes it and the engine ends
//! with whatever it started: what `PR_SET_PDEATHSIG` and the process group give on Linux.
//!
//! A polite stop is Ctrl+Break to the engine's process group (Python raises
//! `KeyboardInterrupt` and the engine saves as it does on SIGTERM). It reaches the engine only
//! when Studio shares a console with it (started from a terminal); otherwise the caller's
//! grace ends and the stop is forced through the job.

use std::collections::HashMap;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command};
use std::sync::Mutex;

use windows_sys::Win32::Foundation::{CloseHandle, FALSE, HANDLE};
use windows_sys::Win32::System::Console::{GenerateConsoleCtrlEvent, CTRL_BREAK_EVENT};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenProcess, TerminateProcess, CREATE_NEW_PROCESS_GROUP, CREATE_NO_WINDOW, PROCESS_TERMINATE,
};

use super::Stop;

/// The job of each engine Studio started, by pid (handles as integers, so the map is `Send`).
static JOBS: Mutex<Option<HashMap<u32, isize>>> = Mutex::new(None);

/// Its own process group (for Ctrl+Break) and no console window of its own.
pub fn prepare(cmd: &mut Command) {
    cmd.creation_flags(CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW);
}

/// Puts the running engine into a fresh kill-on-close job. (A process the engine starts in
/// the moment before this is not in the job; the engine starts none before it reads its
/// configuration.)
pub fn adopt(child: &Child) -> std::io::Result<()> {
    // SAFETY: plain Win32 calls on handles we own; the job handle is kept in JOBS.
    unsafe {
        let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            return Err(std::io::Error::last_os_error());
        }
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let set = SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            &limits as *const _ as *const core::ffi::c_void,
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        );
        if set == FALSE || AssignProcessToJobObject(job, child.as_raw_handle() as HANDLE) == FALSE {
            let e = std::io::Error::last_os_error();
            CloseHandle(job);
            return Err(e);
        }
        JOBS.lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(HashMap::new)
            .insert(child.id(), job as isize);
    }
    Ok(())
}

/// Ctrl+Break to the engine's group, or the end of its job (every process in it).
pub fn stop(pid: u32, how: Stop) {
    // SAFETY: plain Win32 calls; a handle is closed once, after it is taken out of JOBS.
    unsafe {
        match how {
            Stop::Ask => {
                GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, pid);
            }
            Stop::Force => {
                let job = JOBS
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .as_mut()
                    .and_then(|jobs| jobs.remove(&pid));
                match job {
                    Some(job) => {
                        TerminateJobObject(job as HANDLE, 1);
                        CloseHandle(job as HANDLE);
                    }
                    // An engine an earlier Studio started: no job of ours, only the process.
                    None => {
                        let process = OpenProcess(PROCESS_TERMINATE, FALSE, pid);
                        if !process.is_null() {
                            TerminateProcess(process, 1);
                            CloseHandle(process);
                        }
                    }
                }
            }
        }
    }
}

pub use super::by_sysinfo::has_arg;
