//! Files a pack ships, hashed by content, read through [`crate::files`]: a path that leaves the
//! pack, goes through a link or is not a regular file is refused, so a panel can only point at
//! its own pack's bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::Digest as _;

/// One hashed file a pack ships.
#[derive(Debug, Clone)]
pub struct Asset {
    pub path: PathBuf,
    pub mime: String,
    pub size: u64,
    pub name: String,
}

pub fn mime_for(path: &Path) -> &'static str {
    protocol::media::mime_for(&path.to_string_lossy()).unwrap_or("application/octet-stream")
}

/// Lowercase hex, as the engine prints digests.
pub use hex::encode as hex;

/// The most one shipped file may be: a page's code as the engine's panel cap, pictures and
/// sounds as the protocol's default upload limits, anything else as a picture.
pub fn max_bytes(path: &Path) -> u64 {
    let mime = mime_for(path);
    if matches!(
        mime,
        "text/html" | "text/javascript" | "application/javascript" | "text/css"
    ) {
        crate::MAX_TIER2_BYTES
    } else if mime.starts_with("audio/") {
        protocol::media::AUDIO_MAX_BYTES
    } else {
        protocol::media::IMAGE_MAX_BYTES
    }
}

/// Every file under `dir`, in path order (symlinks included as files, to be checked).
pub fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            let is_dir = std::fs::symlink_metadata(&p)
                .map(|m| m.is_dir())
                .unwrap_or(false);
            if is_dir {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

/// The pack's hashed files, keyed by sha256.
#[derive(Debug, Default, Clone)]
pub struct Store {
    pub root: PathBuf,
    pub by_hash: HashMap<String, Asset>,
}

impl Store {
    pub fn new(root: &Path) -> Self {
        Store {
            root: root.to_path_buf(),
            by_hash: HashMap::new(),
        }
    }

    /// Hashes the pack-relative file `rel` and remembers it. The error is a sentence for
    /// the author.
    pub fn add(&mut self, rel: &str) -> Result<(String, Asset), String> {
        let path = crate::files::path_inside(&self.root, rel)?;
        let bytes = crate::files::read_checked(&path, rel, max_bytes(&path))?;
        let hash = hex(sha2::Sha256::digest(&bytes));
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(rel)
            .to_string();
        let asset = Asset {
            mime: mime_for(&path).into(),
            size: bytes.len() as u64,
            name,
            path,
        };
        self.by_hash.insert(hash.clone(), asset.clone());
        Ok((hash, asset))
    }
}
