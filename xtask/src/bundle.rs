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

    // Every icon size the packages carry is kept in src-tauri/icons (named in tauri.conf.json)
    // and must be what assets/icon.png makes (`cargo xtask icons`).
    crate::icons::check()?;
    // The packages are named for the package (`loreweaver-studio_0.1.0_amd64.deb`), not the
    // window title, so the README's install lines match them; Depends come from setup's list.
    let deb_depends: Vec<&str> = setup::RUNTIME_DEPENDS.iter().map(|d| d.1).collect();
    let rpm_depends: Vec<&str> = setup::RUNTIME_DEPENDS.iter().map(|d| d.2).collect();
    let overrides = serde_json::json!({
        "productName": "loreweaver-studio",
        "bundle": {
            "linux": {"deb": {"depends": deb_depends}, "rpm": {"depends": rpm_depends}}
        }
    })
    .to_string();

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
    // The README's own install lines, taken literally: each must name exactly one package, and
    // that package is what gets unpacked and proven (a throwaway root, not a real install).
    let deb = readme_package("sudo apt install ")?;
    let rpm = readme_package("sudo dnf install ")?;
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
    let control = Cmd::new("dpkg-deb")
        .args(["-f"])
        .args([&deb])
        .args(["Package", "Depends"])
        .read()
        .unwrap_or_default();
    println!("bundle: {} says:\n{}", deb.display(), control.trim());
    rpm_unpacks(&rpm)?;
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
        "e2e",
        "--",
        "--ignored",
        "--nocapture",
        // The scenario's module in the one e2e binary.
        "release_smoke::",
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

/// The one file the README's `<prefix>./target/…/name_*_arch.ext` line matches.
fn readme_package(prefix: &str) -> Result<PathBuf, String> {
    let readme = std::fs::read_to_string(root().join("README.md")).map_err(|e| e.to_string())?;
    let pattern = readme
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix))
        .and_then(|rest| rest.split_whitespace().next())
        .ok_or_else(|| format!("README.md has no `{prefix}` line"))?;
    let pattern = Path::new(pattern.trim_start_matches("./"));
    let dir = root().join(pattern.parent().unwrap_or(Path::new(".")));
    let name = pattern.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|f| glob_matches(name, f))
        })
        .map(|e| e.path())
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(format!(
            "the README's `{prefix}{}` matches {found:?} in {}, not one package",
            pattern.display(),
            dir.display()
        )),
    }
}

/// `*` matches any run of characters; everything else matches itself.
fn glob_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len())
                    .filter(|&i| name.is_char_boundary(head.len() + i))
                    .any(|i| glob_matches(tail, &name[head.len() + i..]))
        }
    }
}

/// The .rpm unpacked the way a throwaway install would (`rpm2cpio | cpio`), holding the binary.
fn rpm_unpacks(rpm: &Path) -> Result<(), String> {
    setup::ensure_apt(&["rpm2cpio", "cpio"], "rpm2cpio and cpio")?;
    let scratch = root().join("target/bundle-root-rpm");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let script = format!(
        "rpm2cpio '{}' | cpio -idm --quiet",
        rpm.display().to_string().replace('\'', "'\\''")
    );
    Cmd::new("sh").args(["-c", &script]).dir(&scratch).run()?;
    if !scratch.join("usr/bin/loreweaver-studio").exists() {
        return Err(format!(
            "{} holds no usr/bin/loreweaver-studio",
            rpm.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn the_readme_globs_match_the_package_names_and_nothing_else() {
        let deb = "loreweaver-studio_*_amd64.deb";
        let rpm = "loreweaver-studio-*.x86_64.rpm";
        assert!(glob_matches(deb, "loreweaver-studio_0.1.0_amd64.deb"));
        assert!(glob_matches(rpm, "loreweaver-studio-0.1.0-1.x86_64.rpm"));
        assert!(!glob_matches(deb, "Loreweaver Studio_0.1.0_amd64.deb"));
        assert!(!glob_matches(rpm, "Loreweaver Studio-0.1.0-1.x86_64.rpm"));
        assert!(!glob_matches(deb, "loreweaver-studio_0.1.0_amd64.deb.sig"));
    }
}
