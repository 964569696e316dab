//! SillyTavern's character cards (V2 `chara_card_v2`, V3 `chara_card_v3`), out of and into
//! the native card.
//!
//! **Export.** The card's fields take SillyTavern's names (`opening` → `first_mes`, …); each
//! worldbook entry becomes a `character_book` entry whose `condition` rides as a leading
//! `@@if <expr>` line (the one form the engine's importer reads back). Trigger settings are
//! written twice: in the entry's `extensions` where SillyTavern reads them, and at the entry's
//! top level where the engine's importer (`core/worldbook.py`) reads them, so neither loses
//! them. Hook scripts go to `data.extensions.loreweaver_hooks`, where the engine reads them;
//! what SillyTavern has no shape for (typed variables, pregens, entry ids) goes under
//! `data.extensions.loreweaver`, which SillyTavern keeps untouched and Studio reads back.
//! - [`Flavour::Release`] keeps keeper-only lore (marked `secret`, which the engine honours
//!   only for a keeper's import) and keeper-only variables.
//! - [`Flavour::Safe`] strips both: a card to share where players can read it.
//!
//! **Import** reads either version (or a bare V1 object), and lists in [`Imported::left_out`]
//! every field it could not carry, so nothing is lost silently.

use serde_json::{json, Map, Value};

use crate::card::{Entry, Lorecard, Pregen, Variable, SELECTIVE_LOGICS};
use crate::Error;

/// Which card to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// Keeper-only lore and variables stripped.
    Safe,
    /// Everything kept.
    Release,
}

/// Where Studio keeps what SillyTavern has no field for.
const OURS: &str = "loreweaver";
/// Where the engine reads a SillyTavern card's hook scripts (`core.card_split`).
pub const HOOKS_EXTENSION: &str = "loreweaver_hooks";

/// The card as SillyTavern V3 JSON (`spec: chara_card_v3`).
pub fn export_v3(card: &Lorecard, flavour: Flavour) -> Value {
    let mut out = export_v2(card, flavour);
    out["spec"] = "chara_card_v3".into();
    out["spec_version"] = "3.0".into();
    out["data"]["group_only_greetings"] = json!([]);
    out
}

/// The card as SillyTavern V2 JSON (`spec: chara_card_v2`), the `chara` chunk's form.
pub fn export_v2(card: &Lorecard, flavour: Flavour) -> Value {
    let keep = |secret: bool| flavour == Flavour::Release || !secret;
    let entries: Vec<Value> = card
        .worldbook
        .iter()
        .filter(|e| keep(e.secret))
        .enumerate()
        .map(|(i, e)| entry_out(i, e))
        .collect();
    let variables: Vec<&Variable> = card
        .variables
        .iter()
        .filter(|v| keep(v.visibility == "keeper"))
        .collect();
    let mut ours = Map::new();
    if !variables.is_empty() {
        ours.insert("variables".into(), json!(variables));
    }
    if !card.pregens.is_empty() {
        ours.insert("pregens".into(), json!(card.pregens));
    }
    let mut extensions = Map::new();
    if !card.hooks.is_empty() {
        extensions.insert(HOOKS_EXTENSION.into(), json!(card.hooks));
    }
    if !ours.is_empty() {
        extensions.insert(OURS.into(), Value::Object(ours));
    }
    json!({
        "spec": "chara_card_v2",
        "spec_version": "2.0",
        "data": {
            "name": card.name,
            "description": card.description,
            "personality": card.personality,
            "scenario": card.scenario,
            "first_mes": card.opening,
            "mes_example": card.dialogue_examples,
            "creator_notes": card.author_notes,
            "system_prompt": "",
            "post_history_instructions": "",
            "alternate_greetings": card.alternate_openings,
            "tags": card.tags,
            "creator": "",
            "character_version": "",
            "extensions": extensions,
            "character_book": {
                "name": format!("{} Worldbook", card.name),
                "entries": entries,
                "extensions": {},
            },
        }
    })
}

