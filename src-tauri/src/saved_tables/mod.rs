//! Saved tables: name, ticket, room and role in a plain JSON file; the invite key — a secret —
//! in the OS keyring, or where no keyring answers, in a file only the user can read (0600).

mod commands;
mod follow;

pub use commands::*;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

const KEYRING_SERVICE: &str = "dev.loreweaver.studio";

/// A table the player joined before. Carries no secret.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SavedTable {
    pub id: String,
    pub name: String,
    pub ticket: String,
    pub room: String,
    pub role: String,
    pub last_used_ms: u64,
    /// Why the table last refused this key (revoked, deleted), until a join succeeds again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

pub use ipc::KeyStorage;

#[derive(Clone)]
pub struct SavedTables {
    dir: PathBuf,
}

impl SavedTables {
    pub fn new(dir: PathBuf) -> Self {
        SavedTables { dir }
    }

    fn list_path(&self) -> PathBuf {
        self.dir.join("tables.json")
    }

    fn key_file(&self) -> PathBuf {
        self.dir.join("keys.json")
    }

    /// Whether the keyring answers (it may block briefly: call off the UI thread).
    pub fn storage(&self) -> KeyStorage {
        KeyStorage {
            keyring: keyring_answers(),
            file: self.key_file().display().to_string(),
        }
    }

    /// Most recently used first.
    pub fn list(&self) -> Vec<SavedTable> {
        let mut tables: Vec<SavedTable> = std::fs::read(self.list_path())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        tables.sort_by_key(|t| std::cmp::Reverse(t.last_used_ms));
        tables
    }

    fn write_list(&self, tables: &[SavedTable]) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
        let tmp = self.list_path().with_extension("json.tmp");
        let json = serde_json::to_vec_pretty(tables).map_err(|e| e.to_string())?;
        std::fs::write(&tmp, json).map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, self.list_path()).map_err(|e| e.to_string())
    }

    /// Records a successful join (and its key) under a stable id for ticket + room.
    pub fn remember(&self, ticket: &str, room: &str, role: &str, key: &str) -> Result<(), String> {
        let id = crate::seat::table_id(ticket, room);
        let mut tables = self.list();
        tables.retain(|t| t.id != id);
        tables.push(SavedTable {
            id: id.clone(),
            name: room.to_string(),
            ticket: ticket.trim().to_string(),
            room: room.to_string(),
            role: role.to_string(),
            last_used_ms: now_ms(),
            refused: None,
        });
        self.write_list(&tables)?;
        self.store_key(&id, key)
    }

    /// The table refused this saved key: the connect screen says so beside it.
    pub fn mark_refused(&self, id: &str, reason: &str) -> Result<(), String> {
        let mut tables = self.list();
        let Some(t) = tables.iter_mut().find(|t| t.id == id) else {
            return Ok(());
        };
        t.refused = Some(reason.to_string());
        self.write_list(&tables)
    }

    pub fn forget(&self, id: &str) -> Result<(), String> {
        let mut tables = self.list();
        tables.retain(|t| t.id != id);
        self.write_list(&tables)?;
        if keyring_enabled() {
            if let Ok(entry) = keyring::Entry::new(KEYRING_SERVICE, id) {
                let _ = entry.delete_credential();
            }
        }
        let mut keys = self.file_keys();
        if keys.remove(id).is_some() {
            self.write_file_keys(&keys)?;
        }
        Ok(())
    }

    /// The saved table and its key, for a one-click rejoin.
    pub fn get(&self, id: &str) -> Option<(SavedTable, String)> {
        let table = self.list().into_iter().find(|t| t.id == id)?;
        let from_keyring = keyring_enabled()
            .then(|| keyring::Entry::new(KEYRING_SERVICE, id).and_then(|e| e.get_password()))
            .and_then(Result::ok);
        let key = from_keyring.or_else(|| self.file_keys().remove(id))?;
        Some((table, key))
    }

    fn store_key(&self, id: &str, key: &str) -> Result<(), String> {
        let in_keyring = keyring_enabled()
            && keyring::Entry::new(KEYRING_SERVICE, id)
                .and_then(|e| e.set_password(key))
                .is_ok();
        if in_keyring {
            // No plaintext copy may outlive a move into the keyring.
            let mut keys = self.file_keys();
            if keys.remove(id).is_some() {
                self.write_file_keys(&keys)?;
            }
            return Ok(());
        }
        let mut keys = self.file_keys();
        keys.insert(id.to_string(), key.to_string());
        self.write_file_keys(&keys)
    }

    fn file_keys(&self) -> BTreeMap<String, String> {
        std::fs::read(self.key_file())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn write_file_keys(&self, keys: &BTreeMap<String, String>) -> Result<(), String> {
        use std::io::Write;
        std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
        let tmp = self.key_file().with_extension("json.tmp");
        let _ = std::fs::remove_file(&tmp);
        // The user's alone from the start (0600, or an owner-only ACL on Windows): the key is
        // never readable by anyone else, even briefly.
        let mut file = platform::create_new_private(&tmp).map_err(|e| e.to_string())?;
        file.write_all(&serde_json::to_vec(keys).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, self.key_file()).map_err(|e| e.to_string())
    }
}

/// `STUDIO_KEYRING=off` keeps keys in the 0600 file (tests, and machines whose keyring prompts).
fn keyring_enabled() -> bool {
    std::env::var("STUDIO_KEYRING").as_deref() != Ok("off")
}

/// A keyring that answers a lookup (even "no such entry") can store keys.
fn keyring_answers() -> bool {
    keyring_enabled()
        && keyring::Entry::new(KEYRING_SERVICE, "studio-probe")
            .is_ok_and(|e| matches!(e.get_password(), Ok(_) | Err(keyring::Error::NoEntry)))
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_lists_and_forgets_with_a_private_key_file() {
        // Never the developer's real keyring from a test.
        std::env::set_var("STUDIO_KEYRING", "off");
        let dir = std::env::temp_dir().join(format!("studio-saved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let saved = SavedTables::new(dir.clone());
        saved
            .remember(" endpointabc ", "crypt", "player", "s3cret")
            .unwrap();
        let list = saved.list();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].ticket, "endpointabc");
        let listed = std::fs::read_to_string(dir.join("tables.json")).unwrap();
        assert!(!listed.contains("s3cret"), "the list never holds a key");
        let (table, key) = saved.get(&list[0].id).expect("saved");
        assert_eq!((table.room.as_str(), key.as_str()), ("crypt", "s3cret"));
        #[cfg(unix)]
        if let Ok(meta) = std::fs::metadata(dir.join("keys.json")) {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        }
        saved.forget(&list[0].id).unwrap();
        assert!(saved.list().is_empty());
        assert!(saved.get(&table.id).is_none());
    }
}
