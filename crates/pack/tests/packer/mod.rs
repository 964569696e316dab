//! Runs the real engine's packer on a folder and reads its verdict; shared by the engine tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use pack::engine_verdict::{self, EngineVerdict};
use test_support::{engine_install, repo};

/// `app.py --pack <dir> --out <tmp> --json` in the engine's folder. Output the verdict reader
/// cannot read fails the test with that output; it is never taken as a verdict.
pub fn packer(dir: &Path) -> EngineVerdict {
    let (engine, python) = engine_install();
    let out = tempfile::tempdir().expect("a temp dir for the build");
    let run = Command::new(&python)
        .arg("app.py")
        .arg("--pack")
        .arg(dir)
        .arg("--out")
        .arg(out.path().join("pack.zip"))
        .arg("--json")
        .current_dir(&engine)
        .env("TRPG_DATA_DIR", out.path().join("data"))
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    engine_verdict::read(
        &String::from_utf8_lossy(&run.stdout),
        &String::from_utf8_lossy(&run.stderr),
        run.status.code(),
    )
    .unwrap_or_else(|e| panic!("packing {}: {e}", dir.display()))
}

/// Every folder in the repository with a `pack.yaml` (not under target/, .git or node_modules).
pub fn repository_packs() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        for e in entries {
            let e = e.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
            let path = e.path();
            let name = e.file_name();
            if name == "target" || name == ".git" || name == "node_modules" {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if name == "pack.yaml" {
                out.push(dir.to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo(), &mut out);
    out.sort();
    out
}