fn entry_out(index: usize, e: &Entry) -> Value {
    let content = if e.condition.trim().is_empty() {
        e.content.clone()
    } else {
        // One line: a decorator ends at the line's end.
        let condition = e.condition.split_whitespace().collect::<Vec<_>>().join(" ");
        format!("@@if {condition}\n{}", e.content)
    };
    let logic = SELECTIVE_LOGICS
        .iter()
        .position(|l| *l == e.selective_logic)
        .unwrap_or(0);
    let mut extensions = json!({
        "display_index": index,
        "probability": e.probability,
        "useProbability": true,
        "selectiveLogic": logic,
        "case_sensitive": e.case_sensitive,
        "match_whole_words": e.match_whole_words,
        "scan_depth": e.scan_depth,
        "sticky": e.sticky,
        "cooldown": e.cooldown,
        "delay": e.delay,
        "exclude_recursion": false,
        "prevent_recursion": false,
        "group": "",
        "group_weight": 100,
    });
    if let Some(id) = &e.id {
        extensions["loreweaver_id"] = id.clone().into();
    }
    let mut out = json!({
        "id": index,
        "keys": e.keys,
        "secondary_keys": e.secondary_keys,
        "comment": e.title,
        "content": content,
        "constant": e.constant,
        "selective": !e.secondary_keys.is_empty(),
        "insertion_order": e.priority,
        "enabled": e.enabled,
        "use_regex": false,
        // What the engine's importer reads, at the top level.
        "selective_logic": e.selective_logic,
        "probability": e.probability,
        "case_sensitive": e.case_sensitive,
        "match_whole_words": e.match_whole_words,
        "scan_depth": e.scan_depth,
        "sticky": e.sticky,
        "cooldown": e.cooldown,
        "delay": e.delay,
        "extensions": extensions,
    });
    match e.position.as_str() {
        "before" => out["position"] = "before_char".into(),
        "after" => out["position"] = "after_char".into(),
        _ => {}
    }
    if e.secret {
        out["secret"] = true.into();
    }
    if e.category != "lore" {
        out["category"] = e.category.clone().into();
    }
    out
}

/// A SillyTavern card made native, with what could not be carried.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub card: Lorecard,
    /// One line per field not carried over (`data.system_prompt`, `entry "X": use_regex`…).
    pub left_out: Vec<String>,
}

