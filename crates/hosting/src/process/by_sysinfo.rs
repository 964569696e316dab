//! A process's command line where there is no `/proc` (macOS, Windows), through `sysinfo`.

use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, UpdateKind};

/// Whether process `pid` was started with `arg` on its command line.
pub fn has_arg(pid: u32, arg: &str) -> bool {
    let pid = Pid::from_u32(pid);
    let mut system = System::new();
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing().with_cmd(UpdateKind::Always),
    );
    system
        .process(pid)
        .is_some_and(|p| p.cmd().iter().any(|a| a.as_os_str() == arg))
}
