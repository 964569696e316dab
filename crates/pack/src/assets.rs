//! Files a pack ships, hashed by content. A path that leaves the pack (`..`, absolute, or a
//! symlink pointing outside) is refused, so a panel can only point at its own pack's bytes.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

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
        let rel_path = Path::new(rel);
        let escapes = rel.is_empty()
            || rel_path.is_absolute()
            || rel_path.components().any(|c| {
                matches!(
                    c,
                    Component::ParentDir | Component::RootDir | Component::Prefix(_)
                )
            });
        if escapes {
            return Err(format!("\"{rel}\" is outside the pack"));
        }
        let path = self.root.join(rel_path);
        // A symlink may point anywhere: what counts is where the bytes really are.
        if let (Ok(real), Ok(root)) = (path.canonicalize(), self.root.canonicalize()) {
            if !real.starts_with(&root) {
                return Err(format!("\"{rel}\" leads outside the pack (a link)"));
            }
        }
        let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!("\"{rel}\" does not exist"),
            _ => format!("\"{rel}\" cannot be read: {e}"),
        })?;
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
