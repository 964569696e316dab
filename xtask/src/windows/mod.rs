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

/// Debian packages the check needs: the MinGW-w64 C toolchain and Wine.
const APT: &[&str] = &["gcc-mingw-w64-x86-64", "wine64"];

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
];

/// iroh declares a `cdylib` crate type, and a test binary that links it exports its every
/// symbol, more than the 65,535 a Windows image may have (MinGW's ld: "export ordinal too
/// large"). An executable needs no exports; the same flags for clippy and the tests keep one
/// build of each dependency.
const RUSTFLAGS: &str = "-C link-arg=-Wl,--exclude-all-symbols";

pub fn run() -> Result<(), String> {
    let (passed, failed) = check()?;
    eprintln!("check-windows: {passed} passed, {failed} failed under Wine");
    if failed > 0 {
        return Err(format!("{failed} tests failed under Wine"));
    }
    Ok(())
}

/// The whole check; the counts of the Wine run.
pub fn check() -> Result<(usize, usize), String> {
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
    let mut test = cargo(&["test", "--no-fail-fast", "--target", TARGET])
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS", RUSTFLAGS)
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER", "wine")
        .env("STUDIO_NETWORK", "local")
        .env("WINEDEBUG", "-all")
        .env("WINEPREFIX", &prefix);
    for krate in UNDER_WINE {
        test = test.args(["-p", krate]);
    }
    let mut why = vec![];
    let (passed, failed, ok) = crate::test::run_counting(test.inner(), &mut why, &mut Vec::new())?;
    for line in why {
        eprintln!("{line}");
    }
    // A test binary that did not build or did not start under Wine counts no test at all.
    if !ok && failed == 0 {
        return Err("the Windows tests did not build or did not run under Wine".into());
    }
    Ok((passed, failed))
}

/// Wine's own prefix, away from the person's, made once; with `bcryptprimitives.dll` when
/// this Wine has none (see `bcryptprimitives.c`).
fn wine_prefix() -> Result<PathBuf, String> {
    let prefix = cache_dir().join("wine");
    let system32 = prefix.join("drive_c/windows/system32");
    if !system32.exists() {
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
