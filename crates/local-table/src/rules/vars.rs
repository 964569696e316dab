//! `.var` (keeper only): list, set, add and expose module variables, worded like the
//! engine. A change reaches players only through `state`; its line is keeper-private.

use serde_json::{json, Value};

use crate::model::room::{Member, RoomState};
use crate::model::saved::Var;
use crate::rules::reply::system_frame;
use crate::rules::state::broadcast_state;

pub fn command(st: &mut RoomState, member: &Member, rest: &str) {
    if !member.is_keeper() {
        return member.send(&system_frame("Only the keeper can change variables."));
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (op, id) = (
        words.first().copied().unwrap_or("list"),
        words.get(1).copied().unwrap_or(""),
    );
    if op == "list" {
        return member.send(&system_frame(&list(st)));
    }
    let value = words.get(2..).map(|w| w.join(" ")).unwrap_or_default();
    let Some(var) = st.saved.vars.iter_mut().find(|v| v.id == id) else {
        return member.send(&system_frame(&format!("Unknown variable: {id}")));
    };
    let old = shown(&var.value);
    let result = match op {
        "set" => parse_value(&var.kind, &value).map(|v| {
            var.value = clamp(v, var.min, var.max);
            String::new()
        }),
        "add" => match (var.value.as_f64(), value.parse::<f64>()) {
            (Some(a), Ok(b)) => {
                var.value = clamp(num(a + b), var.min, var.max);
                Ok(format!(" (change: {})", shown(&num(b))))
            }
            _ => Err(format!("{id} is not a number")),
        },
        "expose" => {
            var.hidden = false;
            let text = format!("{} [{}] is now player-visible.", var.label, var.id);
            return member.send(&system_frame(&text));
        }
        _ => Err("Usage: .var list | .var set|add|expose <id> [value]".into()),
    };
    let text = match result {
        Ok(note) => format!(
            "{} [{}]: {old} → {}{note}.",
            var.label,
            var.id,
            shown(&var.value)
        ),
        Err(msg) => return member.send(&system_frame(&msg)),
    };
    // The engine pushes the changed snapshot first, then tells the keeper alone;
    // the command's own closing state follows (two states per member in all).
    broadcast_state(st, false);
    member.send(&system_frame(&text));
}

/// The engine's `.var list` text (keeper-only rows included: only the keeper asks).
fn list(st: &RoomState) -> String {
    let vars = &st.saved.vars;
    let mut text = format!(
        "Module trackers ({}; write with .var set / .var add):",
        vars.len()
    );
    for v in vars {
        let scope = if v.hidden {
            "keeper-only"
        } else {
            "player-visible"
        };
        let value = shown(&v.value);
        text.push_str(&format!("\n· {} [{}] = {value} [{scope}]", v.label, v.id));
    }
    text
}

/// A value as the engine prints it (Python's `str`: `True`, `4`, `half oil`).
fn shown(v: &Value) -> String {
    match v {
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::String(s) => s.clone(),
        Value::Null => "None".into(),
        other => other.to_string(),
    }
}

fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// Bounded numbers stay inside their declared min/max.
fn clamp(v: Value, min: Option<i64>, max: Option<i64>) -> Value {
    match v.as_f64() {
        Some(mut x) => {
            if let Some(m) = min {
                x = x.max(m as f64);
            }
            if let Some(m) = max {
                x = x.min(m as f64);
            }
            num(x)
        }
        None => v,
    }
}

fn parse_value(kind: &str, raw: &str) -> Result<Value, String> {
    match kind {
        "number" => raw
            .parse::<f64>()
            .map(num)
            .map_err(|_| format!("not a number: {raw}")),
        "bool" => match raw.to_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => Ok(json!(true)),
            "false" | "off" | "no" | "0" => Ok(json!(false)),
            _ => Err(format!("not a boolean: {raw}")),
        },
        _ => Ok(json!(raw)),
    }
}

/// Sets (or, for an id the room does not have, adds) a variable from outside the chat: the
/// pack bench's variables editor. `raw` is read by the variable's kind, as `.var set` reads
/// it; every member gets a fresh `state`.
pub fn set_from_bench(st: &mut RoomState, id: &str, kind: &str, raw: &str) -> Result<(), String> {
    let id = id.trim();
    if id.is_empty() || id.chars().any(char::is_whitespace) {
        return Err("a variable id is one word".into());
    }
    match st.saved.vars.iter_mut().find(|v| v.id == id) {
        Some(var) => var.value = clamp(parse_value(&var.kind, raw)?, var.min, var.max),
        None => {
            let kind = match kind {
                "number" | "bool" | "text" | "enum" => kind,
                _ => return Err(format!("unknown kind: {kind}")),
            };
            st.saved.vars.push(Var {
                id: id.into(),
                label: id.into(),
                kind: kind.into(),
                value: parse_value(kind, raw)?,
                min: None,
                max: None,
                hidden: false,
            });
        }
    }
    broadcast_state(st, false);
    Ok(())
}
