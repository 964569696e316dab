//! `cargo xtask ui`: the Leptos UI to wasm, packaged by wasm-bindgen into ui/dist.

use std::path::Path;

use crate::cmd::{cargo, root, Cmd};
use crate::setup::{Env, WasmToolchain};

const TARGET: &str = "wasm32-unknown-unknown";

pub fn build(env: &Env) -> Result<(), String> {
    let ui = root().join("ui");
    // A separate target dir so the wasm build never invalidates the native one.
    // Each toolchain keeps its own artifacts: switching never invalidates the other's build.
    let target_dir = match env.wasm {
        WasmToolchain::Rustup => root().join("target/wasm"),
        WasmToolchain::Debian { .. } => root().join("target/wasm-debian"),
    };
    let mut build = cargo(&["build", "--release", "--target", TARGET, "--target-dir"])
        .args([&target_dir])
        .dir(&ui);
    if let WasmToolchain::Debian { prefix } = &env.wasm {
        build = debian_env(build, prefix).args(["-Zbuild-std=std,panic_abort"]);
    }
    build.run()?;

    let dist = ui.join("dist");
    let _ = std::fs::remove_dir_all(&dist);
    std::fs::create_dir_all(&dist).map_err(|e| e.to_string())?;
    let wasm = target_dir.join(TARGET).join("release/studio-ui.wasm");
    Cmd::new(env.wasm_bindgen())
        .args([
            "--target",
            "web",
            "--no-typescript",
            "--out-name",
            "studio_ui",
            "--out-dir",
        ])
        .args([dist.join("pkg").as_path(), wasm.as_path()])
        .run()?;
    for (from, to) in [
        ("index.html", "index.html"),
        ("boot.js", "boot.js"),
        ("styles/studio.css", "studio.css"),
        ("styles/play.css", "play.css"),
        ("styles/templates.css", "templates.css"),
        ("styles/panels.css", "panels.css"),
        ("styles/keeper.css", "keeper.css"),
        ("../assets/icon.png", "icon.png"),
    ] {
        copy(&ui.join(from), &dist.join(to))?;
    }
    copy_dir(&root().join("assets/fonts"), &dist.join("fonts"))?;
    copy_dir(&root().join("assets/icons"), &dist.join("icons"))?;
    eprintln!("ui: built {}", dist.display());
    Ok(())
}

/// rustup's cargo driving Debian's rustc-web (Debian's own cargo lacks libgit2 here).
pub fn debian_env(cmd: Cmd, prefix: &Path) -> Cmd {
    let lib = format!(
        "{}:{}",
        prefix.join("usr/lib/x86_64-linux-gnu").display(),
        prefix.join("usr/lib/llvm-22/lib").display()
    );
    let path = format!(
        "{}:{}",
        std::env::var("PATH").unwrap_or_default(),
        prefix.join("usr/bin").display()
    );
    cmd.env("RUSTC", prefix.join("usr/bin/rustc"))
        .env("RUSTC_BOOTSTRAP", "1")
        .env("LD_LIBRARY_PATH", lib)
        .env("PATH", path)
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copying {}: {e}", from.display()))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(());
    };
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() {
            copy(&path, &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}
