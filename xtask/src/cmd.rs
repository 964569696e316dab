//! Running commands with their output shown, and the paths xtask works with.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

/// Where downloaded toolchains and installed tools live, shared by every clone.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOREWEAVER_STUDIO_CACHE") {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache"));
    base.join("loreweaver-studio")
}

pub fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root"))
}

pub struct Cmd(Command);

impl Cmd {
    pub fn new(program: impl AsRef<OsStr>) -> Self {
        let mut c = Command::new(program);
        c.current_dir(root());
        Cmd(c)
    }
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Self {
        self.0.args(args);
        self
    }
    pub fn env(mut self, k: impl AsRef<OsStr>, v: impl AsRef<OsStr>) -> Self {
        self.0.env(k, v);
        self
    }
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.0.current_dir(dir);
        self
    }
    pub fn inner(&mut self) -> &mut Command {
        &mut self.0
    }
    /// Runs with inherited output; a non-zero exit is an error naming the command.
    pub fn run(mut self) -> Result<(), String> {
        let shown = format!("{:?}", self.0).replace('"', "");
        eprintln!("$ {shown}");
        let status = self.0.status().map_err(|e| format!("{shown}: {e}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{shown}` failed ({status})"))
        }
    }
    /// Runs quietly and returns stdout, or None if it could not run or failed.
    pub fn read(mut self) -> Option<String> {
        let out = self.0.stderr(Stdio::null()).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// `cargo` from the same toolchain that runs xtask.
pub fn cargo<S: AsRef<OsStr>>(args: &[S]) -> Cmd {
    Cmd::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())).args(args)
}

/// `$LOREWEAVER_SHARED`, else `shared/` beside the checkout (as the protocol tests find it).
pub fn shared_dir() -> PathBuf {
    std::env::var_os("LOREWEAVER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"))
}
