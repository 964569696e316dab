//! A JSON document merged three ways, field by field.
//!
//! The card forge edits a card file's whole document. When the file changes on disk while the
//! form is open, the author should not have to choose between their typing and the other
//! edit. [`merge`] takes the document as it was opened (`base`), the form's (`ours`) and the
//! file's now (`theirs`):
//!
//! - a field only one side changed takes that side's value (an added or removed field too);
//! - a field both sides changed to the same value takes it;
//! - a field both sides changed differently is a [`Conflict`], named by its place
//!   (`worldbook[2].condition`), decided by the person: ours unless its place is in
//!   `take_theirs`.
//!
//! Objects merge key by key. A list merges element by element: by `id` when every element
//! carries its own (worldbook entries, variables), else by position when no side added or
//! removed one; elements appended past the base on either side are all kept. Any other change
//! to a list's length on both sides is one conflict for the whole list.
//!
//! Pure: no window, no file; the forge's form calls it with the file it read again.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

/// A place both sides changed differently.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// Where, as a path (`description`, `worldbook[2].content`, `variables[day].default`).
    pub at: String,
    /// The form's value (`Null` when the form removed it).
    pub ours: Value,
    /// The file's value (`Null` when the file removed it).
    pub theirs: Value,
}

/// The merged document and what it decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub doc: Value,
    /// Every place both sides changed differently, in document order.
    pub conflicts: Vec<Conflict>,
    /// Places where the file's change was taken with no conflict.
    pub taken: usize,
}

/// `ours` and `theirs` merged over `base`; a conflict takes the file's value when its place is
/// in `take_theirs`, the form's otherwise.
pub fn merge(base: &Value, ours: &Value, theirs: &Value, take_theirs: &BTreeSet<String>) -> Merged {
    let mut run = Run {
        take_theirs,
        conflicts: Vec::new(),
        taken: 0,
    };
    let doc = run
        .node(String::new(), Some(base), Some(ours), Some(theirs))
        .unwrap_or(Value::Null);
    Merged {
        doc,
        conflicts: run.conflicts,
        taken: run.taken,
    }
}

struct Run<'a> {
    take_theirs: &'a BTreeSet<String>,
    conflicts: Vec<Conflict>,
    taken: usize,
}

fn field(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

impl Run<'_> {
    /// One place; `None` is a field absent (removed, or never there).
    fn node(
        &mut self,
        at: String,
        base: Option<&Value>,
        ours: Option<&Value>,
        theirs: Option<&Value>,
    ) -> Option<Value> {
        if ours == theirs {
            return ours.cloned();
        }
        if ours == base {
            self.taken += 1;
            return theirs.cloned();
        }
        if theirs == base {
            return ours.cloned();
        }
        match (ours, theirs) {
            (Some(Value::Object(o)), Some(Value::Object(t))) => {
                let b = base.and_then(Value::as_object);
                Some(Value::Object(self.object(&at, b, o, t)))
            }
            (Some(Value::Array(o)), Some(Value::Array(t))) => {
                let b = base.and_then(Value::as_array);
                self.array(at, b, o, t)
            }
            _ => self.conflict(at, ours, theirs),
        }
    }

    fn conflict(
        &mut self,
        at: String,
        ours: Option<&Value>,
        theirs: Option<&Value>,
    ) -> Option<Value> {
        let pick = if self.take_theirs.contains(&at) {
            theirs
        } else {
            ours
        }
        .cloned();
        self.conflicts.push(Conflict {
            at,
            ours: ours.cloned().unwrap_or(Value::Null),
            theirs: theirs.cloned().unwrap_or(Value::Null),
        });
        pick
    }

    fn object(
        &mut self,
        at: &str,
        base: Option<&Map<String, Value>>,
        ours: &Map<String, Value>,
        theirs: &Map<String, Value>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        let keys = ours
            .keys()
            .chain(theirs.keys().filter(|k| !ours.contains_key(*k)));
        for key in keys {
            let b = base.and_then(|b| b.get(key));
            if let Some(v) = self.node(field(at, key), b, ours.get(key), theirs.get(key)) {
                out.insert(key.clone(), v);
            }
        }
        out
    }

    fn array(
        &mut self,
        at: String,
        base: Option<&Vec<Value>>,
        ours: &[Value],
        theirs: &[Value],
    ) -> Option<Value> {
        let empty = Vec::new();
        let b = base.unwrap_or(&empty);
        if [b.as_slice(), ours, theirs]
            .iter()
            .all(|l| ids(l).is_some())
        {
            return Some(Value::Array(self.by_id(&at, b, ours, theirs)));
        }
        let n = b.len();
        if ours.len() < n || theirs.len() < n {
            // Removed on a side that the other changed too: one decision for the whole list.
            return self.conflict(
                at,
                Some(&Value::Array(ours.to_vec())),
                Some(&Value::Array(theirs.to_vec())),
            );
        }
        let mut out: Vec<Value> = (0..n)
            .map(|i| {
                self.node(format!("{at}[{i}]"), b.get(i), ours.get(i), theirs.get(i))
                    .unwrap_or(Value::Null)
            })
            .collect();
        // Appended past the base: every side's new elements are kept (two authors each
        // adding an entry both mean theirs to stay).
        let (o, t) = (&ours[n..], &theirs[n..]);
        out.extend(o.iter().cloned());
        if t != o {
            if t.len() > o.len() && t.starts_with(o) {
                out.extend(t[o.len()..].iter().cloned());
                self.taken += 1;
            } else if !o.starts_with(t) {
                out.extend(t.iter().cloned());
                self.taken += 1;
            }
        }
        Some(Value::Array(out))
    }

    /// Elements matched by `id`: the form's order, the file's additions after the element
    /// they follow there.
    fn by_id(&mut self, at: &str, base: &[Value], ours: &[Value], theirs: &[Value]) -> Vec<Value> {
        let find =
            |list: &'_ [Value], id: &str| list.iter().find(|v| id_of(v) == Some(id)).cloned();
        let mut out: Vec<Value> = Vec::new();
        for o in ours {
            let id = id_of(o).unwrap_or_default();
            let (b, t) = (find(base, id), find(theirs, id));
            if let Some(v) = self.node(format!("{at}[{id}]"), b.as_ref(), Some(o), t.as_ref()) {
                out.push(v);
            }
        }
        let mut after: Option<&str> = None;
        for t in theirs {
            let id = id_of(t).unwrap_or_default();
            if find(ours, id).is_none() {
                let b = find(base, id);
                if let Some(v) = self.node(format!("{at}[{id}]"), b.as_ref(), None, Some(t)) {
                    let place = after
                        .and_then(|a| out.iter().position(|v| id_of(v) == Some(a)))
                        .map_or(0, |i| i + 1);
                    out.insert(place, v);
                }
            }
            after = Some(id);
        }
        out
    }
}

fn id_of(v: &Value) -> Option<&str> {
    v.get("id")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// Every element's `id`, when every element has its own.
fn ids(list: &[Value]) -> Option<HashSet<&str>> {
    let mut seen = HashSet::new();
    for v in list {
        if !seen.insert(id_of(v)?) {
            return None;
        }
    }
    Some(seen)
}

#[cfg(test)]
mod tests;
