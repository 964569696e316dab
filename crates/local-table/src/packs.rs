//! Packs at the table: per-viewer manifests, asset bytes for GET, card lists and the
//! variables world cards define. Reading and checking a pack folder is the `pack` crate's
//! job (shared with the pack bench, so the lint and the table never disagree); audience is
//! resolved here and never rides the wire.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::commands::{system_all, system_frame};
use crate::room::{Member, Room, Var};
use crate::table::Table;

pub use pack::{Audience, Pack, Panel, Problem};

/// Reads and checks a pack folder; every problem the pack build would refuse comes back.
pub fn load(dir: &std::path::Path) -> Result<Pack, crate::Error> {
    pack::load(dir).map_err(|problems| crate::Error::Lint(dir.display().to_string(), problems))
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

fn visible(table: &Table, enabled: &[String], keeper: bool) -> Vec<Panel> {
    enabled
        .iter()
        .filter_map(|id| table.pack(id))
        .flat_map(|p| p.panels.clone())
        .filter(move |panel| panel.audience.reaches(keeper))
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
                let file = c.path.rsplit('/').next().unwrap_or(&c.path);
                let stem = file.rsplit_once('.').map(|(s, _)| s).unwrap_or(file);
                json!({"ref": format!("{}/{}", p.id, c.path), "pack": p.id, "name": stem, "kind": c.kind})
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
