//! A card's hook scripts and its kind, checked as the engine will treat them. Both are
//! warnings: the pack still loads, but a script the engine cannot load is only logged at the
//! table, and a card of the wrong kind reaches the wrong person.

use serde_json::Value;

use crate::problem::Problem;
use crate::yaml::Node;

/// Each hook script through `lorecard::hooks::check`, at the script's place in the file and
/// with the line and column inside it.
pub fn hooks(rel: &str, doc: &Node, warnings: &mut Vec<Problem>) {
    let list = doc.get("hooks").map(|n| ("hooks", n)).or_else(|| {
        ["data", ""].iter().find_map(|holder| {
            let holder = if holder.is_empty() {
                doc
            } else {
                doc.get(holder)?
            };
            let list = holder.get("extensions")?.get("loreweaver_hooks")?;
            Some(("extensions.loreweaver_hooks", list))
        })
    });
    let Some((key, list)) = list else { return };
    let Some(items) = list.as_seq() else { return };
    let values: Vec<Value> = items.iter().map(Node::to_json).collect();
    let codes = lorecard::hooks::codes(&values);
    if let Some((index, _)) = codes.get(lorecard::hooks::MAX_SCRIPTS) {
        warnings.push(Problem::at(
            rel,
            &items[*index],
            format!(
                "{} hook scripts: a room loads at most {}, so this one and those after it never run",
                codes.len(),
                lorecard::hooks::MAX_SCRIPTS
            ),
            "merge scripts: one script can register many handlers",
        ));
    }
    for (index, code) in codes {
        let node = items[index].get("code").unwrap_or(&items[index]);
        for p in lorecard::hooks::check(code) {
            warnings.push(Problem::at(
                rel,
                node,
                format!(
                    "{key}[{index}], line {} column {} of the script: {}",
                    p.line, p.column, p.message
                ),
                if p.skipped {
                    "fix the script: until then none of its handlers run"
                } else {
                    "register the handler for one of the engine's events"
                },
            ));
        }
    }
}

/// A card whose kind (as the engine decides it, by what it carries) is not what its content
/// says it is for: a persona that carries world machinery, or lore with no persona and no
/// machinery.
pub fn kind(rel: &str, doc: &Node, json: &Value, warnings: &mut Vec<Problem>) {
    let payloads = lorecard::world::payloads(json);
    let native = json.get("format").and_then(Value::as_str) == Some(lorecard::card::FORMAT);
    let (body, body_node) = match (json.get("data"), doc.get("data")) {
        (Some(data), Some(node)) if !native => (data, node),
        _ => (json, doc),
    };
    // An opening is not a persona: a world card opens its scene too (the engine's golden
    // world card has one).
    let persona_keys: &[&str] = if native {
        &["personality", "dialogue_examples"]
    } else {
        &["personality", "mes_example"]
    };
    let persona = persona_keys.iter().find(|k| {
        body.get(**k)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    });
    let lore = if native {
        json.get("worldbook").and_then(Value::as_array)
    } else {
        body.get("character_book")
            .and_then(|b| b.get("entries"))
            .and_then(Value::as_array)
    };
    if let (Some(persona), true) = (persona, payloads.any()) {
        let what = [
            (payloads.hooks, "hook script"),
            (payloads.variable_declarations, "variable declaration"),
            (payloads.secret_entries, "keeper-only entry"),
            (payloads.ejs_blocks, "template block"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect::<Vec<_>>()
        .join(", ");
        warnings.push(Problem::at(
            rel,
            body_node.get(persona).unwrap_or(doc),
            format!(
                "this card has a persona but the engine reads it as a world card ({what}): only \
                 a keeper can bring it in, and no player can take it as their character"
            ),
            "split it into a character card and a world card (the forge's Split does it)",
        ));
    } else if persona.is_none() && !payloads.any() && lore.is_some_and(|l| !l.is_empty()) {
        let node = if native {
            doc.get("worldbook")
        } else {
            body_node.get("character_book")
        };
        warnings.push(Problem::at(
            rel,
            node.unwrap_or(doc),
            "this card is lore with no persona, but the engine reads it as a character card (no \
             hooks, variables, keeper-only lore or templates): the pack offers it to players as \
             a character, not to the keeper as the world",
            "make it a world card with a variable or keeper-only lore, or give it a personality",
        ));
    }
}
