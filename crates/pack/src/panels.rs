//! `ui/panels.yaml`: each panel's id, title, slot, tier and audience, checked and turned into
//! its manifest entry (audience kept aside: it never rides the wire).

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::assets::{files_under, Store};
use crate::blocks::{self, Ctx};
use crate::problem::Problems;
use crate::yaml::Node;
use crate::{Audience, Panel};

/// Most panels one pack may ship.
pub const MAX_PANELS: usize = 16;
/// Most bytes of tier-2 code (every file of every tier-2 panel) one pack may ship.
pub const MAX_TIER2_BYTES: u64 = 2 * 1024 * 1024;

pub const SLOTS: &[&str] = &["sidebar", "tray", "modal"];

/// The panels of one panels file, added to `out` (the pack's panels so far: ids are unique and
/// the caps count across every file the pack lists, as in the engine's build).
pub fn panels(
    pack_id: &str,
    file: &str,
    doc: &Node,
    store: &mut Store,
    problems: &mut Problems,
    out: &mut Vec<Panel>,
    tier2_bytes: &mut u64,
) {
    let Some(list) = doc.get("panels") else {
        if !doc.is_null() {
            problems.at(
                file,
                doc,
                "no `panels:` list",
                "start the file with `panels:` and one item per panel",
            );
        }
        return;
    };
    let Some(items) = list.as_seq() else {
        problems.at(
            file,
            list,
            format!("panels must be a list, found {}", list.kind_name()),
            "write one `- id: …` item per panel",
        );
        return;
    };
    if !items.is_empty() && out.len() + items.len() > MAX_PANELS {
        problems.at(
            file,
            &items[MAX_PANELS.saturating_sub(out.len()).min(items.len() - 1)],
            format!(
                "{} panels: a pack may ship at most {MAX_PANELS}",
                out.len() + items.len()
            ),
            "merge panels or split the pack",
        );
    }
    let before = *tier2_bytes;
    for item in items {
        if let Some(panel) = panel(pack_id, file, item, store, problems, tier2_bytes) {
            if out.iter().any(|p| p.id == panel.id) {
                problems.at(
                    file,
                    item.get("id").unwrap_or(item),
                    format!("panel id \"{}\" is used twice in the pack", panel.id),
                    "give every panel its own id",
                );
            }
            out.push(panel);
        }
    }
    if *tier2_bytes > MAX_TIER2_BYTES && before <= MAX_TIER2_BYTES {
        problems.at(
            file,
            list,
            format!(
                "tier-2 code is {} KiB: a pack may ship at most {} KiB",
                *tier2_bytes / 1024,
                MAX_TIER2_BYTES / 1024
            ),
            "shrink the tier-2 pages (minify, move pictures to image blocks) or drop a page",
        );
    }
}