/// Reads a SillyTavern card (V2, V3, or a bare V1 object) into a native card.
pub fn import(raw: &Value) -> Result<Imported, Error> {
    let Some(raw) = raw.as_object() else {
        return Err(Error::Shape("a SillyTavern card is a JSON object".into()));
    };
    let wrapped = matches!(
        raw.get("spec").and_then(Value::as_str),
        Some("chara_card_v2" | "chara_card_v3")
    );
    let empty = Map::new();
    let body = if wrapped {
        raw.get("data").and_then(Value::as_object).unwrap_or(&empty)
    } else {
        raw
    };
    let mut left_out = Vec::new();
    let mut card = Lorecard::new(text(body.get("name")).trim());
    card.description = text(body.get("description"));
    card.personality = text(body.get("personality"));
    card.scenario = text(body.get("scenario"));
    card.opening = text(body.get("first_mes"));
    card.dialogue_examples = text(body.get("mes_example"));
    card.author_notes = text(body.get("creator_notes"));
    card.alternate_openings = texts(body.get("alternate_greetings"));
    card.tags = texts(body.get("tags"));
    const CARRIED: &[&str] = &[
        "name",
        "description",
        "personality",
        "scenario",
        "first_mes",
        "mes_example",
        "creator_notes",
        "alternate_greetings",
        "tags",
        "character_book",
        "extensions",
    ];
    for (key, value) in body {
        if !CARRIED.contains(&key.as_str()) && !is_blank(value) {
            left_out.push(format!("data.{key}"));
        }
    }
    if let Some(extensions) = body.get("extensions").and_then(Value::as_object) {
        for (key, value) in extensions {
            if key == OURS {
                ours_in(value, &mut card, &mut left_out);
            } else if key == HOOKS_EXTENSION {
                card.hooks = value.as_array().cloned().unwrap_or_default();
            } else if !is_blank(value) {
                left_out.push(format!("data.extensions.{key}"));
            }
        }
    }
    let book = body.get("character_book").and_then(Value::as_object);
    if let Some(book) = book {
        for (key, value) in book {
            let default_name =
                key == "name" && text(Some(value)) == format!("{} Worldbook", card.name);
            if key != "entries" && !default_name && !is_blank(value) {
                left_out.push(format!("character_book.{key}"));
            }
        }
    }
    let entries = book
        .and_then(|b| b.get("entries"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (index, raw) in entries.iter().enumerate() {
        match raw.as_object() {
            Some(raw) => card.worldbook.push(entry_in(raw, index, &mut left_out)),
            None => left_out.push(format!("character_book.entries[{index}]: not an object")),
        }
    }
    Ok(Imported { card, left_out })
}

/// Studio's own block of a card it exported: variables, pregens, hooks.
fn ours_in(value: &Value, card: &mut Lorecard, left_out: &mut Vec<String>) {
    let take = |key: &str| value.get(key).cloned().unwrap_or(Value::Null);
    match serde_json::from_value::<Vec<Variable>>(take("variables")) {
        Ok(v) => card.variables = v,
        Err(_) if value.get("variables").is_none() => {}
        Err(e) => left_out.push(format!("data.extensions.loreweaver.variables: {e}")),
    }
    match serde_json::from_value::<Vec<Pregen>>(take("pregens")) {
        Ok(p) => card.pregens = p,
        Err(_) if value.get("pregens").is_none() => {}
        Err(e) => left_out.push(format!("data.extensions.loreweaver.pregens: {e}")),
    }
}

fn entry_in(raw: &Map<String, Value>, index: usize, left_out: &mut Vec<String>) -> Entry {
    let empty = Map::new();
    let ext = raw
        .get("extensions")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    // The entry's own field, else the same in its extensions (SillyTavern's place).
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| raw.get(*n))
            .or_else(|| names.iter().find_map(|n| ext.get(*n)))
    };
    let mut entry = Entry {
        title: text(raw.get("comment").or_else(|| raw.get("name")))
            .trim()
            .to_string(),
        keys: texts(raw.get("keys").or_else(|| raw.get("key"))),
        secondary_keys: texts(
            raw.get("secondary_keys")
                .or_else(|| raw.get("keysecondary")),
        ),
        constant: flag(raw.get("constant"), false),
        priority: number(field(&["priority", "insertion_order"]), 0),
        enabled: flag(raw.get("enabled"), true),
        secret: flag(field(&["secret"]), false),
        category: field(&["category"])
            .and_then(Value::as_str)
            .unwrap_or("lore")
            .to_string(),
        case_sensitive: flag(field(&["case_sensitive", "caseSensitive"]), false),
        match_whole_words: flag(field(&["match_whole_words", "matchWholeWords"]), false),
        scan_depth: number(field(&["scan_depth", "scanDepth"]), 0),
        sticky: number(field(&["sticky"]), 0),
        cooldown: number(field(&["cooldown"]), 0),
        delay: number(field(&["delay"]), 0),
        id: ext
            .get("loreweaver_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        ..Entry::default()
    };
    let content = text(raw.get("content"));
    (entry.condition, entry.content) = peel_condition(&content);
    if raw.get("selective").and_then(Value::as_bool) == Some(false) {
        entry.secondary_keys.clear();
    }
    entry.selective_logic = match field(&["selective_logic", "selectiveLogic"]) {
        Some(Value::String(s)) if SELECTIVE_LOGICS.contains(&s.as_str()) => s.clone(),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| SELECTIVE_LOGICS.get(n as usize))
            .unwrap_or(&"and_any")
            .to_string(),
        _ => "and_any".into(),
    };
    let use_probability = flag(field(&["useProbability", "use_probability"]), true);
    entry.probability = if use_probability {
        number(field(&["probability"]), 100).clamp(0, 100)
    } else {
        100
    };
    entry.position = match raw.get("position") {
        Some(Value::String(p)) if p == "before_char" => "before".into(),
        Some(Value::String(p)) if p == "after_char" => "after".into(),
        Some(Value::Number(n)) if n.as_u64() == Some(0) => "before".into(),
        Some(Value::Number(n)) if n.as_u64() == Some(1) => "after".into(),
        _ => String::new(),
    };
    let name = if entry.title.is_empty() {
        format!("entry {index}")
    } else {
        format!("entry \"{}\"", entry.title)
    };
    const CARRIED: &[&str] = &[
        "id",
        "keys",
        "key",
        "secondary_keys",
        "keysecondary",
        "comment",
        "name",
        "content",
        "constant",
        "selective",
        "insertion_order",
        "priority",
        "enabled",
        "position",
        "selective_logic",
        "selectiveLogic",
        "probability",
        "useProbability",
        "use_probability",
        "case_sensitive",
        "caseSensitive",
        "match_whole_words",
        "matchWholeWords",
        "scan_depth",
        "scanDepth",
        "sticky",
        "cooldown",
        "delay",
        "secret",
        "category",
        "extensions",
        "display_index",
        "loreweaver_id",
    ];
    for (key, value) in raw.iter().chain(ext.iter()) {
        let default_kept = matches!(
            (key.as_str(), value),
            ("group_weight", Value::Number(_)) | ("use_regex", Value::Bool(false))
        );
        if !CARRIED.contains(&key.as_str()) && !default_kept && !is_blank(value) {
            left_out.push(format!("{name}: {key}"));
        }
    }
    let position_known = match raw.get("position") {
        None | Some(Value::Null) => true,
        Some(Value::String(p)) => matches!(p.as_str(), "" | "before_char" | "after_char"),
        Some(Value::Number(n)) => matches!(n.as_u64(), Some(0 | 1)),
        _ => false,
    };
    if !position_known {
        left_out.push(format!("{name}: position"));
    }
    entry
}

/// A leading `@@if <expr>` line peeled off into the condition.
fn peel_condition(content: &str) -> (String, String) {
    if let Some(rest) = content.strip_prefix("@@if ") {
        let (line, body) = rest.split_once('\n').unwrap_or((rest, ""));
        return (line.trim().to_string(), body.to_string());
    }
    (String::new(), content.to_string())
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        _ => String::new(),
    }
}

fn texts(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| text(Some(i)).trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
        _ => vec![],
    }
}

fn flag(v: Option<&Value>, default: bool) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        _ => default,
    }
}

fn number(v: Option<&Value>, default: i64) -> i64 {
    match v {
        Some(Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|f| f as i64))
            .unwrap_or(default),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(default),
        _ => default,
    }
}

/// Nothing worth listing as left out: null, false, 0, "", [], {}.
fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

#[cfg(test)]
mod tests;
