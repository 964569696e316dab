//! Pack source folders (`pack.yaml` + `ui/panels.yaml` + assets) → per-viewer manifests.
//! Audience is resolved here and never rides the wire; asset digests are computed
//! from the files, so a panel can only point at bytes its own pack ships.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};
use sha2::Digest as _;

use crate::commands::{system_all, system_frame};
use crate::keystore::hex;
use crate::room::{Member, Room};
use crate::table::Table;
use crate::Error;

/// One hashed file a pack ships.
#[derive(Debug, Clone)]
pub struct Asset {
    pub path: PathBuf,
    pub mime: String,
    pub size: u64,
    pub name: String,
}

#[derive(Debug, Clone)]
pub struct Panel {
    /// `<packId>/<panelId>`.
    pub id: String,
    pub keeper_only: bool,
    pub players_only: bool,
    /// The manifest entry, audience already stripped.
    pub wire: Value,
}

#[derive(Debug, Clone)]
pub struct Pack {
    pub id: String,
    pub dir: PathBuf,
    pub panels: Vec<Panel>,
    /// sha256 → file, for GET.
    pub assets: HashMap<String, Asset>,
    pub cards: Vec<String>,
}

pub fn mime_for(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
        .as_str()
    {
        "html" | "htm" => "text/html",
        "js" | "mjs" => "text/javascript",
        "css" => "text/css",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "mp3" => "audio/mpeg",
        "txt" | "md" => "text/plain",
        _ => "application/octet-stream",
    }
}

fn yaml(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_saphyr::from_str::<Value>(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }
}

impl Pack {
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let err = |m: String| Error::Pack(dir.display().to_string(), m);
        let meta = yaml(&dir.join("pack.yaml")).map_err(err)?;
        let id = meta["id"]
            .as_str()
            .ok_or_else(|| err("pack.yaml has no id".into()))?
            .to_string();
        let panels_rel = meta["contents"]["panels"]
            .as_str()
            .unwrap_or("ui/panels.yaml");
        let mut pack = Pack {
            id: id.clone(),
            dir: dir.to_path_buf(),
            panels: vec![],
            assets: HashMap::new(),
            cards: vec![],
        };
        let panels_path = dir.join(panels_rel);
        if panels_path.exists() {
            let doc = yaml(&panels_path).map_err(err)?;
            let list = doc["panels"].as_array().cloned().unwrap_or_default();
            for raw in list {
                let panel = pack.load_panel(&raw).map_err(err)?;
                pack.panels.push(panel);
            }
        }
        let mut cards = Vec::new();
        files_under(&dir.join("cards"), &mut cards);
        pack.cards = cards
            .iter()
            .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
            .collect();
        Ok(pack)
    }

    /// Hashes a pack file and remembers it for GET.
    fn asset(&mut self, rel: &str) -> Result<(String, Asset), String> {
        if rel.contains("..") || rel.starts_with('/') {
            return Err(format!("asset path escapes the pack: {rel}"));
        }
        let path = self.dir.join(rel);
        let bytes = std::fs::read(&path).map_err(|e| format!("{rel}: {e}"))?;
        let hash = hex(&sha2::Sha256::digest(&bytes));
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
        self.assets.insert(hash.clone(), asset.clone());
        Ok((hash, asset))
    }

    /// Rewrites `src` on image/map_pin blocks (recursing into `repeat`) to `{hash, mime, size}`.
    fn resolve_blocks(&mut self, blocks: &Value) -> Result<Value, String> {
        let Some(list) = blocks.as_array() else {
            return Ok(blocks.clone());
        };
        let mut out = Vec::new();
        for block in list {
            out.push(self.resolve_block(block)?);
        }
        Ok(Value::Array(out))
    }

    fn resolve_block(&mut self, block: &Value) -> Result<Value, String> {
        let Some(obj) = block.as_object() else {
            return Ok(block.clone());
        };
        let mut obj = obj.clone();
        if let Some(src) = obj.remove("src") {
            let src = src.as_str().ok_or("src must be a path")?;
            let (hash, asset) = self.asset(src)?;
            obj.insert("hash".into(), json!(hash));
            obj.insert("mime".into(), json!(asset.mime));
            obj.insert("size".into(), json!(asset.size));
        }
        if let Some(inner) = obj.get("repeat").and_then(|r| r.get("block")).cloned() {
            let resolved = self.resolve_block(&inner)?;
            obj["repeat"]["block"] = resolved;
        }
        Ok(Value::Object(obj))
    }

    fn load_panel(&mut self, raw: &Value) -> Result<Panel, String> {
        let pid = raw["id"].as_str().ok_or("panel without id")?;
        let id = format!("{}/{pid}", self.id);
        let audience = raw["audience"].as_str().unwrap_or("all");
        let tier = raw["tier"].as_i64().unwrap_or(1);
        let mut wire = Map::new();
        wire.insert("id".into(), json!(id));
        let title = match &raw["title"] {
            Value::String(s) => json!({"en": s}),
            Value::Null => json!({"en": pid}),
            other => other.clone(),
        };
        wire.insert("title".into(), title);
        wire.insert(
            "slot".into(),
            json!(raw["slot"].as_str().unwrap_or("sidebar")),
        );
        wire.insert("tier".into(), json!(tier));
        if tier == 2 {
            let entry = raw["entry"].as_str().ok_or("tier-2 panel without entry")?;
            let (hash, asset) = self.asset(entry)?;
            wire.insert("entry".into(), json!({"hash": hash, "size": asset.size}));
            // Every file beside the entry, addressed relative to the entry's directory.
            let entry_dir = Path::new(entry)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let mut files = Vec::new();
            files_under(&self.dir.join(&entry_dir), &mut files);
            let mut assets = Vec::new();
            for f in files {
                let rel_to_pack = f.strip_prefix(&self.dir).map_err(|e| e.to_string())?;
                let rel = rel_to_pack.to_string_lossy().replace('\\', "/");
                let (h, a) = self.asset(&rel)?;
                let wire_path = f
                    .strip_prefix(self.dir.join(&entry_dir))
                    .map_err(|e| e.to_string())?;
                assets.push(json!({"path": wire_path.to_string_lossy().replace('\\', "/"), "hash": h, "size": a.size, "mime": a.mime}));
            }
            wire.insert("assets".into(), Value::Array(assets));
            let fallback = match raw.get("fallback") {
                None | Some(Value::Null) => Value::Null,
                Some(b) => self.resolve_blocks(b)?,
            };
            wire.insert("fallback".into(), fallback);
        } else {
            let blocks = self.resolve_blocks(raw.get("blocks").unwrap_or(&json!([])))?;
            wire.insert("blocks".into(), blocks);
        }
        Ok(Panel {
            id,
            keeper_only: audience == "keeper",
            players_only: matches!(audience, "player" | "players"),
            wire: Value::Object(wire),
        })
    }
}