fn id_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn panel(
    pack_id: &str,
    file: &str,
    item: &Node,
    store: &mut Store,
    problems: &mut Problems,
    tier2_bytes: &mut u64,
) -> Option<Panel> {
    if item.as_map().is_none() {
        problems.at(
            file,
            item,
            format!("a panel must be a mapping, found {}", item.kind_name()),
            "write `- id: notes` with title, slot, tier and blocks below it",
        );
        return None;
    }
    let pid = match item.get("id") {
        Some(n) if n.as_str().map(id_ok).unwrap_or(false) => {
            n.as_str().unwrap_or_default().to_string()
        }
        Some(n) => {
            problems.at(
                file,
                n,
                "a panel id is letters, digits, - and _",
                "write e.g. `id: clue-board`",
            );
            return None;
        }
        None => {
            problems.at(
                file,
                item,
                "panel without id",
                "add `id:` (letters, digits, - and _)",
            );
            return None;
        }
    };
    let id = format!("{pack_id}/{pid}");
    let mut wire = Map::new();
    wire.insert("id".into(), json!(id));
    let title = match item.get("title") {
        None => json!({"en": pid}),
        Some(t) => match t.to_json() {
            Value::String(s) => json!({"en": s}),
            Value::Object(m) if m.values().all(Value::is_string) && !m.is_empty() => {
                Value::Object(m)
            }
            _ => {
                problems.at(
                    file,
                    t,
                    "title must be text or a locale map",
                    "write `title: {en: \"Clues\", zh: \"线索\"}`",
                );
                json!({"en": pid})
            }
        },
    };
    wire.insert("title".into(), title);
    let slot = match item.get("slot") {
        None => "sidebar".to_string(),
        Some(s) => match s.as_str() {
            Some(v) if SLOTS.contains(&v) => v.to_string(),
            _ => {
                problems.at(
                    file,
                    s,
                    "slot must be sidebar, tray or modal",
                    "write `slot: sidebar`",
                );
                "sidebar".into()
            }
        },
    };
    wire.insert("slot".into(), json!(slot));
    let tier = match item.get("tier") {
        None => 1,
        Some(t) => match t.to_json().as_i64() {
            Some(n @ (1 | 2)) => n,
            _ => {
                problems.at(
                    file,
                    t,
                    "tier must be 1 (template blocks) or 2 (a page of its own)",
                    "write `tier: 1` or `tier: 2`",
                );
                1
            }
        },
    };
    wire.insert("tier".into(), json!(tier));
    let audience = match item.get("audience").map(|a| (a, a.as_str())) {
        None | Some((_, Some("all"))) => Audience::All,
        Some((_, Some("keeper"))) => Audience::Keeper,
        Some((_, Some("player" | "players"))) => Audience::Players,
        Some((a, _)) => {
            problems.at(
                file,
                a,
                "audience must be all, keeper or players",
                "write `audience: keeper` to hide the panel from players",
            );
            Audience::All
        }
    };
    let mut ctx = Ctx {
        file,
        store,
        problems,
    };
    if tier == 2 {
        if let Some(b) = item.get("blocks") {
            ctx.problems.at(
                file,
                b,
                "a tier-2 panel draws its own page: blocks are ignored",
                "move these blocks to `fallback:` (shown where pages cannot run) or set `tier: 1`",
            );
        }
        let entry = item.get("entry");
        let Some(rel) = entry.and_then(Node::as_str) else {
            ctx.problems.at(
                file,
                entry.unwrap_or(item),
                "a tier-2 panel needs `entry:` (its HTML page)",
                "add `entry: panels/<id>/index.html`",
            );
            return None;
        };
        let (hash, asset) = match ctx.store.add(rel) {
            Ok(v) => v,
            Err(e) => {
                ctx.problems.at(
                    file,
                    entry.unwrap_or(item),
                    format!("entry {e}"),
                    "point entry at the panel's HTML file inside the pack",
                );
                return None;
            }
        };
        wire.insert("entry".into(), json!({"hash": hash, "size": asset.size}));
        wire.insert(
            "assets".into(),
            Value::Array(page_assets(
                &mut ctx,
                entry.unwrap_or(item),
                rel,
                tier2_bytes,
            )),
        );
        let fallback = match item.get("fallback") {
            None => Value::Null,
            Some(b) if b.is_null() => Value::Null,
            Some(b) => blocks::blocks(&mut ctx, b),
        };
        wire.insert("fallback".into(), fallback);
    } else {
        if let Some(e) = item.get("entry") {
            ctx.problems.at(
                file,
                e,
                "a tier-1 panel runs no code: entry is ignored",
                "set `tier: 2` for a page, or remove `entry:`",
            );
        }
        let b = match item.get("blocks") {
            Some(b) => blocks::blocks(&mut ctx, b),
            None => json!([]),
        };
        wire.insert("blocks".into(), b);
    }
    Some(Panel {
        id,
        audience,
        wire: Value::Object(wire),
    })
}

/// Every file beside the entry, addressed relative to the entry's directory (each page is a
/// self-contained static root).
fn page_assets(ctx: &mut Ctx, at: &Node, entry: &str, tier2_bytes: &mut u64) -> Vec<Value> {
    let entry_dir = Path::new(entry)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let root = ctx.store.root.clone();
    let mut files = Vec::new();
    files_under(&root.join(&entry_dir), &mut files);
    let mut out = Vec::new();
    for f in files {
        let Ok(rel_to_pack) = f.strip_prefix(&root) else {
            continue;
        };
        let rel = rel_to_pack.to_string_lossy().replace('\\', "/");
        match ctx.store.add(&rel) {
            Ok((hash, asset)) => {
                *tier2_bytes += asset.size;
                let wire_path = f.strip_prefix(root.join(&entry_dir)).unwrap_or(&f);
                out.push(json!({"path": wire_path.to_string_lossy().replace('\\', "/"), "hash": hash, "size": asset.size, "mime": asset.mime}));
            }
            Err(e) => ctx.problems.at(
                ctx.file,
                at,
                format!("page file {e}"),
                "keep every file of the page inside the pack folder",
            ),
        }
    }
    out
}
