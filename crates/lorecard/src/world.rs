//! Whether a card is a world card or a character card, decided as the engine decides it
//! (`core/card_split.py`, `core/pack.py`): by what it carries, never by what it says it is.
//! A card is **world** when it carries machinery only a keeper may bring into a room: hook
//! scripts, variable declarations (typed variables, or an `[InitVar]`-style entry), EJS
//! templates (`<% … %>`) in its prose or lore, or keeper-only (`secret`) lore.

use serde_json::{Map, Value};

/// What a card's world half holds, by count (all zero for a plain character card).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorldPayloads {
    pub hooks: usize,
    /// `[InitVar]` entries and typed variables together (the packer counts both).
    pub variable_declarations: usize,
    pub ejs_blocks: usize,
    pub secret_entries: usize,
}

impl WorldPayloads {
    pub fn any(&self) -> bool {
        self.hooks + self.variable_declarations + self.ejs_blocks + self.secret_entries > 0
    }

    /// `"world"` or `"character"`, the manifest's word.
    pub fn kind(&self) -> &'static str {
        if self.any() {
            "world"
        } else {
            "character"
        }
    }
}

/// The payloads of a card document: a native card, or a SillyTavern card (V1/V2/V3).
pub fn payloads(raw: &Value) -> WorldPayloads {
    let empty = Map::new();
    let raw = raw.as_object().unwrap_or(&empty);
    let native = raw.get("format").and_then(Value::as_str) == Some(crate::card::FORMAT);
    let wrapped = matches!(
        raw.get("spec").and_then(Value::as_str),
        Some("chara_card_v2" | "chara_card_v3")
    );
    let body = if wrapped {
        raw.get("data").and_then(Value::as_object).unwrap_or(&empty)
    } else {
        raw
    };
    let (entries, prose): (Vec<Map<String, Value>>, &[&str]) = if native {
        let entries = raw
            .get("worldbook")
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(native_entry).collect())
            .unwrap_or_default();
        let prose: &[&str] = &[
            "description",
            "personality",
            "scenario",
            "opening",
            "dialogue_examples",
            "author_notes",
        ];
        (entries, prose)
    } else {
        let entries = body
            .get("character_book")
            .and_then(|b| b.get("entries"))
            .and_then(Value::as_array)
            .map(|list| list.iter().filter_map(|e| e.as_object().cloned()).collect())
            .unwrap_or_default();
        let prose: &[&str] = &[
            "description",
            "personality",
            "scenario",
            "first_mes",
            "mes_example",
            "creator_notes",
        ];
        (entries, prose)
    };
    let mut out = WorldPayloads::default();
    for entry in &entries {
        if is_variable_declaration(entry) {
            out.variable_declarations += 1;
        } else if truthy(entry.get("secret")) {
            out.secret_entries += 1;
        } else if let Some(content) = entry.get("content").and_then(Value::as_str) {
            out.ejs_blocks += ejs_blocks(content);
        }
    }
    for field in prose {
        let source = if native { raw } else { body };
        let text = source.get(*field).and_then(Value::as_str).unwrap_or("");
        out.ejs_blocks += ejs_blocks(text);
    }
    out.hooks = hook_codes(raw);
    if native {
        out.variable_declarations += typed_variables(raw.get("variables"));
    }
    out
}

/// A native entry as the engine's card view holds it: its title as `comment`, its condition
/// as a leading `@@if` line (only the title, content and `secret` matter here).
fn native_entry(entry: &Value) -> Option<Map<String, Value>> {
    let entry = entry.as_object()?;
    let content = text(entry.get("content"));
    if content.trim().is_empty()
        || entry
            .get("content")
            .is_some_and(|c| c.is_object() || c.is_array())
    {
        return None; // skipped by the engine's parser
    }
    let mut out = Map::new();
    out.insert(
        "comment".into(),
        text(entry.get("title")).trim().to_string().into(),
    );
    out.insert("content".into(), content.into());
    out.insert("secret".into(), truthy(entry.get("secret")).into());
    Some(out)
}

/// An MVU `[InitVar]` title, an `[InitialVariables]` title, or an `@@initial_variables`
/// decorator (`core.card_split.is_variable_declaration_entry`).
pub fn is_variable_declaration(entry: &Map<String, Value>) -> bool {
    let title = ["title", "comment", "name"]
        .iter()
        .find_map(|k| {
            entry
                .get(*k)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        })
        .unwrap_or("");
    let squeezed: String = title.chars().filter(|c| *c != ' ').collect();
    let content = entry.get("content").and_then(Value::as_str).unwrap_or("");
    title.to_lowercase().contains("initvar")
        || squeezed.to_lowercase().contains("[initialvariables]")
        || leading_decorators(content).any(|d| d == "initial_variables")
}

/// The names of the leading `@@name` lines (`core.ejs_lite.split_decorators`).
fn leading_decorators(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut seen = false;
    text.split('\n')
        .map(str::trim)
        .take_while(move |line| {
            if line.is_empty() {
                return seen;
            }
            let ok = line.starts_with("@@")
                && line[2..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            seen |= ok;
            ok
        })
        .filter(|line| !line.is_empty())
        .map(|line| {
            line[2..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
                .to_lowercase()
        })
}

/// `<% … %>` spans, and one for a dangling `<%`, counted as `core.card_split.strip_ejs`
/// counts them.
fn ejs_blocks(text: &str) -> usize {
    crate::ejs::strip_ejs(text).1
}

/// Hook scripts: a native card's `hooks`, else `extensions.loreweaver_hooks` (in `data` or
/// at the root); strings or `{code}` objects with code in them.
fn hook_codes(raw: &Map<String, Value>) -> usize {
    let list = raw.get("hooks").filter(|h| h.is_array()).or_else(|| {
        let in_data = raw
            .get("data")
            .and_then(|d| d.get("extensions"))
            .filter(|e| e.is_object());
        in_data
            .or_else(|| raw.get("extensions").filter(|e| e.is_object()))
            .and_then(|e| e.get(crate::st::HOOKS_EXTENSION))
    });
    let items: Vec<Value> = match list {
        Some(Value::Array(items)) => items.clone(),
        Some(single @ Value::String(_)) => vec![single.clone()],
        _ => vec![],
    };
    crate::hooks::codes(&items).len()
}

/// Typed variables the engine would keep (an id and a known kind; duplicates once).
fn typed_variables(list: Option<&Value>) -> usize {
    let mut seen = std::collections::HashSet::new();
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter(|v| {
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
            crate::card::VARIABLE_KINDS.contains(&kind)
        })
        .filter_map(|v| v.get("id").and_then(Value::as_str))
        .filter(|id| !id.trim().is_empty() && seen.insert(id.trim().to_lowercase()))
        .count()
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => if *b { "True" } else { "False" }.into(),
        _ => String::new(),
    }
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests;
