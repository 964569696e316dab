//! axe-core, the accessibility engine the e2e suite injects into the real window (#29): one
//! pinned release from the npm registry, checked against the registry's own integrity hash,
//! unpacked into the tools dir. No Node.js is needed: axe runs inside the WebView.

use std::path::{Path, PathBuf};

use crate::cmd::Cmd;

pub const VERSION: &str = "4.14.1";
/// The tarball's SHA-512 (the registry's `dist.integrity`, in hex).
const SHA512: &str = "1477dafa598d8d065f273d6af302aa203c02e83131707b7fa648cd41bd3d6b734f8c22a0dab86ee6a6f64b8afbe804b214d36db85a2826965edfb3a0b9d546b5";

/// `axe.min.js` of the pinned release, installed when missing.
pub fn ensure(tools: &Path) -> Result<PathBuf, String> {
    let dir = tools.join(format!("axe-core-{VERSION}"));
    let script = dir.join("axe.min.js");
    if script.is_file() {
        eprintln!("setup: axe-core {VERSION} already installed");
        return Ok(script);
    }
    eprintln!(
        "setup: installing axe-core {VERSION} into {}",
        dir.display()
    );
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let tgz = dir.join("axe-core.tgz");
    let url = format!("https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz");
    Cmd::new("curl")
        .args(["-fsSL", "--retry", "3", "-o"])
        .args([&tgz])
        .args([&url])
        .run()?;
    let sum = Cmd::new("sha512sum")
        .args([&tgz])
        .read()
        .ok_or("sha512sum did not run")?;
    if sum.split_whitespace().next() != Some(SHA512) {
        let _ = std::fs::remove_file(&tgz);
        return Err(format!(
            "axe-core {VERSION} from {url} does not match its pinned hash (got {sum})"
        ));
    }
    Cmd::new("tar")
        .args(["-xzf"])
        .args([&tgz])
        .args(["-C"])
        .args([&dir])
        .args(["--strip-components=1", "package/axe.min.js"])
        .run()?;
    let _ = std::fs::remove_file(&tgz);
    script
        .is_file()
        .then(|| script.clone())
        .ok_or_else(|| format!("{} missing after unpacking", script.display()))
}
