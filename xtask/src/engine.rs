//! The real engine for the tests (`../shared/engine/`): its source snapshot unpacked under the
//! cache dir and installed into a virtual environment of its own, once per snapshot.
//! Studio never ships or copies it; tests run its packer (and, later, its server) on loopback.

use std::path::{Path, PathBuf};

use crate::cmd::{cache_dir, shared_dir, Cmd};

/// Where the tests find the engine: the unpacked folder holding `app.py`, and its Python.
pub struct Engine {
    pub dir: PathBuf,
    pub python: PathBuf,
}

/// The engine's optional dependencies the tests need: `ejs` is QuickJS, which runs hook
/// scripts and full EJS (without it the engine leaves hooks inert, and the forge's hook check
/// could not be held against it).
const EXTRAS: &str = "[ejs]";

pub fn ensure() -> Result<Engine, String> {
    let tarball = snapshot()?;
    let stem = tarball
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".tar.gz"))
        .ok_or_else(|| format!("{}: not a .tar.gz", tarball.display()))?
        .to_string();
    let home = cache_dir().join("engine").join(&stem);
    let dir = home.join("loreweaver");
    let venv = home.join("venv");
    let python = venv.join("bin/python");
    let done = venv.join(".studio-installed");
    // The marker names what was installed: an install from before the `ejs` extra is redone.
    let installed = format!("{stem} {EXTRAS}");
    let current = std::fs::read_to_string(&done).is_ok_and(|s| s == installed);
    if current && python.exists() && dir.join("app.py").exists() {
        eprintln!(
            "setup: the engine ({stem}) already installed at {}",
            home.display()
        );
        return Ok(Engine { dir, python });
    }
    eprintln!(
        "setup: installing the engine ({stem}) into {}",
        home.display()
    );
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).map_err(|e| format!("{}: {e}", home.display()))?;
    Cmd::new("tar")
        .args(["xzf"])
        .args([&tarball])
        .args(["-C"])
        .args([&home])
        .run()?;
    if !dir.join("app.py").exists() {
        return Err(format!("{} holds no loreweaver/app.py", tarball.display()));
    }
    // Debian's own Python (setup installs python3-venv): the same on every fresh machine.
    Cmd::new("/usr/bin/python3")
        .args(["-m", "venv"])
        .args([&venv])
        .run()?;
    Cmd::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .args([format!("{}{EXTRAS}", dir.display())])
        .run()?;
    std::fs::write(&done, &installed).map_err(|e| e.to_string())?;
    eprintln!("setup: installed the engine ({stem})");
    Ok(Engine { dir, python })
}

fn snapshot() -> Result<PathBuf, String> {
    let folder = shared_dir().join("engine");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&folder)
        .map_err(|e| format!("the engine snapshot folder {}: {e}", folder.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".tar.gz")))
        .collect();
    found.sort();
    found
        .pop()
        .ok_or_else(|| format!("no engine snapshot (*.tar.gz) in {}", folder.display()))
}

impl Engine {
    /// What the tests read to find it.
    pub fn env(&self) -> [(&'static str, &Path); 2] {
        [
            ("LOREWEAVER_ENGINE_DIR", self.dir.as_path()),
            ("LOREWEAVER_ENGINE_PYTHON", self.python.as_path()),
        ]
    }
}
