//! A native card's worldbook and pregens checked as the engine reads them
//! (`core/lorecard.py`): what makes the engine refuse the whole card is a [`Problem`] in
//! `problems`; what the engine skips, never fires, or cannot tell apart is a warning in
//! `warnings` (the pack still loads, the author is told where).

use std::collections::HashMap;

use lorecard::card::{
    MAX_CONDITION_CHARS, MAX_ENTRIES, MAX_ENTRY_CONTENT_BYTES, MAX_PREGENS, MAX_ROOM_VARIABLES,
    SELECTIVE_LOGICS,
};

use crate::problem::{Problem, Problems};
use crate::yaml::{Kind, Node};

/// Checks `doc`'s `worldbook` and `pregens` (a native card's).
pub fn check(rel: &str, doc: &Node, problems: &mut Problems, warnings: &mut Vec<Problem>) {
    if let Some(list) = doc.get("worldbook") {
        match list.as_seq() {
            Some(entries) if entries.len() > MAX_ENTRIES => problems.at(
                rel,
                list,
                format!(
                    "the worldbook has {} entries; the engine reads at most {MAX_ENTRIES}",
                    entries.len()
                ),
                "split the lore over two cards",
            ),
            Some(entries) => {
                let mut ids: HashMap<String, u32> = HashMap::new();
                for (index, entry) in entries.iter().enumerate() {
                    self::entry(rel, index, entry, &mut ids, problems, warnings);
                }
            }
            None if list.is_null() => {}
            None => warnings.push(Problem::at(
                rel,
                list,
                "the worldbook must be a list of entries: the engine ignores it",
                "write \"worldbook\": [{\"title\": …, \"content\": …}]",
            )),
        }
    }
    if let Some(vars) = doc.get("variables").and_then(Node::as_seq) {
        if let Some(extra) = vars.get(MAX_ROOM_VARIABLES) {
            warnings.push(Problem::at(
                rel,
                extra,
                format!(
                    "{} variables: a room holds at most {MAX_ROOM_VARIABLES}; the engine's world import fails at the next one",
                    vars.len()
                ),
                "keep a card's variables to 64",
            ));
        }
    }
    if let Some(pregens) = doc.get("pregens").and_then(Node::as_seq) {
        if let Some(extra) = pregens.get(MAX_PREGENS) {
            warnings.push(Problem::at(
                rel,
                extra,
                format!(
                    "{} pregens: the engine keeps the first {MAX_PREGENS}",
                    pregens.len()
                ),
                "keep at most eight pregens in one card",
            ));
        }
    }
}

