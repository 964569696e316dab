//! What an engine is, and where Studio looks for one.
//!
//! An engine is either an executable (the engine's packaged server, or its installed
//! `loreweaver` console script), or a source folder holding `app.py` with its virtual
//! environment's Python. The search order: the engine the person chose before (remembered per
//! profile), then `loreweaver-server` or `loreweaver` on `PATH`, then none.

use std::path::{Path, PathBuf};

/// The executables looked for on `PATH`, in order.
pub const PATH_NAMES: &[&str] = &["loreweaver-server", "loreweaver"];

/// An engine Studio can start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    /// An executable run as is (`<exe> --serve …`).
    Executable(PathBuf),
    /// A source checkout: `<python> app.py …` in `dir`.
    Source { dir: PathBuf, python: PathBuf },
}

impl Engine {
    /// The path the person would recognize (the executable or the folder).
    pub fn path(&self) -> &Path {
        match self {
            Engine::Executable(p) => p,
            Engine::Source { dir, .. } => dir,
        }
    }

    /// The program and the arguments that come before the engine's own (`--serve`, …).
    pub fn command(&self) -> (PathBuf, Vec<String>) {
        match self {
            Engine::Executable(p) => (p.clone(), Vec::new()),
            Engine::Source { python, .. } => (python.clone(), vec!["app.py".into()]),
        }
    }

    /// Where the engine runs from: the source folder, or none for an executable.
    pub fn workdir(&self) -> Option<&Path> {
        match self {
            Engine::Executable(_) => None,
            Engine::Source { dir, .. } => Some(dir),
        }
    }
}

/// How the engine in use was found (said to the person).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// The one the person chose (remembered for this profile).
    Chosen,
    /// An executable on `PATH`.
    OnPath,
}

/// Why a path is not an engine, as a sentence for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnEngine(pub String);

impl std::fmt::Display for NotAnEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A virtual environment's Python, inside the environment's folder (`python -m venv` lays it
/// out per platform).
pub const VENV_PYTHON: &str = if cfg!(windows) {
    "Scripts\\python.exe"
} else {
    "bin/python"
};

/// Where a source folder's Python may be: its own `.venv` or `venv`, or a `venv` beside it (the
/// layout of an engine unpacked next to its environment).
fn venv_pythons(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![
        dir.join(".venv").join(VENV_PYTHON),
        dir.join("venv").join(VENV_PYTHON),
    ];
    if let Some(parent) = dir.parent() {
        out.push(parent.join("venv").join(VENV_PYTHON));
        out.push(parent.join(".venv").join(VENV_PYTHON));
    }
    out
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    // Windows runs a file by its extension (the usual `PATHEXT` ones), not a mode bit.
    #[cfg(not(unix))]
    {
        let runs = |x: &std::ffi::OsStr| {
            ["exe", "com", "bat", "cmd"]
                .iter()
                .any(|e| x.eq_ignore_ascii_case(e))
        };
        path.is_file() && path.extension().is_some_and(runs)
    }
}

/// Reads `path` as an engine: a folder with `app.py` and its virtual environment's Python, or
/// an executable file. Anything else gets a sentence saying what is wrong.
pub fn inspect(path: &Path) -> Result<Engine, NotAnEngine> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err(NotAnEngine("no path was given".into()));
    }
    if !path.exists() {
        return Err(NotAnEngine(format!("{shown} does not exist")));
    }
    if path.is_dir() {
        if !path.join("app.py").is_file() {
            return Err(NotAnEngine(format!(
                "{shown} is a folder without the engine's app.py: choose the engine's source folder or its executable"
            )));
        }
        let python = venv_pythons(path)
            .into_iter()
            .find(|p| is_executable(p))
            .ok_or_else(|| {
                NotAnEngine(format!(
                    "{shown} holds app.py but no virtual environment (.venv or venv with bin/python): install the engine into one first"
                ))
            })?;
        return Ok(Engine::Source {
            dir: path.to_path_buf(),
            python,
        });
    }
    if !is_executable(path) {
        return Err(NotAnEngine(format!("{shown} is not an executable file")));
    }
    Ok(Engine::Executable(path.to_path_buf()))
}

