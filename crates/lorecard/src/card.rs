//! The engine's native card, `"format": "loreweaver.card"`, version 1 (`core/lorecard.py`).
//!
//! Every field the engine reads is typed here; every other field a file carries is kept in
//! `extra` (of the card, an entry, a variable, a pregen) and written back, so a card opened
//! and saved by the forge loses nothing. Keys are written in one stable order (the engine's
//! fixture order), pretty-printed with two spaces, UTF-8 as is.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Error;

pub const FORMAT: &str = "loreweaver.card";
/// `CURRENT_FORMAT_VERSION`: the engine refuses a newer one and has no migration for older.
pub const FORMAT_VERSION: i64 = 1;

/// The engine's parse caps (`core/lorecard.py`); passing one makes the whole card refused.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
pub const MAX_ENTRIES: usize = 512;
pub const MAX_ENTRY_CONTENT_BYTES: usize = 128 * 1024;
pub const MAX_VARIABLES: usize = 256;
/// More pregens than this are cut off with a warning.
pub const MAX_PREGENS: usize = 8;
/// A longer condition never fires (`core.condexpr.MAX_EXPR_LEN`).
pub const MAX_CONDITION_CHARS: usize = 500;
/// A room holds at most this many variables (`core.modvars.MAX_VARS`): more fail the install.
pub const MAX_ROOM_VARIABLES: usize = 64;
/// A room's import takes at most this many entries (`core.worldbook.MAX_IMPORT_ENTRIES`).
pub const MAX_IMPORT_ENTRIES: usize = 200;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lorecard {
    pub format: String,
    pub format_version: i64,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub personality: String,
    #[serde(default)]
    pub scenario: String,
    #[serde(default)]
    pub opening: String,
    #[serde(default)]
    pub dialogue_examples: String,
    #[serde(default)]
    pub alternate_openings: Vec<String>,
    #[serde(default)]
    pub author_notes: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub variables: Vec<Variable>,
    #[serde(default)]
    pub worldbook: Vec<Entry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pregens: Vec<Pregen>,
    /// Hook scripts: code strings, or `{"code": …}` objects (both are what the engine reads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One worldbook entry with every field the engine reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The stable id other packs reference (`<pack-id>#<entry-id>`); optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub keys: Vec<String>,
    #[serde(default = "lore")]
    pub category: String,
    /// Keeper-only lore: the engine honours it only for a keeper's import.
    #[serde(default)]
    pub secret: bool,
    #[serde(default)]
    pub constant: bool,
    #[serde(default)]
    pub priority: i64,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// A condexpr (`世界.日 >= 2`); exported to SillyTavern as a leading `@@if` line.
    #[serde(default)]
    pub condition: String,
    #[serde(default)]
    pub secondary_keys: Vec<String>,
    #[serde(default = "and_any")]
    pub selective_logic: String,
    #[serde(default = "hundred")]
    pub probability: i64,
    #[serde(default)]
    pub case_sensitive: bool,
    #[serde(default)]
    pub match_whole_words: bool,
    #[serde(default)]
    pub scan_depth: i64,
    /// `""`, `"before"` or `"after"` (the character's description).
    #[serde(default)]
    pub position: String,
    #[serde(default)]
    pub sticky: i64,
    #[serde(default)]
    pub cooldown: i64,
    #[serde(default)]
    pub delay: i64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A variable's kinds (`core.modvars.KINDS`).
pub const VARIABLE_KINDS: [&str; 4] = ["number", "bool", "text", "enum"];

/// The selective logics the engine knows, in SillyTavern's number order.
pub const SELECTIVE_LOGICS: [&str; 4] = ["and_any", "not_all", "not_any", "and_all"];

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            id: None,
            title: String::new(),
            content: String::new(),
            keys: vec![],
            category: lore(),
            secret: false,
            constant: false,
            priority: 0,
            enabled: true,
            condition: String::new(),
            secondary_keys: vec![],
            selective_logic: and_any(),
            probability: 100,
            case_sensitive: false,
            match_whole_words: false,
            scan_depth: 0,
            position: String::new(),
            sticky: 0,
            cooldown: 0,
            delay: 0,
            extra: Map::new(),
        }
    }
}

/// A typed module variable (`core/modvars.py`'s spec).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    pub id: String,
    /// `number`, `bool`, `text` or `enum`.
    pub kind: String,
    /// `player` or `keeper` (keeper-only).
    #[serde(default = "player")]
    pub visibility: String,
    /// Locale → label.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub labels: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub default: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<serde_json::Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<serde_json::Number>,
    /// An enum's choices.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A pregenerated investigator the table offers to claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pregen {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub concept: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Skill name → value, over the rule system's defaults.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub skills: Map<String, Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn lore() -> String {
    "lore".into()
}
fn yes() -> bool {
    true
}
fn and_any() -> String {
    "and_any".into()
}
fn hundred() -> i64 {
    100
}
fn player() -> String {
    "player".into()
}

impl Lorecard {
    /// A new, empty card named `name`.
    pub fn new(name: &str) -> Lorecard {
        Lorecard {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            name: name.into(),
            description: String::new(),
            personality: String::new(),
            scenario: String::new(),
            opening: String::new(),
            dialogue_examples: String::new(),
            alternate_openings: vec![],
            author_notes: String::new(),
            tags: vec![],
            variables: vec![],
            worldbook: vec![],
            pregens: vec![],
            hooks: vec![],
            extra: Map::new(),
        }
    }
}

/// Reads a native card. Refused as the engine refuses it: not JSON, not an object, another
/// `format`, a `format_version` that is not 1; a field of the wrong type is refused with its
/// line (the forge shows it there rather than guess).
pub fn read(bytes: &[u8]) -> Result<Lorecard, Error> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    if bytes.len() > MAX_FILE_BYTES {
        return Err(Error::Shape(format!(
            "the card is over the engine's {MAX_FILE_BYTES}-byte limit"
        )));
    }
    let doc: Value = serde_json::from_slice(bytes).map_err(Error::json)?;
    let Some(object) = doc.as_object() else {
        return Err(Error::Shape("a native card is a JSON object".into()));
    };
    match object.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        other => {
            return Err(Error::Shape(format!(
                "not a Loreweaver native card: format is {}, want \"{FORMAT}\"",
                other.map_or("missing".to_string(), |f| format!("\"{f}\""))
            )))
        }
    }
    match object.get("format_version").and_then(Value::as_i64) {
        Some(FORMAT_VERSION) => {}
        other => {
            return Err(Error::Shape(format!(
                "format_version {} cannot be read: the engine reads {FORMAT_VERSION}",
                other.map_or("missing".to_string(), |v| v.to_string())
            )))
        }
    }
    serde_json::from_slice(bytes).map_err(Error::json)
}

/// The card as a file: pretty JSON (two spaces), keys in the stable order, a final newline.
pub fn write(card: &Lorecard) -> String {
    let mut text = serde_json::to_string_pretty(card).expect("a card is always JSON");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests;
