//! What the workspace's tests share, written once: where the repository and `../shared` are,
//! reading a shared file, copying a folder, the engine `cargo xtask setup` installed and (in
//! [`engine`]) that engine served on loopback.
//!
//! Every helper panics with what it was looking for: a missing shared file or engine is a
//! failure everywhere, never a skip. std only, so any crate (wasm-built ones too) can take it
//! as a dev-dependency without pulling anything in.

use std::path::{Path, PathBuf};

pub mod engine;

/// The repository root (this crate lives at `<repo>/crates/test-support`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/test-support sits two levels under the repository")
        .to_path_buf()
}

/// `$LOREWEAVER_SHARED`, else the `shared` directory beside the checkout (`<x>/main` →
/// `<x>/shared`): the conformance tables, the engine captures, the engine itself.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("LOREWEAVER_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => repo()
            .parent()
            .expect("the repository has a parent directory")
            .join("shared"),
    }
}

/// The path of `rel` under [`shared_dir`]; panics if there is no such file or folder.
pub fn shared(rel: &str) -> PathBuf {
    let path = shared_dir().join(rel);
    assert!(
        path.exists(),
        "{} is missing: the tests need the shared checkout beside the repository \
         (or LOREWEAVER_SHARED pointing at it)",
        path.display()
    );
    path
}

/// The text of `rel` under [`shared_dir`]; panics naming the file if it cannot be read.
pub fn read_shared(rel: &str) -> String {
    let path = shared(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Copies the folder `from` into `to` (created), recursively; panics on any error.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("creating {}: {e}", to.display()));
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("reading {}: {e}", from.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("reading {}: {e}", from.display()));
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        // Follows a symlink to a folder, as `Path::is_dir` does: its contents are copied.
        if source.is_dir() {
            copy_dir(&source, &target);
        } else {
            std::fs::copy(&source, &target).unwrap_or_else(|e| {
                panic!("copying {} to {}: {e}", source.display(), target.display())
            });
        }
    }
}

/// The unpacked engine (holding `app.py`) and its Python: `$LOREWEAVER_ENGINE_DIR` and
/// `$LOREWEAVER_ENGINE_PYTHON` (what `cargo xtask test` sets), else the newest install under
/// setup's cache dir. Missing is a failure, never a skip.
pub fn engine_install() -> (PathBuf, PathBuf) {
    let var = |k: &str| std::env::var_os(k).map(PathBuf::from);
    let (dir, python) = match (
        var("LOREWEAVER_ENGINE_DIR"),
        var("LOREWEAVER_ENGINE_PYTHON"),
    ) {
        (Some(d), Some(p)) => (d, p),
        _ => {
            let cache = var("LOREWEAVER_STUDIO_CACHE").unwrap_or_else(|| {
                var("XDG_CACHE_HOME")
                    .unwrap_or_else(|| var("HOME").unwrap_or_default().join(".cache"))
                    .join("loreweaver-studio")
            });
            let home = std::fs::read_dir(cache.join("engine"))
                .ok()
                .and_then(|d| d.flatten().map(|e| e.path()).max())
                .unwrap_or_else(|| {
                    panic!(
                        "no engine under {}: run `cargo xtask setup`",
                        cache.join("engine").display()
                    )
                });
            (home.join("loreweaver"), home.join("venv/bin/python"))
        }
    };
    assert!(
        dir.join("app.py").is_file(),
        "no app.py in {}: run `cargo xtask setup`",
        dir.display()
    );
    (dir, python)
}

/// The engine's Python, run in the engine's folder with it on `PYTHONPATH`: a script there
/// imports the engine's own modules (`from core.lorecard import …`).
pub fn engine_python() -> std::process::Command {
    let (dir, python) = engine_install();
    let mut command = std::process::Command::new(python);
    command.current_dir(&dir).env("PYTHONPATH", &dir);
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_is_the_workspace_root() {
        assert!(repo().join("Cargo.toml").is_file(), "{}", repo().display());
        assert!(repo().join("crates/test-support").is_dir());
    }

    #[test]
    fn copy_dir_copies_nested_files() {
        let base = std::env::temp_dir().join(format!("test-support-copy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("from/inner")).unwrap();
        std::fs::write(base.join("from/a.txt"), "a").unwrap();
        std::fs::write(base.join("from/inner/b.txt"), "b").unwrap();
        copy_dir(&base.join("from"), &base.join("to"));
        assert_eq!(std::fs::read_to_string(base.join("to/a.txt")).unwrap(), "a");
        assert_eq!(
            std::fs::read_to_string(base.join("to/inner/b.txt")).unwrap(),
            "b"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    #[should_panic(expected = "is missing")]
    fn a_missing_shared_file_panics() {
        shared("no/such/file-anywhere.json");
    }
}