/// The first `loreweaver-server` or `loreweaver` on `path_var` (a `PATH` value; `.exe` added
/// on Windows).
pub fn on_path(path_var: &str) -> Option<PathBuf> {
    PATH_NAMES.iter().find_map(|name| {
        let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
        std::env::split_paths(path_var)
            .map(|dir| dir.join(&file))
            .find(|p| is_executable(p))
    })
}

/// The engine to use: the remembered choice when it is still an engine, else one on `PATH`.
pub fn discover(remembered: Option<&Path>, path_var: &str) -> Option<(Engine, Found)> {
    if let Some(engine) = remembered.and_then(|p| inspect(p).ok()) {
        return Some((engine, Found::Chosen));
    }
    on_path(path_var)
        .and_then(|p| inspect(&p).ok())
        .map(|e| (e, Found::OnPath))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An executable file at `path` (on Windows its name must end in `.exe`).
    fn exe(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "#!/bin/sh\necho 1.2.3\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    #[test]
    fn a_source_folder_needs_app_py_and_its_venv() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("loreweaver");
        std::fs::create_dir_all(&dir).unwrap();
        let e = inspect(&dir).unwrap_err();
        assert!(e.0.contains("without the engine's app.py"), "{e}");
        std::fs::write(dir.join("app.py"), "").unwrap();
        let e = inspect(&dir).unwrap_err();
        assert!(e.0.contains("no virtual environment"), "{e}");
        // The layout setup makes: the venv beside the unpacked folder.
        exe(&t.path().join("venv").join(VENV_PYTHON));
        assert_eq!(
            inspect(&dir).unwrap(),
            Engine::Source {
                dir: dir.clone(),
                python: t.path().join("venv").join(VENV_PYTHON)
            }
        );
        // Its own .venv wins.
        exe(&dir.join(".venv").join(VENV_PYTHON));
        let Engine::Source { python, .. } = inspect(&dir).unwrap() else {
            panic!("a source engine")
        };
        assert_eq!(python, dir.join(".venv").join(VENV_PYTHON));
    }

    #[test]
    fn a_file_must_be_executable_and_a_path_must_exist() {
        let t = tempfile::tempdir().unwrap();
        let plain = t.path().join("notes.txt");
        std::fs::write(&plain, "x").unwrap();
        assert!(inspect(&plain).unwrap_err().0.contains("not an executable"));
        assert!(inspect(&t.path().join("nope"))
            .unwrap_err()
            .0
            .contains("does not exist"));
        assert!(inspect(Path::new("")).is_err());
        let server = t
            .path()
            .join(format!("loreweaver-server{}", std::env::consts::EXE_SUFFIX));
        exe(&server);
        assert_eq!(inspect(&server).unwrap(), Engine::Executable(server));
    }

    #[test]
    fn the_remembered_choice_comes_before_path_then_none() {
        let t = tempfile::tempdir().unwrap();
        let bin = t.path().join("bin");
        let x = std::env::consts::EXE_SUFFIX;
        let chosen = t.path().join(format!("chosen/loreweaver{x}"));
        exe(&chosen);
        let path_var = bin.to_string_lossy().into_owned();
        assert_eq!(discover(None, &path_var), None);
        // `loreweaver` alone is found; `loreweaver-server` is preferred beside it.
        exe(&bin.join(format!("loreweaver{x}")));
        assert_eq!(
            discover(None, &path_var),
            Some((
                Engine::Executable(bin.join(format!("loreweaver{x}"))),
                Found::OnPath
            ))
        );
        exe(&bin.join(format!("loreweaver-server{x}")));
        assert_eq!(
            discover(None, &path_var),
            Some((
                Engine::Executable(bin.join(format!("loreweaver-server{x}"))),
                Found::OnPath
            ))
        );
        assert_eq!(
            discover(Some(&chosen), &path_var),
            Some((Engine::Executable(chosen.clone()), Found::Chosen))
        );
        // A remembered engine that went away falls back to PATH.
        std::fs::remove_file(&chosen).unwrap();
        assert_eq!(discover(Some(&chosen), &path_var).unwrap().1, Found::OnPath);
    }
}