fn visible(table: &Table, enabled: &[String], keeper: bool) -> Vec<Panel> {
    enabled
        .iter()
        .filter_map(|id| table.pack(id))
        .flat_map(|p| p.panels.clone())
        .filter(move |panel| {
            if keeper {
                !panel.players_only
            } else {
                !panel.keeper_only
            }
        })
        .collect()
}

/// This viewer's manifest: keeper-only panels never reach a player.
pub fn manifest_frame(table: &Table, enabled: &[String], keeper: bool) -> Value {
    let panels: Vec<Value> = visible(table, enabled, keeper)
        .into_iter()
        .map(|p| p.wire)
        .collect();
    json!({"type": "ui_manifest", "panels": panels})
}

pub fn panel_ids(table: &Table, enabled: &[String], keeper: bool) -> Vec<String> {
    visible(table, enabled, keeper)
        .into_iter()
        .map(|p| p.id)
        .collect()
}

/// `(bytes, mime, name)` for a hash shipped by a pack enabled in the room.
pub fn asset_bytes(
    table: &Table,
    enabled: &[String],
    hash: &str,
) -> Option<(Vec<u8>, String, String)> {
    enabled
        .iter()
        .filter_map(|id| table.pack(id))
        .find_map(|p| {
            let a = p.assets.get(hash)?;
            Some((std::fs::read(&a.path).ok()?, a.mime.clone(), a.name.clone()))
        })
}

pub fn cards(table: &Table) -> Value {
    let list: Vec<Value> = table
        .packs()
        .into_iter()
        .flat_map(|p| {
            p.cards.clone().into_iter().map(move |c| {
                let stem = c.rsplit_once('.').map(|(s, _)| s).unwrap_or(&c);
                json!({"ref": format!("{}/{c}", p.id), "pack": p.id, "name": stem, "kind": "character"})
            })
        })
        .collect();
    Value::Array(list)
}

/// `.panels enable|disable|list <pack>` (keeper only); pushes every member a fresh manifest.
pub fn panels_command(table: &Table, room: &Arc<Room>, member: &Member, rest: &str) {
    let (op, id) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let id = id.trim();
    if op == "list" || op.is_empty() {
        let st = room.lock();
        let all: Vec<String> = table
            .packs()
            .iter()
            .map(|p| {
                format!(
                    "{}{}",
                    p.id,
                    if st.saved.packs.contains(&p.id) {
                        " (enabled)"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        return member.send(&system_frame(&format!("Packs: {}", all.join(", "))));
    }
    if !member.is_keeper() {
        return member.send(&system_frame("Only the keeper can change panels."));
    }
    if table.pack(id).is_none() {
        return member.send(&system_frame(&format!("Unknown pack: {id}")));
    }
    let mut st = room.lock();
    match op {
        "enable" => {
            if !st.saved.packs.iter().any(|p| p == id) {
                st.saved.packs.push(id.to_string());
            }
            system_all(&st, &format!("Panels enabled: {id}"));
        }
        "disable" => {
            st.saved.packs.retain(|p| p != id);
            system_all(&st, &format!("Panels disabled: {id}"));
        }
        _ => return member.send(&system_frame("Usage: .panels enable|disable <pack>")),
    }
    let enabled = st.saved.packs.clone();
    st.broadcast_with(|m| Some(manifest_frame(table, &enabled, m.is_keeper())));
}
