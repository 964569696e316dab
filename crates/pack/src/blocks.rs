//! Template blocks: the `ui` block vocabulary plus `$var`, `repeat`/`$leaf` and
//! `visible_when` (spec, "Module UI panels"). Each block is checked where it sits and turned
//! into its wire form (`src` → `{hash, mime, size}` from the pack's own files).

use serde_json::{json, Value};

use crate::assets::Store;
use crate::problem::Problems;
use crate::yaml::{Kind, Node};

/// Every block kind a template may use, with its required and optional fields.
pub use protocol::frame::BLOCK_KINDS as KINDS;

const LEAVES: &[&str] = &["id", "label", "value"];

/// Text fields the engine serves as locale maps: a plain string is the `en` text.
const LOCALIZED: &[&str] = &[
    "label", "text", "caption", "alt", "prompt", "body", "from", "to", "date", "headline",
    "source", "note", "title", "subtitle", "act",
];

/// The wire form of a localized field: `"Day"` becomes `{"en": "Day"}` (trimmed), as the
/// engine's pack loader sends it; maps and bindings pass as written.
fn localized(v: &Node) -> Value {
    match v.as_str() {
        Some(text) => json!({"en": text.trim()}),
        None => v.to_json(),
    }
}

/// Where a block is being read.
pub struct Ctx<'a> {
    pub file: &'a str,
    pub store: &'a mut Store,
    pub problems: &'a mut Problems,
}

/// A list of template blocks → wire form (an empty list, with a problem, when it is not one).
pub fn blocks(ctx: &mut Ctx, node: &Node) -> Value {
    let Some(items) = node.as_seq() else {
        ctx.problems.at(
            ctx.file,
            node,
            format!("blocks must be a list, found {}", node.kind_name()),
            "write each block as a list item: `- {kind: text, text: \"…\"}`",
        );
        return json!([]);
    };
    Value::Array(items.iter().map(|b| block(ctx, b, false)).collect())
}

fn block(ctx: &mut Ctx, node: &Node, in_repeat: bool) -> Value {
    let Some(entries) = node.as_map() else {
        ctx.problems.at(
            ctx.file,
            node,
            format!("a block must be a mapping, found {}", node.kind_name()),
            "a block looks like `{kind: stat, label: Day, value: 1}`",
        );
        return node.to_json();
    };
    if let Some(gate) = node.get("visible_when") {
        visible_when(ctx, gate);
    }
    if let Some(spec) = node.get("repeat") {
        if in_repeat {
            ctx.problems.at(
                ctx.file,
                spec,
                "a repeat inside a repeat never expands",
                "keep repeat at the top level of the panel's blocks",
            );
        }
        return repeat(ctx, node, spec);
    }
    let Some(kind_node) = node.get("kind") else {
        ctx.problems.at(
            ctx.file,
            node,
            "this block has no kind",
            "add `kind:` (one of meter, stat, badge, text, divider, choices, image, letter, clipping, map_pin, title_card) or make it a `repeat`",
        );
        return node.to_json();
    };
    let kind = kind_node.as_str().unwrap_or("");
    let Some(spec) = protocol::frame::block_kind(kind) else {
        ctx.problems.at(
            ctx.file,
            kind_node,
            format!(
                "unknown block kind \"{}\"",
                kind_node
                    .to_json()
                    .as_str()
                    .unwrap_or(&kind_node.to_json().to_string())
            ),
            format!(
                "use one of: {}",
                KINDS.iter().map(|k| k.kind).collect::<Vec<_>>().join(", ")
            ),
        );
        return node.to_json();
    };
    let (required, optional) = (spec.required, spec.optional);
    for field in required.iter() {
        if node.get(field).is_none() {
            ctx.problems.at(
                ctx.file,
                kind_node,
                format!("a {kind} block needs `{field}`"),
                format!("add `{field}:` to this block"),
            );
        }
    }
    for (k, _) in entries {
        let key = k.as_str().unwrap_or("?");
        if key != "kind"
            && key != "visible_when"
            && !required.contains(&key)
            && !optional.contains(&key)
        {
            let fields: Vec<&str> = required.iter().chain(optional).copied().collect();
            ctx.problems.at(
                ctx.file,
                k,
                format!("unknown keys ['{key}']"),
                if fields.is_empty() {
                    format!("a {kind} block has no fields besides `kind` (and `visible_when`)")
                } else {
                    format!("a {kind} block has {}", fields.join(", "))
                },
            );
        }
    }
    if kind == "meter" {
        let num = |f: &str| node.get(f).and_then(|n| n.to_json().as_f64());
        if let (Some(min), Some(max)) = (num("min"), num("max")) {
            if max <= min {
                ctx.problems.at(
                    ctx.file,
                    node.get("max").unwrap_or(node),
                    "max must be greater than min",
                    "swap them, or widen the range",
                );
            }
        }
    }
    enum_field(ctx, node, "tone", &["info", "warn", "danger"]);
    enum_field(ctx, node, "style", &["quote", "warning"]);
    if kind == "choices" {
        options(ctx, node.get("options"));
    }
    let mut out = serde_json::Map::new();
    for (k, v) in entries {
        let key = k.as_str().unwrap_or("");
        match key {
            "src" => {
                if let Some(resolved) = src(ctx, v) {
                    out.insert("hash".into(), json!(resolved.0));
                    out.insert("mime".into(), json!(resolved.1));
                    out.insert("size".into(), json!(resolved.2));
                }
            }
            "kind" | "visible_when" => {
                out.insert(key.into(), v.to_json());
            }
            "options" => {
                out.insert(key.into(), options_wire(v));
            }
            _ if LOCALIZED.contains(&key) => {
                bindings(ctx, v, in_repeat);
                out.insert(key.into(), localized(v));
            }
            _ => {
                bindings(ctx, v, in_repeat);
                out.insert(key.into(), v.to_json());
            }
        }
    }
    Value::Object(out)
}

