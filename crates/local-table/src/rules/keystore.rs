//! The engine's keystore: a TOML file with one `["<key>"]` table per access key.
//!
//! Keys are secrets: nothing here logs a key, and the admin roster only ever shows
//! a masked form plus a stable non-secret id (first 16 hex of sha256(key)).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rand::Rng;
use serde::{Deserialize, Serialize};
use sha1::Digest as _;

use crate::error::Error;
use crate::model::ids::{hex, new_id};

/// One access key's binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyEntry {
    pub room: String,
    #[serde(default)]
    pub name: String,
    #[serde(default = "player")]
    pub role: String,
}

fn player() -> String {
    "player".into()
}

/// Where the table's keys live.
#[derive(Clone)]
pub enum KeySource {
    /// The engine's TOML file; admin mints/updates rewrite it atomically.
    File(PathBuf),
    /// Keys held only in memory (tests, throwaway tables): `(key, entry)` pairs.
    Memory(Vec<(String, KeyEntry)>),
}

/// Keys are secrets: `Debug` shows where they live and how many, never one of them.
impl std::fmt::Debug for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeySource::File(path) => f.debug_tuple("File").field(path).finish(),
            KeySource::Memory(keys) => f
                .debug_tuple("Memory")
                .field(&format_args!("{} keys", keys.len()))
                .finish(),
        }
    }
}

/// The member id the engine derives from a key: `tui:` + first 8 hex of sha1(key).
pub fn member_id(key: &str) -> String {
    let digest = sha1::Sha1::digest(key.as_bytes());
    format!("tui:{}", &hex(digest)[..8])
}

/// The stable, non-secret id the admin roster names a key by.
pub fn key_id(key: &str) -> String {
    let digest = sha2::Sha256::digest(key.as_bytes());
    hex(digest)[..16].to_string()
}

/// `abcd...wxyz`, like the engine; short keys are fully hidden.
pub fn mask(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 10 {
        return "****".into();
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}...{tail}")
}

/// A fresh 24-character key from the OS-seeded thread RNG.
pub fn mint_secret() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..24)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The live keystore. One mutex serializes every read-modify-write so two
/// concurrent mints can never both write a file that lacks the other's key.
pub struct Keystore {
    path: Option<PathBuf>,
    keys: Mutex<BTreeMap<String, KeyEntry>>,
}

impl Keystore {
    pub fn open(source: &KeySource) -> Result<Self, Error> {
        match source {
            KeySource::Memory(pairs) => Ok(Self {
                path: None,
                keys: Mutex::new(pairs.iter().cloned().collect()),
            }),
            KeySource::File(path) => {
                let keys = if path.exists() {
                    read_file(path)?
                } else {
                    BTreeMap::new()
                };
                Ok(Self {
                    path: Some(path.clone()),
                    keys: Mutex::new(keys),
                })
            }
        }
    }

    /// Looks a key up, re-reading the file first so a key minted or deleted by
    /// another process is honoured (the engine refreshes on every join too).
    pub fn lookup(&self, key: &str) -> Option<KeyEntry> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = &self.path {
            if let Ok(fresh) = read_file(path) {
                *keys = fresh;
            }
        }
        keys.get(key).cloned()
    }

    /// The entry whose derived member id is `id`, if it is still bound to `room`.
    pub fn by_member(&self, id: &str, room: &str) -> Option<KeyEntry> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter()
            .find(|(k, e)| e.room == room && member_id(k) == id)
            .map(|(_, e)| e.clone())
    }

    /// Every `(key, entry)` bound to `room`, in file order.
    pub fn room_keys(&self, room: &str) -> Vec<(String, KeyEntry)> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter()
            .filter(|(_, e)| e.room == room)
            .map(|(k, e)| (k.clone(), e.clone()))
            .collect()
    }

    /// Applies `change` to the key map and persists it atomically, all under the lock.
    /// The change sees the file's current contents, so an outside edit is never clobbered.
    pub fn update<T>(
        &self,
        change: impl FnOnce(&mut BTreeMap<String, KeyEntry>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = &self.path {
            if path.exists() {
                *keys = read_file(path)?;
            }
        }
        let mut next = keys.clone();
        let out = change(&mut next)?;
        if let Some(path) = &self.path {
            write_atomic(path, &next)?;
        }
        *keys = next;
        Ok(out)
    }

    /// Adds a key (used by the demo and by tests); returns the cleartext key.
    pub fn add(&self, entry: KeyEntry) -> Result<String, Error> {
        let secret = mint_secret();
        let stored = secret.clone();
        self.update(move |keys| {
            keys.insert(stored, entry);
            Ok(())
        })?;
        Ok(secret)
    }
}

fn read_file(path: &Path) -> Result<BTreeMap<String, KeyEntry>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Keys(format!("{}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| Error::Keys(format!("{}: {e}", path.display())))
}

/// Write to a temp file in the same directory, fsync, then rename over the old file:
/// a crash leaves either the old or the new roster, never a torn one.
fn write_atomic(path: &Path, keys: &BTreeMap<String, KeyEntry>) -> Result<(), Error> {
    use std::io::Write as _;
    let mut text = String::from("# Loreweaver access keys. Secrets: keep this file private.\n");
    for (key, entry) in keys {
        let mut table = BTreeMap::new();
        table.insert(key.clone(), entry.clone());
        text.push('\n');
        text.push_str(&toml::to_string(&table).map_err(|e| Error::Keys(e.to_string()))?);
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let dir = dir.unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::Keys(e.to_string()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("keys"),
        new_id()
    ));
    let result = (|| {
        // Keys are secrets: the file is the owner's alone from the moment it exists.
        let mut file = platform::create_new_private(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| Error::Keys(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_masks() {
        assert!(member_id("demo-keeper-key").starts_with("tui:"));
        assert_eq!(member_id("x").len(), 12);
        assert_eq!(key_id("x").len(), 16);
        assert_eq!(mask("VHdoK7dilhokOYvWBgl9qmA6"), "VHdo...qmA6");
    }

    #[test]
    fn file_round_trip_keeps_every_key() {
        let dir = std::env::temp_dir().join(format!("lt-keys-{}", new_id()));
        let path = dir.join("keys.toml");
        let store = Keystore::open(&KeySource::File(path.clone())).unwrap();
        let a = store
            .add(KeyEntry {
                room: "r".into(),
                name: "A".into(),
                role: "keeper".into(),
            })
            .unwrap();
        let b = store
            .add(KeyEntry {
                room: "r".into(),
                name: "B".into(),
                role: "player".into(),
            })
            .unwrap();
        let reread = Keystore::open(&KeySource::File(path)).unwrap();
        assert_eq!(reread.lookup(&a).unwrap().role, "keeper");
        assert_eq!(reread.lookup(&b).unwrap().name, "B");
        let _ = std::fs::remove_dir_all(dir);
    }
}
