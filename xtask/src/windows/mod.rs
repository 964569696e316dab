//! `cargo xtask check-windows`: Studio for Windows, checked from this Debian machine.
//!
//! 1. The target from rustup (`x86_64-pc-windows-gnu`) and Debian's MinGW-w64 for the C parts
//!    of dependencies; Wine to run what is built.
//! 2. `cargo clippy --workspace --all-targets --target x86_64-pc-windows-gnu -- -D warnings`:
//!    everything, the app included, compiles for Windows with no warning (a protection gated to
//!    Linux shows up here as dead code).
//! 3. The pure crates' tests built for Windows and run under Wine, counted like the Linux run.
//!
//! macOS is `check-macos` (the crates that need no Apple SDK).

use std::path::{Path, PathBuf};

use crate::cmd::{cache_dir, cargo, root, Cmd};
use crate::setup;

pub const TARGET: &str = "x86_64-pc-windows-gnu";

/// Debian packages the check needs: the MinGW-w64 C toolchain and Wine. `wine64` alone has
/// no `wine` or `wineboot` on `PATH` (those are in `wine`, only a recommendation of `wine64`,
/// which setup does not install): a fresh machine had no Wine to run the tests with.
const APT: &[&str] = &["gcc-mingw-w64-x86-64", "wine64", "wine"];

/// The crates whose tests run under Wine: everything below the app that needs no window and
/// no real engine (iroh on loopback runs under Wine: ticket, transport and local-table's tests
/// dial it there too). The app and the e2e crate need a window.
pub const UNDER_WINE: &[&str] = &[
    "protocol",
    "ticket",
    "pack",
    "platform",
    "sound",
    "mixer",
    "hosting",
    "ipc",
    "transport",
    "local-table",
    "lorecard",
    "docmerge",
];

/// iroh declares a `cdylib` crate type, and a test binary that links it exports its every
/// symbol, more than the 65,535 a Windows image may have (MinGW's ld: "export ordinal too
/// large"). An executable needs no exports; the same flags for clippy and the tests keep one
/// build of each dependency.
const RUSTFLAGS: &str = "-C link-arg=-Wl,--exclude-all-symbols";

pub fn run() -> Result<(), String> {
    let Counts {
        passed,
        failed,
        crashed_then_passed,
    } = check()?;
    eprintln!(
        "check-windows: {passed} passed, {failed} failed under Wine; Wine crashed under, then passed: {crashed_then_passed:?}"
    );
    if failed > 0 {
        return Err(format!("{failed} tests failed under Wine"));
    }
    Ok(())
}

/// What the Wine run counted, and the test binaries Wine itself crashed under (no test had
/// failed in them) that passed when run once more.
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub crashed_then_passed: Vec<String>,
}