/// Choice options with their labels localized.
fn options_wire(node: &Node) -> Value {
    let Some(items) = node.as_seq() else {
        return node.to_json();
    };
    let rows = items.iter().map(|opt| {
        let mut row = opt.to_json();
        if let (Some(label), Some(map)) = (opt.get("label"), row.as_object_mut()) {
            map.insert("label".into(), localized(label));
        }
        row
    });
    Value::Array(rows.collect())
}

fn repeat(ctx: &mut Ctx, node: &Node, spec: &Node) -> Value {
    let mut out = node.to_json();
    let stray = |n: &Node, allowed: &[&str]| -> Vec<Node> {
        n.as_map()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !k.as_str().is_some_and(|k| allowed.contains(&k)))
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    for k in stray(node, &["repeat", "visible_when"])
        .into_iter()
        .chain(stray(spec, &["prefix", "block"]))
    {
        ctx.problems.at(
            ctx.file,
            &k,
            format!("unknown keys ['{}']", k.as_str().unwrap_or("?")),
            "a repeat is `repeat: {prefix, block}` (and `visible_when`), nothing else",
        );
    }
    if spec.as_map().is_none() {
        ctx.problems.at(
            ctx.file,
            spec,
            "repeat must be a mapping with prefix and block",
            "write `repeat: {prefix: \"clue.\", block: {kind: badge, label: {$leaf: label}}}`",
        );
        return out;
    }
    match spec.get("prefix") {
        Some(p) if p.as_str().is_some() => {}
        Some(p) => ctx.problems.at(
            ctx.file,
            p,
            "repeat prefix must be text",
            "write the variable id prefix, e.g. `prefix: \"clue.\"`",
        ),
        None => ctx.problems.at(
            ctx.file,
            spec,
            "repeat has no prefix",
            "add `prefix:` — the variable ids to repeat over start with it",
        ),
    }
    match spec.get("block") {
        Some(b) => {
            let inner = block(ctx, b, true);
            out["repeat"]["block"] = inner;
        }
        None => ctx.problems.at(
            ctx.file,
            spec,
            "repeat has no block",
            "add `block:` — the template drawn once per matching variable",
        ),
    }
    out
}

