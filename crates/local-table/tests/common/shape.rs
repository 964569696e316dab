//! Frames compared by shape, not value: every JSON path a frame type has, with the JSON
//! type found there, over a whole session (so a frame arriving a step late on one side
//! still counts). Array rows merge under `path[]`, so a list's row shape is compared
//! whatever its length; values (ids, times, rolls, model text) are never compared.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

/// Path → the JSON types seen there, over every frame of one type.
pub type Shape = BTreeMap<String, BTreeSet<&'static str>>;

/// A frame with the script step it arrived in.
pub type Seen = (String, Value);

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn add(v: &Value, path: &str, out: &mut Shape) {
    out.entry(path.to_string()).or_default().insert(kind(v));
    match v {
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| path != "$" || *k != "type")
            .for_each(|(k, v)| add(v, &format!("{path}.{k}"), out)),
        Value::Array(rows) => rows.iter().for_each(|r| add(r, &format!("{path}[]"), out)),
        _ => {}
    }
}

/// Shapes of `frames` by frame type, with the first step each path was seen in.
pub fn by_type(frames: &[Seen]) -> BTreeMap<String, (Shape, BTreeMap<String, String>)> {
    let mut out: BTreeMap<String, (Shape, BTreeMap<String, String>)> = BTreeMap::new();
    for (step, f) in frames {
        let ty = f["type"]
            .as_str()
            .unwrap_or_else(|| panic!("a frame without a type: {f}"));
        let (shape, first) = out.entry(ty.to_string()).or_default();
        add(f, "$", shape);
        for path in shape.keys() {
            first.entry(path.clone()).or_insert_with(|| step.clone());
        }
    }
    out
}

/// One way our frames differ from the engine's.
#[derive(Debug, Clone)]
pub struct Diff {
    /// Where in the script, and on which connection.
    pub step: String,
    pub frame: String,
    pub path: String,
    pub ours: String,
    pub engine: String,
}

impl fmt::Display for Diff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {} {}: ours {}, engine {}",
            self.step, self.frame, self.path, self.ours, self.engine
        )
    }
}

fn describe(kinds: Option<&BTreeSet<&'static str>>) -> String {
    match kinds {
        None => "absent".into(),
        Some(k) => k.iter().copied().collect::<Vec<_>>().join("|"),
    }
}

/// A path under a list that is empty on one side has no rows to compare there.
fn under_empty_list(path: &str, shape: &Shape) -> bool {
    path.match_indices("[]").any(|(at, _)| {
        let (list, rows) = (&path[..at], &path[..at + 2]);
        shape.contains_key(list) && !shape.contains_key(rows)
    })
}

/// Every difference between our frames and the engine's on one connection.
pub fn diff(conn: &str, ours: &[Seen], engine: &[Seen]) -> Vec<Diff> {
    let (ours, engine) = (by_type(ours), by_type(engine));
    let mut out = vec![];
    let types: BTreeSet<&String> = ours.keys().chain(engine.keys()).collect();
    for ty in types {
        let (a, b) = (ours.get(ty), engine.get(ty));
        let step = |path: &str| {
            let first = [a, b].into_iter().flatten().find_map(|(_, f)| f.get(path));
            format!("{conn}, {}", first.map_or("?", String::as_str))
        };
        let (Some((a, _)), Some((b, _))) = (a, b) else {
            let sent = |s: Option<&_>| if s.is_some() { "sent" } else { "not sent" };
            out.push(Diff {
                step: step("$"),
                frame: ty.clone(),
                path: "$".into(),
                ours: sent(a).into(),
                engine: sent(b).into(),
            });
            continue;
        };
        let paths: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for path in paths {
            let (ka, kb) = (a.get(path), b.get(path));
            if ka == kb || under_empty_list(path, a) || under_empty_list(path, b) {
                continue;
            }
            out.push(Diff {
                step: step(path),
                frame: ty.clone(),
                path: path.clone(),
                ours: describe(ka),
                engine: describe(kb),
            });
        }
    }
    out
}
