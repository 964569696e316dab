//! Where the offline table and the engine disagree about the same pack.
//!
//! The bench runs a pack on both: Studio's local table (what [`crate::load`] makes of it) and
//! the real engine's dev room. Each audience (keeper, player) sees a `ui_manifest`, the room's
//! variables and the pack's cards; [`compare`] lists every place where the two differ, with
//! the pack file it comes from. A difference Studio keeps on purpose carries its reason
//! ([`Difference::known`]); every other one is a finding, a bug on one side or the other.

use serde_json::Value;

use crate::Pack;

/// One place where the two tables disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// `keeper` or `player`: whose view differs.
    pub audience: &'static str,
    /// `panel`, `variable` or `card`.
    pub subject: &'static str,
    /// The panel's wire id, the variable's id or the card's file.
    pub id: String,
    /// What differs, in a sentence naming both sides.
    pub what: String,
    /// The pack file it comes from (relative to the pack folder).
    pub file: String,
    /// Why Studio keeps this difference on purpose; `None`: a finding.
    pub known: Option<&'static str>,
}

/// A variable of the offline table's room, as a viewer would see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub id: String,
    pub kind: String,
    pub value: Value,
    /// Keeper-only (players never receive it).
    pub hidden: bool,
}

/// What one audience was shown by the engine: its last `ui_manifest.panels`, its last
/// `state.variables`, and the `pack_cards` answer (`None`: not asked or not answered yet).
#[derive(Debug, Clone, Default)]
pub struct Seen {
    pub panels: Vec<Value>,
    pub variables: Vec<Value>,
    pub cards: Option<Vec<Value>>,
}

/// Keeper-only variables: the offline table sends them to the keeper flagged `hidden` (as the
/// engine does for MVU leaves); the engine's typed keeper-only variables reach no connection.
pub const KEEPER_ONLY_VARS: &str = "Studio shows a keeper-only variable to the keeper, flagged hidden; the engine's typed keeper-only variables reach no connection";

/// Every difference between the offline table (`pack`, its room's `vars`) and the engine's
/// views for the keeper and for a player.
pub fn compare(pack: &Pack, vars: &[Var], keeper: &Seen, player: &Seen) -> Vec<Difference> {
    let mut out = Vec::new();
    for (audience, seen, is_keeper) in [("keeper", keeper, true), ("player", player, false)] {
        panels(pack, audience, is_keeper, &seen.panels, &mut out);
        variables(pack, audience, is_keeper, vars, &seen.variables, &mut out);
        if let Some(cards) = &seen.cards {
            card_list(pack, audience, cards, &mut out);
        }
    }
    out
}

fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "nothing".into(),
        Some(Value::String(s)) => format!("\"{s}\""),
        Some(other) => other.to_string(),
    }
}

/// The kinds of a panel's blocks (or its fallback's), in order: what it renders.
fn block_kinds(panel: &Value, key: &str) -> Vec<String> {
    panel
        .get(key)
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .map(|b| b.get("kind").and_then(Value::as_str).unwrap_or("?").into())
                .collect()
        })
        .unwrap_or_default()
}

fn panels(
    pack: &Pack,
    audience: &'static str,
    keeper: bool,
    engine: &[Value],
    out: &mut Vec<Difference>,
) {
    let prefix = format!("{}/", pack.id);
    let default_file = pack
        .panels
        .first()
        .map(|p| p.file.clone())
        .unwrap_or_else(|| "pack.yaml".into());
    let ours: Vec<_> = pack
        .panels
        .iter()
        .filter(|p| p.audience.reaches(keeper))
        .collect();
    let theirs: Vec<&Value> = engine
        .iter()
        .filter(|p| {
            p.get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| id.starts_with(&prefix))
        })
        .collect();
    let id_of = |v: &Value| {
        v.get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut push = |id: &str, what: String, file: &str| {
        out.push(Difference {
            audience,
            subject: "panel",
            id: id.into(),
            what,
            file: file.into(),
            known: None,
        })
    };
    for p in &ours {
        let Some(e) = theirs.iter().find(|e| id_of(e) == p.id) else {
            push(
                &p.id,
                "the offline table shows this panel; the engine does not".into(),
                &p.file,
            );
            continue;
        };
        for key in ["tier", "slot", "title"] {
            if p.wire.get(key) != e.get(key) {
                push(
                    &p.id,
                    format!(
                        "{key}: offline {}, engine {}",
                        text(p.wire.get(key)),
                        text(e.get(key))
                    ),
                    &p.file,
                );
            }
        }
        for key in ["blocks", "fallback"] {
            let (a, b) = (block_kinds(&p.wire, key), block_kinds(e, key));
            if a != b {
                push(
                    &p.id,
                    format!(
                        "{key}: offline [{}], engine [{}]",
                        a.join(", "),
                        b.join(", ")
                    ),
                    &p.file,
                );
            }
        }
        if p.wire.get("entry").is_some() != e.get("entry").is_some() {
            push(&p.id, "the page entry is on one side only".into(), &p.file);
        }
    }
    for e in theirs {
        let id = id_of(e);
        if !ours.iter().any(|p| p.id == id) {
            push(
                &id,
                "the engine shows this panel; the offline table does not".into(),
                &default_file,
            );
        }
    }
}