fn entry(
    rel: &str,
    index: usize,
    entry: &Node,
    ids: &mut HashMap<String, u32>,
    problems: &mut Problems,
    warnings: &mut Vec<Problem>,
) {
    let title = entry
        .get("title")
        .and_then(Node::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map_or_else(|| format!("worldbook[{index}]"), |t| format!("\"{t}\""));
    let mut warn = |node: &Node, message: String, hint: &str| {
        warnings.push(Problem::at(rel, node, message, hint));
    };
    if entry.as_map().is_none() {
        warn(
            entry,
            format!("worldbook[{index}] is not an object: the engine skips it"),
            "write the entry as {\"title\": …, \"content\": …}",
        );
        return;
    }
    let content = entry.get("content");
    if let Some(
        node @ Node {
            kind: Kind::Seq(_) | Kind::Map(_),
            ..
        },
    ) = content
    {
        warn(
            node,
            format!("{title}: content must be text: the engine skips the entry"),
            "write the content as one string",
        );
        return;
    }
    let text = content.map(scalar).unwrap_or_default();
    if text.len() > MAX_ENTRY_CONTENT_BYTES {
        problems.at(
            rel,
            content.unwrap_or(entry),
            format!(
                "{title}: content is {} KiB; the engine refuses a card with an entry over {} KiB",
                text.len() / 1024,
                MAX_ENTRY_CONTENT_BYTES / 1024
            ),
            "split the entry",
        );
    }
    if text.trim().is_empty() {
        warn(
            content.unwrap_or(entry),
            format!("{title}: empty content: the engine skips the entry"),
            "write what the entry tells, or remove it",
        );
    }
    if let Some(node) = entry.get("condition") {
        let condition = scalar(node)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if condition.chars().count() > MAX_CONDITION_CHARS {
            warn(
                node,
                format!(
                    "{title}: the condition is over {MAX_CONDITION_CHARS} characters: it never fires"
                ),
                "shorten the condition",
            );
        } else if !condition.is_empty() {
            if let Err(e) = protocol::condexpr::parse(&condition) {
                warn(
                    node,
                    format!("{title}: the condition does not parse ({e}): the entry never fires"),
                    "write e.g. 世界.日 >= 2 or flags.met && day < 3",
                );
            }
        }
    }
    if let Some(node) = entry.get("id") {
        let id = scalar(node).trim().to_string();
        if !id.is_empty() {
            if let Some(first) = ids.get(&id) {
                warn(
                    node,
                    format!(
                        "{title}: the id \"{id}\" is also the entry's on line {first}: a reference \
                         to it cannot tell them apart"
                    ),
                    "give every entry its own id",
                );
            } else {
                ids.insert(id, node.line);
            }
        }
    }
    if let Some(node) = entry.get("selective_logic") {
        let logic = scalar(node);
        if !logic.trim().is_empty() && !SELECTIVE_LOGICS.contains(&logic.trim()) {
            warn(
                node,
                format!("{title}: selective_logic \"{logic}\" is not one the engine knows: it reads and_any"),
                "write and_any, and_all, not_any or not_all",
            );
        }
    }
    if let Some(node) = entry.get("position") {
        let position = scalar(node);
        if !matches!(position.trim(), "" | "before" | "after") {
            warn(
                node,
                format!(
                    "{title}: position \"{position}\" is not one the engine knows: it reads none"
                ),
                "write before, after, or leave it empty",
            );
        }
    }
    let enabled = entry.get("enabled").is_none_or(truthy);
    let probability = entry.get("probability").and_then(|n| n.to_json().as_f64());
    if let (true, Some(p), Some(node)) = (enabled, probability, entry.get("probability")) {
        if p <= 0.0 {
            warn(
                node,
                format!("{title}: probability {p} means it never fires"),
                "give it a chance between 1 and 100, or set \"enabled\": false",
            );
        }
    }
    if !text.trim().is_empty() {
        keyless(rel, &title, entry, warnings);
    }
}

/// An enabled, non-constant entry with no keys: no word in the story brings it in.
fn keyless(rel: &str, title: &str, entry: &Node, warnings: &mut Vec<Problem>) {
    let flag = |field: &str, default: bool| entry.get(field).map_or(default, truthy);
    if !flag("enabled", true) || flag("constant", false) {
        return;
    }
    let keys = entry.get("keys");
    let has_key = match keys.map(|n| &n.kind) {
        Some(Kind::Seq(items)) => items.iter().any(|k| !scalar(k).trim().is_empty()),
        Some(_) => !scalar(keys.unwrap_or(entry)).trim().is_empty(),
        None => false,
    };
    if !has_key {
        warnings.push(Problem::at(
            rel,
            keys.unwrap_or(entry),
            format!(
                "{title}: no keys and not constant: no word in the story brings it in (only the \
                 engine's semantic search can, on an install with embeddings)"
            ),
            "give it keys, or set \"constant\": true",
        ));
    }
}

/// A value as Python's `bool()` reads it (the engine's `_flag`).
fn truthy(node: &Node) -> bool {
    match node.to_json() {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        serde_json::Value::Array(a) => !a.is_empty(),
        serde_json::Value::Object(o) => !o.is_empty(),
    }
}

/// A scalar's text as the engine's `_text` reads it (a number or bool as its text).
fn scalar(node: &Node) -> String {
    match node.to_json() {
        serde_json::Value::String(s) => s,
        serde_json::Value::Null => String::new(),
        v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => v.to_string(),
        _ => String::new(),
    }
}
