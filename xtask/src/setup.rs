//! `cargo xtask setup`: idempotent; says what it did and what was already there.

use std::path::{Path, PathBuf};

use crate::cmd::{cache_dir, cargo, root, Cmd};

const APT_PACKAGES: &[&str] = &[
    "libwebkit2gtk-4.1-dev",
    "libgtk-3-dev",
    "libsoup-3.0-dev",
    "libjavascriptcoregtk-4.1-dev",
    "librsvg2-dev",
    "libayatana-appindicator3-dev",
    "libasound2-dev",
    "libdbus-1-dev",
    "xvfb",
    "xauth",
    "webkit2gtk-driver",
    // A private session bus per test window, with the tests' own notification server on it.
    "dbus-daemon",
    "pkg-config",
    "build-essential",
    "file",
    "fonts-wqy-microhei",
    "fonts-dejavu-core",
    // The real engine the tests run (`../shared/engine`): Debian's Python with venv.
    "python3",
    "python3-venv",
    // axe-core's tarball from the npm registry (axe.rs): fetched, checked, unpacked.
    "curl",
    "ca-certificates",
];

/// The runtime libraries the .deb and .rpm depend on, beside the WebKitGTK 4.1 and GTK 3 ones
/// Tauri's bundler adds itself: (the -dev package above it comes from, Debian name, RPM name).
/// `cargo xtask bundle` writes the packages' Depends from this list and nowhere else.
pub const RUNTIME_DEPENDS: &[(&str, &str, &str)] = &[("libasound2-dev", "libasound2", "alsa-lib")];

/// Debian's rustc-web, assembled privately when rustup cannot add the wasm target.
const DEBIAN_WASM_DEBS: &[&str] = &[
    "rustc-web",
    "libstd-rust-web-dev",
    "libstd-rust-web-1.96",
    "rust-web-src",
    "rust-web-llvm",
    "libllvm22",
    "lld-22",
];

/// How to compile for wasm32-unknown-unknown on this machine.
pub enum WasmToolchain {
    /// The active rustup toolchain has the target.
    Rustup,
    /// Debian's rustc-web under `prefix`, used with rustup's cargo and `-Zbuild-std`.
    Debian { prefix: PathBuf },
}

pub struct Env {
    pub wasm: WasmToolchain,
    pub tools_bin: PathBuf,
    pub engine: crate::engine::Engine,
    /// axe-core's script, for the accessibility checks in the real window.
    pub axe: PathBuf,
}

impl Env {
    pub fn wasm_bindgen(&self) -> PathBuf {
        self.tools_bin.join("wasm-bindgen")
    }
    pub fn tauri_driver(&self) -> PathBuf {
        self.tools_bin.join("tauri-driver")
    }
}

pub fn run() -> Result<Env, String> {
    system_packages()?;
    let wasm = wasm_toolchain()?;
    let tools = cache_dir().join("tools");
    let wasm_bindgen_version = wasm_bindgen_version()?;
    install_tool(
        &tools,
        "wasm-bindgen",
        "wasm-bindgen-cli",
        &wasm_bindgen_version,
    )?;
    install_tool(&tools, "tauri-driver", "tauri-driver", "2")?;
    let engine = crate::engine::ensure()?;
    let axe = crate::axe::ensure(&tools)?;
    Ok(Env {
        wasm,
        tools_bin: tools.join("bin"),
        engine,
        axe,
    })
}

fn is_debian() -> bool {
    Path::new("/etc/debian_version").exists()
}

fn system_packages() -> Result<(), String> {
    ensure_apt(APT_PACKAGES, "system packages")
}

/// Installs whichever of `packages` are missing (Debian/Ubuntu), saying what it did.
pub fn ensure_apt(packages: &[&str], what: &str) -> Result<(), String> {
    if !is_debian() {
        eprintln!(
            "setup: not Debian/Ubuntu; install the equivalents of: {}",
            packages.join(" ")
        );
        return Ok(());
    }
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            Cmd::new("dpkg-query")
                .args(["-W", "-f=${Status}", p])
                .read()
                .is_none_or(|s| !s.contains("install ok installed"))
        })
        .collect();
    if missing.is_empty() {
        eprintln!("setup: {what} already installed");
        return Ok(());
    }
    eprintln!("setup: installing {}", missing.join(" "));
    let sudo: &[&str] = if is_root() { &[] } else { &["sudo"] };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = sudo.to_vec();
        all.push("apt-get");
        all.extend_from_slice(args);
        Cmd::new(all[0])
            .args(&all[1..])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .run()
    };
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend(missing.iter());
    apt(&install)?;
    eprintln!("setup: installed {}", missing.join(" "));
    Ok(())
}