/// The whole check; the counts of the Wine run.
pub fn check() -> Result<Counts, String> {
    Cmd::new("rustup")
        .args(["target", "add", TARGET])
        .run()
        .map_err(|e| format!("the Windows target could not be added: {e}"))?;
    setup::ensure_apt(APT, "the Windows toolchain and Wine")?;
    cargo(&["clippy", "--workspace", "--all-targets", "--target", TARGET])
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS", RUSTFLAGS)
        .args(["--", "-D", "warnings"])
        .run()?;
    let prefix = wine_prefix()?;
    let wine_env = |cmd: Cmd| {
        cmd.env("STUDIO_NETWORK", "local")
            .env("WINEDEBUG", "-all")
            .env("WINEPREFIX", &prefix)
    };
    // One wineserver for the whole run (each test binary otherwise starts Wine's services
    // again); ended after it.
    let _ = wine_env(Cmd::new("wineserver")).args(["-p"]).run();
    let cargo_test = || cargo(&["test", "--no-fail-fast", "--target", TARGET]);
    let mut test = wine_env(cargo_test())
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS", RUSTFLAGS)
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER", "wine");
    for krate in UNDER_WINE {
        test = test.args(["-p", krate]);
    }
    let mut why = vec![];
    let (mut passed, failed, ok) =
        crate::libtest::run_counting(test.inner(), &mut why, &mut Vec::new())?;
    for line in &why {
        eprintln!("{line}");
    }
    // A test binary that ended before libtest's result line counts no test at all. Seen on
    // fresh machines: Wine's own "Unhandled page fault" in a binary whose tests all passed
    // when run again (a different binary each time). Each is run once more, alone; a second
    // crash, or a build error, stands.
    let mut crashed_then_passed = vec![];
    if !ok && failed == 0 {
        let cargo: Vec<String> = why
            .iter()
            .filter_map(|l| l.strip_prefix("cargo: "))
            .map(str::to_string)
            .collect();
        let crashed = crashed_targets(&cargo);
        let mut still = vec![];
        for target in &crashed {
            let mut again = wine_env(cargo_test())
                .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS", RUSTFLAGS)
                .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER", "wine")
                .args(target.split_whitespace());
            let (p, f, ok) = crate::libtest::run_counting(again.inner(), &mut vec![], &mut vec![])?;
            if ok && f == 0 {
                passed += p;
                crashed_then_passed.push(target.clone());
            } else {
                still.push(target.clone());
            }
        }
        if crashed.is_empty() || !still.is_empty() || !builds_fine(&cargo) {
            let _ = wine_env(Cmd::new("wineserver")).args(["-k"]).run();
            return Err(format!(
                "the Windows tests did not build or did not run under Wine ({passed} passed; ended twice: {still:?}): {}",
                cargo.join(" | ")
            ));
        }
    }
    let _ = wine_env(Cmd::new("wineserver")).args(["-k"]).run();
    Ok(Counts {
        passed,
        failed,
        crashed_then_passed,
    })
}

/// The targets cargo names to run again (`-p local-table --test replay`).
fn crashed_targets(cargo: &[String]) -> Vec<String> {
    cargo
        .iter()
        .filter_map(|l| l.split("to rerun pass `").nth(1))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_string)
        .collect()
}

/// Only cargo's lines about test binaries that ended badly: no compile error among them.
fn builds_fine(cargo: &[String]) -> bool {
    cargo.iter().all(|l| {
        l.starts_with("error: test failed")
            || l.contains("didn't exit successfully")
            || l.contains("target failed")
            || l.contains("targets failed")
    })
}

/// Wine's own prefix, away from the person's, made once; with `bcryptprimitives.dll` when
/// this Wine has none (see `bcryptprimitives.c`).
fn wine_prefix() -> Result<PathBuf, String> {
    let prefix = cache_dir().join("wine");
    let system32 = prefix.join("drive_c/windows/system32");
    if !system32.exists() {
        // Wine makes the prefix but not the folders above it.
        std::fs::create_dir_all(cache_dir()).map_err(|e| e.to_string())?;
        Cmd::new("wineboot")
            .args(["--init"])
            .env("WINEPREFIX", &prefix)
            .env("WINEDEBUG", "-all")
            .run()?;
    }
    let dll = system32.join("bcryptprimitives.dll");
    if !dll.exists() {
        build_prng_shim(&dll)?;
        eprintln!(
            "check-windows: this Wine has no bcryptprimitives.dll: the stand-in is in {}",
            dll.display()
        );
    }
    Ok(prefix)
}

fn build_prng_shim(to: &Path) -> Result<(), String> {
    let src = root().join("xtask/src/windows");
    Cmd::new("x86_64-w64-mingw32-gcc")
        .args(["-shared", "-O2", "-o"])
        .args([
            to,
            &src.join("bcryptprimitives.c"),
            &src.join("bcryptprimitives.def"),
        ])
        .args(["-ladvapi32"])
        .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_wine_crashed_under_is_named_and_a_build_error_is_not_a_crash() {
        let cargo = [
            "error: test failed, to rerun pass `-p local-table --test replay`",
            "  process didn't exit successfully: `wine /t/deps/replay-01.exe` (exit status: 84)",
            "error: 1 target failed:",
        ]
        .map(String::from);
        assert_eq!(crashed_targets(&cargo), ["-p local-table --test replay"]);
        assert!(builds_fine(&cargo));
        assert!(!builds_fine(
            &["error[E0425]: cannot find value `x`".into()]
        ));
        assert!(!builds_fine(&["error: could not compile `pack`".into()]));
    }
}
