//! `cargo xtask check-macos`: what of Studio can be checked for macOS from this Debian machine.
//!
//! rustup serves the `x86_64-apple-darwin` standard library, but every crate that compiles C
//! or Objective-C for macOS (ring under iroh, objc2 under Tauri and wry, coreaudio under the
//! mixer's cpal) needs Apple's SDK and `xcrun`, which cannot be had here. So the crates with
//! no such part are checked with clippy, warnings as errors, macOS's own code in them included
//! (the engine's process group, its liveness by `kill(pid, 0)`, its command line through
//! `sysinfo`, the private-file modes); the app's macOS code is reviewed by `cfg` (README).

use crate::cmd::{cargo, Cmd};

pub const TARGET: &str = "x86_64-apple-darwin";

/// The crates that build for macOS without Apple's SDK.
pub const CHECKED: &[&str] = &[
    "protocol", "pack", "platform", "sound", "hosting", "ipc", "lorecard", "docmerge",
];

pub fn run() -> Result<(), String> {
    match check()? {
        Some(n) => eprintln!("check-macos: {n} crates clippy clean for {TARGET}"),
        None => return Err(format!("rustup could not add {TARGET}")),
    }
    Ok(())
}

/// The number of crates checked; `None` when rustup cannot serve the target on this machine
/// (said on its own line, not a failure: nothing of Studio's was found wrong).
pub fn check() -> Result<Option<usize>, String> {
    if Cmd::new("rustup")
        .args(["target", "add", TARGET])
        .run()
        .is_err()
    {
        return Ok(None);
    }
    let mut clippy = cargo(&["clippy", "--all-targets", "--target", TARGET]);
    for krate in CHECKED {
        clippy = clippy.args(["-p", krate]);
    }
    clippy
        .args(["--", "-D", "warnings"])
        .run()
        .map_err(|e| format!("clippy for {TARGET}: {e}"))?;
    Ok(Some(CHECKED.len()))
}