fn is_root() -> bool {
    Cmd::new("id")
        .args(["-u"])
        .read()
        .is_some_and(|u| u.trim() == "0")
}

fn wasm_toolchain() -> Result<WasmToolchain, String> {
    // `STUDIO_WASM=debian` takes the Debian path even where rustup could add the target, so
    // the fallback a rustup-less machine depends on can be exercised anywhere.
    if std::env::var("STUDIO_WASM").as_deref() == Ok("debian") {
        return debian_rustc_web();
    }
    let has_target = || {
        Cmd::new("rustup")
            .args(["target", "list", "--installed"])
            .read()
            .is_some_and(|s| s.lines().any(|l| l.trim() == "wasm32-unknown-unknown"))
    };
    if has_target() {
        eprintln!("setup: rustup already has wasm32-unknown-unknown");
        return Ok(WasmToolchain::Rustup);
    }
    if Cmd::new("rustup")
        .args(["target", "add", "wasm32-unknown-unknown"])
        .run()
        .is_ok()
        && has_target()
    {
        eprintln!("setup: added wasm32-unknown-unknown with rustup");
        return Ok(WasmToolchain::Rustup);
    }
    debian_rustc_web()
}

fn debian_rustc_web() -> Result<WasmToolchain, String> {
    let prefix = cache_dir().join("rustc-web");
    let rustc = prefix.join("usr/bin/rustc");
    let src_link = prefix.join("usr/lib/rustlib/src/rust");
    if rustc.exists() && src_link.exists() {
        eprintln!("setup: Debian rustc-web already at {}", prefix.display());
        return Ok(WasmToolchain::Debian { prefix });
    }
    if !is_debian() {
        return Err("no wasm32 target: run `rustup target add wasm32-unknown-unknown`".into());
    }
    eprintln!(
        "setup: assembling Debian's rustc-web under {}",
        prefix.display()
    );
    let debs = cache_dir().join("debs");
    std::fs::create_dir_all(&debs).map_err(|e| e.to_string())?;
    // A fresh image may have empty package lists even when nothing else was missing.
    Cmd::new("apt-get").args(["update", "-qq"]).run()?;
    Cmd::new("apt-get")
        .args(["download"])
        .args(DEBIAN_WASM_DEBS)
        .dir(&debs)
        .run()?;
    for entry in std::fs::read_dir(&debs).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|x| x == "deb") {
            Cmd::new("dpkg").args(["-x"]).args([&path, &prefix]).run()?;
        }
    }
    // -Zbuild-std looks for the std sources at <sysroot>/lib/rustlib/src/rust.
    let _ = std::fs::remove_file(&src_link);
    // The fallback is Debian's packages, so it only ever runs on Linux.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../../../src/rustc-1.96.0", &src_link)
            .map_err(|e| format!("linking the std sources: {e}"))?;
        Ok(WasmToolchain::Debian { prefix })
    }
    #[cfg(not(unix))]
    {
        let _ = prefix;
        Err("the Debian rustc-web fallback needs Debian".into())
    }
}

/// The wasm-bindgen version the UI's lock file pins; the CLI must match it exactly.
fn wasm_bindgen_version() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("ui/Cargo.lock"))
        .map_err(|e| format!("ui/Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            if let Some(v) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
            {
                return Ok(v.trim_matches('"').to_string());
            }
        }
    }
    Err("ui/Cargo.lock does not pin wasm-bindgen".into())
}

pub fn install_tool(tools: &Path, bin: &str, krate: &str, version: &str) -> Result<(), String> {
    let path = tools.join("bin").join(bin);
    // A major pin (tauri-driver) is satisfied by presence: its binary has no --version.
    let have = if version.len() <= 2 {
        path.exists().then(|| format!("{bin} {version}.x"))
    } else {
        Cmd::new(&path).args(["--version"]).read()
    };
    if let Some(have) = have.filter(|h| h.contains(version)) {
        eprintln!("setup: {bin} already installed ({})", have.trim());
        return Ok(());
    }
    eprintln!(
        "setup: installing {krate} {version} into {}",
        tools.display()
    );
    // Not --locked: one of wasm-bindgen-cli's locked dependencies is not in the registry mirror.
    let version = if version.len() <= 2 {
        format!("^{version}")
    } else {
        format!("={version}")
    };
    cargo(&["install", krate, "--version", &version, "--root"])
        .args([tools])
        .run()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_runtime_dependency_comes_from_a_package_setup_installs() {
        for (dev, _, _) in super::RUNTIME_DEPENDS {
            assert!(
                super::APT_PACKAGES.contains(dev),
                "{dev} is not in APT_PACKAGES"
            );
        }
    }
}