fn variables(
    pack: &Pack,
    audience: &'static str,
    keeper: bool,
    vars: &[Var],
    engine: &[Value],
    out: &mut Vec<Difference>,
) {
    let file_of = |id: &str| {
        pack.variables
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.file.clone())
            .unwrap_or_default()
    };
    let id_of = |v: &Value| {
        v.get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let ours: Vec<&Var> = vars.iter().filter(|v| keeper || !v.hidden).collect();
    for v in &ours {
        let file = file_of(&v.id);
        let mut push = |what: String, known: Option<&'static str>| {
            out.push(Difference {
                audience,
                subject: "variable",
                id: v.id.clone(),
                what,
                file: file.clone(),
                known,
            })
        };
        let Some(e) = engine.iter().find(|e| id_of(e) == v.id) else {
            let known = (keeper && v.hidden).then_some(KEEPER_ONLY_VARS);
            push(
                "the offline table has this variable; the engine does not".into(),
                known,
            );
            continue;
        };
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or_default();
        if kind != v.kind {
            push(format!("kind: offline {}, engine {kind}", v.kind), None);
        }
        if !same_value(&v.value, e.get("value")) {
            push(
                format!(
                    "value: offline {}, engine {}",
                    text(Some(&v.value)),
                    text(e.get("value"))
                ),
                None,
            );
        }
    }
    for e in engine {
        let id = id_of(e);
        if !ours.iter().any(|v| v.id == id) {
            out.push(Difference {
                audience,
                subject: "variable",
                file: file_of(&id),
                id,
                what: "the engine has this variable; the offline table does not".into(),
                known: None,
            });
        }
    }
}

/// Numbers compare by value (`3` and `3.0` are the same on the wire).
fn same_value(a: &Value, b: Option<&Value>) -> bool {
    match (a, b) {
        (Value::Number(x), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (a, Some(b)) => a == b,
        _ => false,
    }
}

fn card_list(pack: &Pack, audience: &'static str, engine: &[Value], out: &mut Vec<Difference>) {
    let field = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let theirs: Vec<&Value> = engine
        .iter()
        .filter(|c| field(c, "pack") == pack.id)
        .collect();
    // The engine's `ref` is `<pack>/<file in the pack>`.
    let path_of = |c: &Value| {
        let r = field(c, "ref");
        r.strip_prefix(&format!("{}/", pack.id))
            .map(str::to_string)
            .unwrap_or(r)
    };
    let mut push = |id: String, what: String| {
        out.push(Difference {
            audience,
            subject: "card",
            file: id.clone(),
            id,
            what,
            known: None,
        })
    };
    for card in &pack.cards {
        match theirs.iter().find(|c| path_of(c) == card.path) {
            None => push(
                card.path.clone(),
                "the offline table lists this card; the engine does not".into(),
            ),
            Some(c) => {
                // A pre-2.3 answer omits kind: "character".
                let kind = c.get("kind").and_then(Value::as_str).unwrap_or("character");
                if kind != card.kind {
                    push(
                        card.path.clone(),
                        format!("kind: offline {}, engine {kind}", card.kind),
                    );
                }
            }
        }
    }
    for c in theirs {
        let path = path_of(c);
        if !pack.cards.iter().any(|card| card.path == path) {
            push(
                path,
                "the engine lists this card; the offline table does not".into(),
            );
        }
    }
}

#[cfg(test)]
#[path = "differences_tests.rs"]
mod tests;
