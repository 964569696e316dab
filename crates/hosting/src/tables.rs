//! The hosted tables a profile keeps: one folder each under the profile's `hosted/` folder
//! (keys, rooms, saved story, the engine's endpoint secret), named from the person's name for
//! it. The folder holds `name.txt` (the name as typed), `last-used` (ms since the Unix epoch)
//! and `mode` (`local` or `internet`), so the list reads the same after Studio restarts. Deleting one is armed by typing
//! its name, and only ever removes a folder directly inside `hosted/`.

use std::path::{Path, PathBuf};

/// A hosted table as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosted {
    pub name: String,
    pub dir: PathBuf,
    /// When it was last hosted (ms since the Unix epoch); 0 if never recorded.
    pub last_used_ms: u64,
    /// It was last hosted for this machine only (hosting it again keeps that).
    pub local_only: bool,
}

const NAME: &str = "name.txt";
const LAST_USED: &str = "last-used";
const MODE: &str = "mode";

/// A table's folder name from the name the person gave it.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(40).collect();
    if out.is_empty() {
        "table".into()
    } else {
        out
    }
}

/// Records that table `name` (in `dir`) is hosted now, and how.
pub fn remember(dir: &Path, name: &str, local_only: bool, now_ms: u64) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(NAME), name.trim())?;
    std::fs::write(
        dir.join(MODE),
        if local_only { "local" } else { "internet" },
    )?;
    std::fs::write(dir.join(LAST_USED), now_ms.to_string())
}

/// Every hosted table in `hosted`, the most recently used first. A folder is a table when it
/// holds a keystore or a name (the engine's chosen path and other files beside them are not).
pub fn list(hosted: &Path) -> Vec<Hosted> {
    let Ok(entries) = std::fs::read_dir(hosted) else {
        return Vec::new();
    };
    let mut out: Vec<Hosted> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && (p.join(NAME).is_file() || p.join("keys.toml").is_file()))
        .map(|dir| {
            let name = std::fs::read_to_string(dir.join(NAME))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| {
                    dir.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                });
            let last_used_ms = std::fs::read_to_string(dir.join(LAST_USED))
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            let local_only =
                std::fs::read_to_string(dir.join(MODE)).is_ok_and(|m| m.trim() == "local");
            Hosted {
                name,
                dir,
                last_used_ms,
                local_only,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.last_used_ms
            .cmp(&a.last_used_ms)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

/// Why a delete was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// What was typed is not the table's name.
    NotArmed,
    /// No such table in `hosted/`.
    Unknown,
}

/// The folder to delete for table `name`, when `typed` arms it: exactly the name as the list
/// shows it. Only a folder directly inside `hosted` is ever named.
pub fn to_delete(hosted: &Path, name: &str, typed: &str) -> Result<PathBuf, Refused> {
    let table = list(hosted)
        .into_iter()
        .find(|t| t.name == name)
        .ok_or(Refused::Unknown)?;
    if typed.trim() != table.name {
        return Err(Refused::NotArmed);
    }
    // `list` only yields entries of `hosted`; the check keeps that true if it ever changes.
    if table.dir.parent() != Some(hosted) {
        return Err(Refused::Unknown);
    }
    Ok(table.dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_name_becomes_a_folder_name() {
        assert_eq!(slug("My Table"), "my-table");
        assert_eq!(slug("  ../../etc  "), "etc");
        assert_eq!(slug("///"), "table");
        assert_eq!(slug("Château d'If"), "château-d-if");
    }

    #[test]
    fn the_list_holds_tables_most_recent_first_with_their_names() {
        let hosted = tempfile::tempdir().unwrap();
        let h = hosted.path();
        remember(&h.join(slug("Old Table")), "Old Table", false, 1_000).unwrap();
        remember(&h.join(slug("Friday")), "Friday", true, 5_000).unwrap();
        // A table hosted before names were kept: its folder's name, never used.
        std::fs::create_dir_all(h.join("legacy")).unwrap();
        std::fs::write(h.join("legacy/keys.toml"), "").unwrap();
        // Not tables: a file and a folder with neither name nor keystore.
        std::fs::write(h.join("engine.txt"), "/x").unwrap();
        std::fs::create_dir_all(h.join("stray")).unwrap();
        let names: Vec<_> = list(h)
            .into_iter()
            .map(|t| (t.name, t.last_used_ms, t.local_only))
            .collect();
        assert_eq!(
            names,
            vec![
                ("Friday".into(), 5_000, true),
                ("Old Table".into(), 1_000, false),
                ("legacy".into(), 0, false)
            ]
        );
        assert!(list(&h.join("nowhere")).is_empty());
    }

    #[test]
    fn delete_is_armed_only_by_the_exact_name() {
        let hosted = tempfile::tempdir().unwrap();
        let h = hosted.path();
        remember(&h.join("friday"), "Friday", false, 1).unwrap();
        assert_eq!(to_delete(h, "Friday", "friday"), Err(Refused::NotArmed));
        assert_eq!(to_delete(h, "Friday", ""), Err(Refused::NotArmed));
        assert_eq!(to_delete(h, "Saturday", "Saturday"), Err(Refused::Unknown));
        assert_eq!(to_delete(h, "Friday", " Friday "), Ok(h.join("friday")));
    }
}
