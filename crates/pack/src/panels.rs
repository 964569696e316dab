//! `ui/panels.yaml`: each panel's id, title, slot and audience, and its blocks (tier 1) or its
//! page (tier 2: entry, declared assets, fallback), checked by the engine's rules
//! (`core/panels.py`) and turned into its manifest entry (audience kept aside: it never rides
//! the wire). The tier follows from `entry`, as in the engine.

use serde_json::{json, Map, Value};

use crate::assets::Store;
use crate::blocks::{self, Ctx};
use crate::problem::Problems;
use crate::yaml::Node;
use crate::{Audience, Panel};

/// Most panels one pack may ship.
pub const MAX_PANELS: usize = 16;
/// Most bytes of tier-2 code (every file of every tier-2 panel) one pack may ship.
pub const MAX_TIER2_BYTES: u64 = 2 * 1024 * 1024;

pub const SLOTS: &[&str] = &["sidebar", "tray", "modal"];
/// `MAX_UI_LABEL_CHARS`: the longest panel title (per locale).
pub const MAX_TITLE_CHARS: usize = 120;

fn title_text_ok(s: &str) -> bool {
    !s.trim().is_empty() && s.chars().count() <= MAX_TITLE_CHARS
}

/// The panels of one panels file, added to `out` (the pack's panels so far: ids are unique and
/// the caps count across every file the pack lists, as in the engine's build).
pub fn panels(
    pack_id: &str,
    file: &str,
    doc: &Node,
    store: &mut Store,
    problems: &mut Problems,
    out: &mut Vec<Panel>,
) {
    let Some(list) = doc.get("panels") else {
        // An empty document too: the engine refuses a listed panels file without panels.
        problems.at(
            file,
            doc,
            "panels.yaml root must be a mapping with a `panels` list",
            "start the file with `panels:` and one item per panel",
        );
        return;
    };
    if let Some(entries) = doc.as_map() {
        for (k, _) in entries.iter().filter(|(k, _)| k.as_str() != Some("panels")) {
            problems.at(
                file,
                k,
                format!("unknown keys ['{}']", k.as_str().unwrap_or("?")),
                "a panels file holds only `panels:`",
            );
        }
    }
    let Some(items) = list.as_seq().filter(|l| !l.is_empty()) else {
        problems.at(
            file,
            list,
            match list.as_seq() {
                Some(_) => "panels: must be a non-empty list".to_string(),
                None => format!(
                    "panels: must be a non-empty list, found {}",
                    list.kind_name()
                ),
            },
            "write one `- id: …` item per panel, or take the file out of `contents.panels`",
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
    for item in items {
        if let Some(panel) = panel(pack_id, file, item, store, problems) {
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
}

/// The keys a panel may have (`core/panels.py` `_parse_panel`).
const REQUIRED: &[&str] = &["id", "title", "slot"];
const OPTIONAL: &[&str] = &["audience", "blocks", "entry", "assets", "fallback"];
/// `MAX_PANEL_EXTRA_ASSETS`: files a page may ship beside its entry.
pub const MAX_EXTRA_ASSETS: usize = 8;
/// `MAX_PANEL_BLOCKS`.
pub const MAX_BLOCKS: usize = 32;

fn panel(
    pack_id: &str,
    file: &str,
    item: &Node,
    store: &mut Store,
    problems: &mut Problems,
) -> Option<Panel> {
    let Some(entries) = item.as_map() else {
        problems.at(
            file,
            item,
            format!("a panel must be a mapping, found {}", item.kind_name()),
            "write `- id: notes` with title, slot and blocks below it",
        );
        return None;
    };
    for (k, _) in entries {
        let name = k.as_str().unwrap_or("?");
        if !REQUIRED.contains(&name) && !OPTIONAL.contains(&name) {
            let hint = if name == "tier" {
                "the tier follows from `entry:` (a page of its own makes it tier 2): delete `tier:`"
            } else {
                "a panel has id, title, slot, audience, and blocks (tier 1) or entry, assets and fallback (tier 2)"
            };
            problems.at(file, k, format!("unknown keys ['{name}']"), hint);
        }
    }
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|k| *k != "id" && item.get(k).is_none())
        .collect();
    if !missing.is_empty() {
        problems.at(
            file,
            item,
            format!("missing {missing:?}").replace('"', "'"),
            "every panel names its `title` and its `slot` (sidebar, tray or modal)",
        );
    }
    let pid = match item.get("id") {
        Some(n) if n.as_str().is_some_and(crate::manifest::is_slug) => {
            n.as_str().unwrap_or_default().to_string()
        }
        Some(n) => {
            problems.at(
                file,
                n,
                "a panel id must be a lowercase slug ([a-z0-9-], max 64)",
                "write e.g. `id: clue-board`",
            );
            return None;
        }
        None => {
            problems.at(
                file,
                item,
                "panel without id",
                "add `id:` (a lowercase slug: a-z, 0-9 and -)",
            );
            return None;
        }
    };
    let id = format!("{pack_id}/{pid}");
    let mut wire = Map::new();
    wire.insert("id".into(), json!(id));
    let title = match item.get("title") {
        None => json!({"en": pid}),
        // The engine's title: plain text or an en/zh map, each non-empty and at most
        // MAX_TITLE_CHARS, never a binding.
        Some(t) => match t.to_json() {
            Value::String(s) if title_text_ok(&s) => json!({"en": s.trim()}),
            Value::Object(m)
                if !m.is_empty()
                    && m.iter().all(|(k, v)| {
                        (k == "en" || k == "zh") && v.as_str().is_some_and(title_text_ok)
                    }) =>
            {
                Value::Object(m)
            }
            _ => {
                problems.at(
                    file,
                    t,
                    format!("title: must be a plain string or en/zh mapping (no bindings), each non-empty and at most {MAX_TITLE_CHARS} characters"),
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
    // The engine derives the tier: a panel with an entry page is tier 2.
    let tier = if item.get("entry").is_some_and(|e| !e.is_null()) {
        2
    } else {
        1
    };
    wire.insert("tier".into(), json!(tier));
    let audience = match item.get("audience").map(|a| (a, a.as_str())) {
        None | Some((_, Some("all"))) => Audience::All,
        Some((_, Some("keeper"))) => Audience::Keeper,
        Some((_, Some("player"))) => Audience::Players,
        Some((a, v)) => {
            problems.at(
                file,
                a,
                "audience must be one of ['all', 'player', 'keeper']",
                if v == Some("players") {
                    "write `audience: player` (the engine's word)"
                } else {
                    "write `audience: keeper` to hide the panel from players"
                },
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
        tier2(&mut ctx, item, &mut wire)?;
    } else {
        for key in ["assets", "fallback"] {
            if let Some(n) = item.get(key) {
                ctx.problems.at(
                    file,
                    n,
                    format!("{key}: only a tier-2 panel (with entry) declares this"),
                    "give the panel an `entry:` page, or remove this",
                );
            }
        }
        let b = match item.get("blocks") {
            Some(b) => blocks_checked(&mut ctx, b),
            None => {
                ctx.problems.at(
                    file,
                    item,
                    "a tier-1 panel needs blocks (or declare a tier-2 entry)",
                    "add `blocks:` with one block per line",
                );
                json!([])
            }
        };
        wire.insert("blocks".into(), b);
    }
    Some(Panel {
        id,
        audience,
        wire: Value::Object(wire),
        file: file.into(),
    })
}

/// `blocks` / `fallback`: a non-empty list of at most [`MAX_BLOCKS`].
fn blocks_checked(ctx: &mut Ctx, node: &Node) -> Value {
    match node.as_seq() {
        Some([]) => ctx.problems.at(
            ctx.file,
            node,
            "must be a non-empty list of blocks",
            "add a block, e.g. `- {kind: text, text: \"…\"}`",
        ),
        Some(items) if items.len() > MAX_BLOCKS => ctx.problems.at(
            ctx.file,
            &items[MAX_BLOCKS],
            format!("at most {MAX_BLOCKS} blocks"),
            "split the panel in two",
        ),
        _ => {}
    }
    blocks::blocks(ctx, node)
}

/// A page of its own: its entry, the files it declares (entry included, all in the entry's
/// folder) and its fallback blocks, as the engine's build requires them.
fn tier2(ctx: &mut Ctx, item: &Node, wire: &mut Map<String, Value>) -> Option<()> {
    let file = ctx.file;
    if let Some(b) = item.get("blocks") {
        ctx.problems.at(
            file,
            b,
            "a tier-2 panel declares fallback blocks, not blocks",
            "move these blocks under `fallback:` (shown where pages cannot run)",
        );
    }
    let entry = item.get("entry").unwrap_or(item);
    let Some(rel) = entry.as_str().and_then(normal_path) else {
        ctx.problems.at(
            file,
            entry,
            "entry: must be a plain relative path (no .. segments)",
            "write `entry: panels/<id>/index.html`",
        );
        return None;
    };
    let lower = rel.to_ascii_lowercase();
    if !(lower.ends_with(".html") || lower.ends_with(".htm")) {
        ctx.problems.at(
            file,
            entry,
            "entry: must be an .html document",
            "point entry at the page's HTML file",
        );
    }
    let (hash, asset) = match ctx.store.add(&rel) {
        Ok(v) => v,
        Err(e) => {
            ctx.problems.at(
                file,
                entry,
                format!("entry {e}"),
                "point entry at the panel's HTML file inside the pack",
            );
            return None;
        }
    };
    // The engine's cap is per page: its entry and its html, js and css.
    let mut code = asset.size;
    wire.insert("entry".into(), json!({"hash": hash, "size": asset.size}));
    wire.insert(
        "assets".into(),
        Value::Array(page_assets(ctx, item, &rel, &mut code)),
    );
    if code > MAX_TIER2_BYTES {
        ctx.problems.at(
            file,
            entry,
            format!(
                "tier-2 code is {} KiB: a page may ship at most {} KiB",
                code / 1024,
                MAX_TIER2_BYTES / 1024
            ),
            "shrink the page's html, js and css (minify, split the panel) — pictures do not count",
        );
    }
    let fallback = match item.get("fallback") {
        None => {
            ctx.problems.at(
                file,
                item,
                "fallback: required for a tier-2 panel (write `fallback: null` to opt out)",
                "add `fallback:` with the blocks shown where the page cannot run, or `fallback: null`",
            );
            Value::Null
        }
        Some(b) if b.is_null() => Value::Null,
        Some(b) => blocks_checked(ctx, b),
    };
    wire.insert("fallback".into(), fallback);
    Some(())
}

/// A plain relative path as the engine normalises it (`PurePosixPath`: empty and `.` segments
/// dropped), or None when it is absolute, empty or climbs with `..`.
fn normal_path(p: &str) -> Option<String> {
    let p = p.trim();
    if p.starts_with('/') {
        return None;
    }
    let parts: Vec<&str> = p
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    (!parts.is_empty() && parts.iter().all(|s| *s != ".." && !s.trim().is_empty()))
        .then(|| parts.join("/"))
}

/// What the engine counts as a page's code (`CODE_MIMES`).
fn is_code(mime: &str) -> bool {
    let mime = mime.split(';').next().unwrap_or("").trim();
    matches!(
        mime,
        "text/html" | "text/javascript" | "application/javascript" | "text/css"
    )
}

/// The files `assets:` declares, addressed relative to the entry's folder (each page is a
/// self-contained static root). The entry rides as `entry`, not among them, as the engine
/// sends it.
fn page_assets(ctx: &mut Ctx, item: &Node, entry: &str, code: &mut u64) -> Vec<Value> {
    let file = ctx.file;
    let entry_dir = entry.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let Some(list) = item
        .get("assets")
        .and_then(Node::as_seq)
        .filter(|l| !l.is_empty())
    else {
        let at = item.get("assets").unwrap_or(item);
        ctx.problems.at(
            file,
            at,
            "assets: a tier-2 panel must list every file it ships (entry included)",
            format!(
                "write `assets: [{entry}]` and add each script, style and picture the page loads"
            ),
        );
        return vec![];
    };
    if !list
        .iter()
        .any(|n| n.as_str().and_then(normal_path).as_deref() == Some(entry))
    {
        ctx.problems.at(
            file,
            item.get("assets").unwrap_or(item),
            "assets: must include the entry document itself",
            format!("add `{entry}` to the list"),
        );
    }
    if list.len() > MAX_EXTRA_ASSETS + 1 {
        ctx.problems.at(
            file,
            &list[MAX_EXTRA_ASSETS + 1],
            format!("assets: at most {MAX_EXTRA_ASSETS} assets beyond the entry"),
            "bundle the page's scripts and styles into fewer files",
        );
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for node in list {
        let Some(rel) = node.as_str().and_then(normal_path) else {
            ctx.problems.at(
                file,
                node,
                "assets: must be a plain relative path (no .. segments)",
                "write the file's path inside the pack",
            );
            continue;
        };
        if !seen.insert(rel.clone()) {
            ctx.problems.at(
                file,
                node,
                "assets: lists a duplicate path",
                "list each file once",
            );
            continue;
        }
        if !entry_dir.is_empty() && !rel.starts_with(&format!("{entry_dir}/")) {
            ctx.problems.at(
                file,
                node,
                format!("assets: '{rel}' is outside the entry's directory '{entry_dir}'"),
                "keep every file of the page in the folder of its entry",
            );
            continue;
        }
        if rel == entry {
            continue;
        }
        match ctx.store.add(&rel) {
            Ok((hash, asset)) => {
                if is_code(&asset.mime) {
                    *code += asset.size;
                }
                let wire_path = rel.strip_prefix(&format!("{entry_dir}/")).unwrap_or(&rel);
                out.push(json!({"path": wire_path, "hash": hash, "size": asset.size, "mime": asset.mime}));
            }
            Err(e) => ctx.problems.at(
                file,
                node,
                format!("page file {e}"),
                "keep every file of the page inside the pack folder",
            ),
        }
    }
    out
}
