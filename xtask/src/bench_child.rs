//! The bench's fresh child processes (this binary again, under a hidden subcommand): each does
//! one thing and prints `rss <idle KiB> <peak KiB>`, its own resident memory once connected and
//! at rest, then its peak (the kernel's high-water mark) after the work.

/// A child's figures, in KiB.
#[derive(Debug, Clone, Copy)]
pub struct ChildRss {
    pub idle_kib: u64,
    pub peak_kib: u64,
}

impl ChildRss {
    /// What the work cost over the process's own idle baseline.
    pub fn growth_kib(&self) -> u64 {
        self.peak_kib.saturating_sub(self.idle_kib)
    }
}

/// Runs `xtask <subcommand> <args>…` and reads its figures. Awaited without blocking the
/// runtime, so a server in this process keeps serving the child.
pub async fn run(subcommand: &str, args: &[&std::ffi::OsStr]) -> Result<ChildRss, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = tokio::process::Command::new(exe)
        .arg(subcommand)
        .args(args)
        .output()
        .await
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("rss "))
        .ok_or_else(|| {
            format!(
                "{subcommand} said nothing useful ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
    let mut nums = line
        .split_whitespace()
        .filter_map(|n| n.parse::<u64>().ok());
    match (nums.next(), nums.next()) {
        (Some(idle_kib), Some(peak_kib)) => Ok(ChildRss { idle_kib, peak_kib }),
        _ => Err(format!("{subcommand}'s figures are unreadable: {line}")),
    }
}

/// The child's runtime: two workers, like the 2-core machine the bench runs on.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

/// A field of `/proc/self/status` in KiB (`VmRSS:`, `VmHWM:`), 0 where there is none.
pub fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
