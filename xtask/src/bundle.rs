//! `cargo xtask bundle`: a release Studio packaged as a .deb and an .rpm by Tauri's bundler
//! (tauri-cli 2.x, installed into the tools dir like the other tools), then proven: the .deb is
//! unpacked into a scratch root (`dpkg -x`) and the binary found there is driven through the same
//! WebDriver harness as the debug build (connect screen, the demo table's turn, a module panel).
//! AppImage is left out: its tools are downloaded from outside the package registries.

use std::path::{Path, PathBuf};

use crate::cmd::{cache_dir, cargo, root, Cmd};
use crate::setup;
use crate::test::Xvfb;
use crate::ui;

pub fn run() -> Result<(), String> {
    let env = setup::run()?;
    let tools = cache_dir().join("tools");
    setup::install_tool(&tools, "cargo-tauri", "tauri-cli", "2")?;
    let tauri = tools.join("bin/cargo-tauri");
    ui::build(&env)?;

    // Every icon size the packages carry, from the one source image.
    let icons = root().join("target/bundle-icons");
    let _ = std::fs::remove_dir_all(&icons);
    Cmd::new(&tauri)
        .args(["icon", "assets/icon.png", "--output"])
        .args([&icons])
        .run()?;
    let sizes = [
        "32x32.png",
        "64x64.png",
        "128x128.png",
        "128x128@2x.png",
        "icon.png",
    ];
    let icon_paths: Vec<String> = sizes
        .iter()
        .map(|s| icons.join(s))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    let overrides = serde_json::json!({"bundle": {"icon": icon_paths}}).to_string();

    let bundle_dir = root().join("target/release/bundle");
    let _ = std::fs::remove_dir_all(&bundle_dir);
    Cmd::new(&tauri)
        .dir(root().join("src-tauri"))
        .args([
            "build",
            "--ci",
            "--bundles",
            "deb,rpm",
            "--config",
            &overrides,
        ])
        .run()?;
    let deb = only_file(&bundle_dir.join("deb"), "deb")?;
    let rpm = only_file(&bundle_dir.join("rpm"), "rpm")?;

    // The package as a person gets it: unpacked, its own binary, its own demo files.
    let scratch = root().join("target/bundle-root");
    let _ = std::fs::remove_dir_all(&scratch);
    Cmd::new("dpkg-deb")
        .args(["-x"])
        .args([&deb, &scratch])
        .run()?;
    let installed = scratch.join("usr/bin/loreweaver-studio");
    if !installed.exists() {
        return Err(format!(
            "{} holds no usr/bin/loreweaver-studio",
            deb.display()
        ));
    }
    Cmd::new(&installed).args(["--version"]).run()?;
    smoke(&env, &installed)?;

    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let mib = |n: u64| n as f64 / (1024.0 * 1024.0);
    println!("bundle: {} ({:.1} MiB)", deb.display(), mib(size(&deb)));
    println!("bundle: {} ({:.1} MiB)", rpm.display(), mib(size(&rpm)));
    println!(
        "bundle: release binary {:.1} MiB",
        mib(size(&root().join("target/release/loreweaver-studio")))
    );
    println!("bundle: the installed binary passed its smoke test");
    Ok(())
}

/// The release smoke test (ignored in `cargo xtask test`) against `app`.
fn smoke(env: &setup::Env, app: &Path) -> Result<(), String> {
    let display = Xvfb::start()?;
    let out = root().join("target/e2e-release");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let result = cargo(&[
        "test",
        "-p",
        "studio-e2e",
        "--test",
        "release_smoke",
        "--",
        "--ignored",
        "--nocapture",
    ])
    .env("DISPLAY", &display.name)
    .env("STUDIO_APP", app)
    .env("TAURI_DRIVER", env.tauri_driver())
    .env("STUDIO_E2E_OUT", &out)
    .env("STUDIO_NETWORK", "local")
    .run();
    drop(display);
    result
}

fn only_file(dir: &Path, ext: &str) -> Result<PathBuf, String> {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(format!(
            "expected one .{ext} in {}, found {found:?}",
            dir.display()
        )),
    }
}