fn visible_when(ctx: &mut Ctx, gate: &Node) {
    let Some(text) = gate.as_str() else {
        ctx.problems.at(
            ctx.file,
            gate,
            format!("visible_when must be text, found {}", gate.kind_name()),
            "quote the condition: `visible_when: \"day >= 3\"`",
        );
        return;
    };
    if let Err(e) = protocol::condexpr::parse(text) {
        ctx.problems.at(
            ctx.file,
            gate,
            format!("visible_when \"{text}\" is outside the portable subset: {e}"),
            "use comparisons (=== !== == != >= <= > <), && || ! and/or/not, literals and variable ids; no arithmetic, calls or brackets",
        );
    }
}

/// `$var` / `$leaf` bindings (and locale maps) in a scalar field.
fn bindings(ctx: &mut Ctx, v: &Node, in_repeat: bool) {
    let Kind::Map(entries) = &v.kind else { return };
    if let Some(name) = v.get("$var") {
        if name.as_str().map(str::is_empty).unwrap_or(true) {
            ctx.problems.at(
                ctx.file,
                name,
                "$var needs a variable id (text)",
                "write `{$var: day}` with the id as state.variables has it",
            );
        }
        if entries.len() > 1 {
            ctx.problems.at(
                ctx.file,
                v,
                "a $var binding takes no other keys",
                "write the binding alone: `{$var: day}`",
            );
        }
        return;
    }
    if let Some(leaf) = v.get("$leaf") {
        if !in_repeat {
            ctx.problems.at(
                ctx.file,
                v,
                "$leaf only means something inside a repeat's block",
                "use `{$var: id}` here, or move this block into `repeat: {prefix, block}`",
            );
        }
        if !leaf.as_str().map(|s| LEAVES.contains(&s)).unwrap_or(false) {
            ctx.problems.at(
                ctx.file,
                leaf,
                "$leaf must be id, label or value",
                "write `{$leaf: label}` (or id, value)",
            );
        }
        return;
    }
    // Otherwise a localized text: {en: "…", zh: "…"}.
    for (k, val) in entries {
        if k.as_str().is_none() || !matches!(val.kind, Kind::Str(_)) {
            ctx.problems.at(
                ctx.file,
                k,
                "a mapping here must be a locale map of texts, {$var: id} or {$leaf: …}",
                "write `{en: \"Day\", zh: \"天数\"}` or a binding",
            );
            return;
        }
    }
}

fn enum_field(ctx: &mut Ctx, node: &Node, field: &str, allowed: &[&str]) {
    if let Some(v) = node.get(field) {
        if !v.as_str().map(|s| allowed.contains(&s)).unwrap_or(false) {
            ctx.problems.at(
                ctx.file,
                v,
                format!("{field} must be one of {}", allowed.join(", ")),
                format!("write `{field}: {}`", allowed[0]),
            );
        }
    }
}

fn options(ctx: &mut Ctx, node: Option<&Node>) {
    let Some(node) = node else { return };
    let Some(items) = node.as_seq() else {
        ctx.problems.at(
            ctx.file,
            node,
            "options must be a list",
            "write `options: [{id: a, label: Go, input: \"go north\"}]`",
        );
        return;
    };
    for opt in items {
        for field in ["id", "label", "input"] {
            if opt.get(field).is_none() {
                ctx.problems.at(
                    ctx.file,
                    opt,
                    format!("a choice option needs `{field}`"),
                    "each option has id, label and input (the text it sends)",
                );
            }
        }
    }
}

/// A pack-relative picture → (hash, mime, size).
fn src(ctx: &mut Ctx, v: &Node) -> Option<(String, String, u64)> {
    let Some(rel) = v.as_str() else {
        ctx.problems.at(
            ctx.file,
            v,
            "src must be a path inside the pack",
            "write `src: images/map.png`",
        );
        return None;
    };
    match ctx.store.add(rel) {
        Ok((hash, asset)) => Some((hash, asset.mime, asset.size)),
        Err(e) => {
            ctx.problems
                .at(ctx.file, v, e, "point src at a file inside the pack folder");
            None
        }
    }
}
