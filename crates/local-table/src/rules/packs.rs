//! Packs at the table: per-viewer manifests, asset bytes for GET, card lists and the
//! variables world cards define. Reading and checking a pack folder is the `pack` crate's
//! job (shared with the pack bench, so the lint and the table never disagree); audience is
//! resolved here and never rides the wire.

use sha2::Digest as _;
use std::sync::{Arc, RwLock};

use pack::{Pack, Panel};
use serde_json::{json, Value};

use crate::error::Error;
use crate::model::room::{Member, Room};
use crate::model::saved::Var;
use crate::rules::reply::{system_all, system_frame};

/// Reads and checks a pack folder; every problem the pack build would refuse comes back.
pub fn load(dir: &std::path::Path) -> Result<Pack, Error> {
    pack::load(dir).map_err(|problems| Error::Lint(dir.display().to_string(), problems))
}

/// The packs a table serves. Swapped one pack at a time on a hot reload; readers take a snapshot.
pub struct Packs(RwLock<Vec<Arc<Pack>>>);

impl Packs {
    pub fn new(packs: Vec<Arc<Pack>>) -> Self {
        Self(RwLock::new(packs))
    }

    /// Every pack served, as of now.
    pub fn all(&self) -> Vec<Arc<Pack>> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn get(&self, id: &str) -> Option<Arc<Pack>> {
        self.all().into_iter().find(|p| p.id == id)
    }

    /// Serves `fresh` in place of the pack loaded from the same folder (or beside the others).
    pub fn put(&self, fresh: Arc<Pack>) {
        let mut packs = self.0.write().unwrap_or_else(|e| e.into_inner());
        match packs.iter().position(|p| p.dir == fresh.dir) {
            Some(i) => packs[i] = fresh,
            None => packs.push(fresh),
        }
    }
}

/// The module variables of a pack's world cards, as room variables (label in `locale`).
pub fn seed_vars(pack: &Pack, locale: &str, vars: &mut Vec<Var>) {
    for def in &pack.variables {
        if vars.iter().any(|v| v.id == def.id) {
            continue; // values survive a reload
        }
        vars.push(Var {
            id: def.id.clone(),
            label: def.label(locale),
            kind: def.kind.clone(),
            value: def.default.clone(),
            min: def.min,
            max: def.max,
            hidden: def.keeper_only,
        });
    }
}

fn visible(packs: &Packs, enabled: &[String], keeper: bool) -> Vec<Panel> {
    enabled
        .iter()
        .filter_map(|id| packs.get(id))
        .flat_map(|p| p.panels.clone())
        .filter(move |panel| panel.audience.reaches(keeper))
        .collect()
}

/// This viewer's manifest: keeper-only panels never reach a player.
pub fn manifest_frame(packs: &Packs, enabled: &[String], keeper: bool) -> Value {
    let panels: Vec<Value> = visible(packs, enabled, keeper)
        .into_iter()
        .map(|p| p.wire)
        .collect();
    json!({"type": "ui_manifest", "panels": panels})
}

pub fn panel_ids(packs: &Packs, enabled: &[String], keeper: bool) -> Vec<String> {
    visible(packs, enabled, keeper)
        .into_iter()
        .map(|p| p.id)
        .collect()
}

/// `(bytes, mime, name)` for a hash shipped by a pack enabled in the room.
pub fn asset_bytes(
    packs: &Packs,
    enabled: &[String],
    hash: &str,
) -> Option<(Vec<u8>, String, String)> {
    enabled.iter().filter_map(|id| packs.get(id)).find_map(|p| {
        let a = p.assets.get(hash)?;
        // Read as the loader read it (no link, no FIFO, within the cap), and served only while
        // the bytes still are the ones hashed: as the engine re-verifies before serving.
        let max = pack::assets::max_bytes(&a.path);
        let bytes = pack::files::read_checked(&a.path, &a.name, max).ok()?;
        (pack::assets::hex(sha2::Sha256::digest(&bytes)) == hash)
            .then(|| (bytes, a.mime.clone(), a.name.clone()))
    })
}

pub fn cards(packs: &Packs) -> Value {
    let list: Vec<Value> = packs
        .all()
        .into_iter()
        .flat_map(|p| {
            p.cards.clone().into_iter().map(move |c| {
                let file = c.path.rsplit('/').next().unwrap_or(&c.path);
                let stem = file.rsplit_once('.').map(|(s, _)| s).unwrap_or(file);
                json!({"ref": format!("{}/{}", p.id, c.path), "pack": p.id, "name": stem, "kind": c.kind})
            })
        })
        .collect();
    Value::Array(list)
}

/// `.panels enable|disable|list <pack>` (keeper only); pushes every member a fresh manifest.
pub fn panels_command(packs: &Packs, room: &Arc<Room>, member: &Member, rest: &str) {
    let (op, id) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let id = id.trim();
    if op == "list" || op.is_empty() {
        let st = room.lock();
        let all: Vec<String> = packs
            .all()
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
    if packs.get(id).is_none() {
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
    st.broadcast_with(|m| Some(manifest_frame(packs, &enabled, m.is_keeper())));
}
