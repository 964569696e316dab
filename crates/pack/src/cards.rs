//! Card files a pack ships (`contents.cards`). A world card (`"format": "loreweaver.card"`)
//! declares the module variables; the table seeds `state.variables` from them.

use serde_json::{json, Map, Value};

use crate::problem::{Problem, Problems};
use crate::yaml::{self, Kind, Node};

pub const CARD_FORMAT: &str = "loreweaver.card";
/// `CURRENT_FORMAT_VERSION` of the engine's native card.
pub const CARD_FORMAT_VERSION: i64 = 1;
pub const VAR_KINDS: &[&str] = &["number", "bool", "text", "enum"];

/// One card file: its pack-relative path and its 拆卡 kind (`character` or `world`, from its
/// payloads: `lorecard::world`).
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub path: String,
    pub kind: &'static str,
}

/// A module variable as a world card defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDef {
    pub id: String,
    /// number | bool | text | enum
    pub kind: String,
    /// `visibility: keeper`: only keeper connections see it (flagged hidden).
    pub keeper_only: bool,
    /// Locale → label.
    pub labels: Map<String, Value>,
    pub default: Value,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The card file that defines it, relative to the pack folder.
    pub file: String,
}

impl VarDef {
    /// The label in `locale`, falling back to English, then the id.
    pub fn label(&self, locale: &str) -> String {
        self.labels
            .get(locale)
            .or_else(|| self.labels.get("en"))
            .and_then(Value::as_str)
            .unwrap_or(&self.id)
            .to_string()
    }
}

/// Reads a card file (JSON, read through the YAML reader for positions; plain JSON parse as
/// the fallback) and its variables.
pub fn card(
    rel: &str,
    text: &str,
    problems: &mut Problems,
    warnings: &mut Vec<Problem>,
    vars: &mut Vec<VarDef>,
) -> Card {
    let doc = match yaml::parse(text) {
        Ok(d) => d,
        Err(_) => match serde_json::from_str::<Value>(text) {
            Ok(_) => Node {
                line: 1,
                column: 1,
                kind: Kind::Null,
            },
            Err(e) => {
                problems.push(Problem {
                    file: rel.into(),
                    line: e.line() as u32,
                    column: e.column() as u32,
                    message: format!("the card is not valid JSON: {e}"),
                    hint: "fix the JSON syntax (a missing comma or quote is the usual cause)"
                        .into(),
                });
                return Card {
                    path: rel.into(),
                    kind: "character",
                };
            }
        },
    };
    // A native card names its schema version (`core/lorecard.py`: an integer, at most 1).
    if doc.get("format").and_then(Node::as_str) == Some(CARD_FORMAT) {
        let v = doc.get("format_version");
        match v.map(|v| &v.kind) {
            Some(Kind::Int(n)) if *n == CARD_FORMAT_VERSION => {}
            Some(Kind::Int(n)) => problems.at(
                rel,
                v.unwrap_or(&doc),
                if *n > CARD_FORMAT_VERSION {
                    format!("unsupported format_version {n}; this build reads up to {CARD_FORMAT_VERSION}")
                } else {
                    format!("unsupported format_version {n}; this build reads: {CARD_FORMAT_VERSION}")
                },
                format!("write \"format_version\": {CARD_FORMAT_VERSION}"),
            ),
            _ => problems.at(
                rel,
                v.unwrap_or(&doc),
                "format_version must be an integer",
                format!("add \"format_version\": {CARD_FORMAT_VERSION} after \"format\""),
            ),
        }
    }
    if doc.get("format").and_then(Node::as_str) == Some(CARD_FORMAT) {
        crate::worldbook::check(rel, &doc, problems, warnings);
    }
    let list = doc.get("variables");
    if list.is_some() {
        match doc.get("format").and_then(Node::as_str) {
            Some(CARD_FORMAT) => {}
            _ => problems.at(
                rel,
                doc.get("format").unwrap_or(&doc),
                format!("a card with variables must say \"format\": \"{CARD_FORMAT}\""),
                format!("add \"format\": \"{CARD_FORMAT}\""),
            ),
        }
    }
    if let Some(list) = list {
        match list.as_seq() {
            Some(items) => {
                for item in items {
                    if let Some(v) = variable(rel, item, problems) {
                        if vars.iter().any(|d| d.id == v.id) {
                            problems.at(
                                rel,
                                item,
                                format!("variable \"{}\" is defined twice", v.id),
                                "give every variable its own id",
                            );
                        } else {
                            vars.push(v);
                        }
                    }
                }
            }
            None => problems.at(
                rel,
                list,
                "variables must be a list",
                "write \"variables\": [{\"id\": \"day\", \"kind\": \"number\", …}]",
            ),
        }
    }
    // World or character by what the card carries, as the engine's packer decides (a card
    // cannot say which it is).
    let json = serde_json::from_str::<Value>(text).ok();
    let kind = json
        .as_ref()
        .map_or("character", |json| lorecard::world::payloads(json).kind());
    crate::card_checks::hooks(rel, &doc, warnings);
    if let Some(json) = &json {
        crate::card_checks::kind(rel, &doc, json, warnings);
    }
    Card {
        path: rel.into(),
        kind,
    }
}

fn variable(rel: &str, item: &Node, problems: &mut Problems) -> Option<VarDef> {
    let Some(id) = item
        .get("id")
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
    else {
        problems.at(rel, item, "a variable needs an id", "add \"id\": \"day\"");
        return None;
    };
    let kind_node = item.get("kind");
    let kind = kind_node.and_then(Node::as_str).unwrap_or("");
    if !VAR_KINDS.contains(&kind) {
        problems.at(
            rel,
            kind_node.unwrap_or(item),
            format!("variable \"{id}\": kind must be number, bool, text or enum"),
            "write \"kind\": \"number\"",
        );
        return None;
    }
    let keeper_only = match item.get("visibility").map(|v| (v, v.as_str())) {
        None | Some((_, Some("player"))) => false,
        Some((_, Some("keeper"))) => true,
        Some((v, _)) => {
            problems.at(
                rel,
                v,
                format!("variable \"{id}\": visibility must be player or keeper"),
                "write \"visibility\": \"keeper\" to keep it from players",
            );
            true
        }
    };
    let labels = match item.get("labels").map(Node::to_json) {
        Some(Value::Object(m)) => m,
        Some(Value::String(s)) => Map::from_iter([("en".to_string(), json!(s))]),
        _ => Map::new(),
    };
    let mut bound = |key: &str| -> Option<i64> {
        let n = item.get(key)?;
        let v = n.to_json().as_f64();
        if v.is_none() || kind != "number" {
            problems.at(
                rel,
                n,
                format!("variable \"{id}\": {key} is only for numbers"),
                format!("remove \"{key}\" or make it a number on a number variable"),
            );
        }
        v.map(|f| f as i64)
    };
    let min = bound("minimum");
    let max = bound("maximum");
    let default = item
        .get("default")
        .map(Node::to_json)
        .unwrap_or(match kind {
            "number" => json!(0),
            "bool" => json!(false),
            _ => json!(""),
        });
    let fits = match kind {
        "number" => default.is_number(),
        "bool" => default.is_boolean(),
        _ => default.is_string(),
    };
    if !fits {
        problems.at(
            rel,
            item.get("default").unwrap_or(item),
            format!("variable \"{id}\": the default is not a {kind}"),
            format!("give a {kind} default"),
        );
    }
    Some(VarDef {
        id: id.into(),
        kind: kind.into(),
        keeper_only,
        labels,
        default,
        min,
        max,
        file: rel.into(),
    })
}
