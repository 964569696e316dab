//! MVU `[InitVar]` trees offered as typed variables.
//!
//! A SillyTavern card that tracks story state with MVU ships a worldbook entry whose title
//! holds `InitVar` and whose content is a nested tree (JSON5-lite, or YAML in newer cards);
//! the engine keeps it as a keeper-side MVU tree (`core/mvu_compat.py`). The forge reads the
//! same tree the same way and offers each leaf as a typed module variable (`core/modvars.py`):
//! a whole number becomes `number` (with a range when the leaf's description gives one), a
//! boolean `bool`, a short string `text`. What cannot be typed stays in the tree, with why.
//! The author chooses; promoted leaves leave the tree so no state is tracked twice.

use serde_json::{Map, Number, Value};

use crate::card::{Lorecard, Variable};

/// `core.modvars.MAX_TEXT_LEN`: a longer string would be cut, so it is not offered.
const MAX_TEXT: usize = 200;
/// `core.mvu_compat.MAX_FLAT_LEAVES`.
const MAX_LEAVES: usize = 200;

/// One leaf of an `[InitVar]` tree and what it would become.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The entry (its index in the worldbook) the leaf lives in.
    pub entry: usize,
    /// Dotted, as MVU addresses it (`理.好感度`).
    pub path: String,
    pub value: Value,
    /// A ValueWithDescription leaf's description (the engine keeps none on a variable).
    pub description: Option<String>,
    /// The typed variable, or `None` with `why` when it cannot be typed.
    pub variable: Option<Variable>,
    pub why: String,
}

/// Whether an entry title marks an MVU tree (`is_initvar_entry`: a case-insensitive substring).
pub fn is_initvar(title: &str) -> bool {
    title.to_lowercase().contains("initvar")
}

/// `parse_initvar`: the JSON5-lite object first, then YAML; `None` when neither gives a map.
pub fn parse(text: &str) -> Option<Map<String, Value>> {
    if text.trim().is_empty() {
        return None;
    }
    if let Some(json) = json5_normalize(text) {
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&json) {
            return Some(map);
        }
    }
    parse_yaml(text)
}

/// PyYAML's semantics as the engine uses them: YAML 1.1 booleans, last duplicate key wins,
/// anchors and aliases refused (an imported card is untrusted).
fn parse_yaml(text: &str) -> Option<Map<String, Value>> {
    if multi_line_flow_key(text) {
        return None;
    }
    let mut options = serde_saphyr::Options::default();
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::LastWins;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_aliases = 0;
    budget.max_anchors = 0;
    options.budget = Some(budget);
    match serde_saphyr::from_str_with_options::<Value>(text, options) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// A key inside `{…}`/`[…]` that runs over a line break: PyYAML refuses it ("while parsing a
/// flow mapping"), serde-saphyr joins the lines. JSON5-lite with a comment before a bare CJK
/// key is such a text (`{ a: 1, // note⏎ 理: 2 }`): the engine reads no tree from it.
fn multi_line_flow_key(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let (mut depth, mut quote) = (0usize, None::<char>);
    let (mut token, mut broken) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if let Some(q) = quote {
            if c == '\\' && q == '"' {
                i += 1;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        if depth == 0 {
            if matches!(c, '{' | '[') {
                depth = 1;
                (token, broken) = (false, false);
            }
            continue;
        }
        match c {
            '"' | '\'' if !token => quote = Some(c),
            '{' | '[' => {
                depth += 1;
                (token, broken) = (false, false);
            }
            '}' | ']' => {
                depth -= 1;
                (token, broken) = (false, false);
            }
            ',' => (token, broken) = (false, false),
            ':' if chars
                .get(i)
                .is_none_or(|n| n.is_whitespace() || ",[]{}".contains(*n)) =>
            {
                if broken {
                    return true;
                }
                (token, broken) = (false, false);
            }
            '\n' if token => broken = true,
            c if !c.is_whitespace() => token = true,
            _ => {}
        }
    }
    false
}

/// Every leaf of every `[InitVar]` entry of `card`, in the tree's order.
pub fn proposals(card: &Lorecard) -> Vec<Proposal> {
    let mut out = Vec::new();
    let mut taken: Vec<String> = card.variables.iter().map(|v| v.id.clone()).collect();
    for (index, entry) in card.worldbook.iter().enumerate() {
        if !is_initvar(&entry.title) {
            continue;
        }
        let Some(tree) = parse(&entry.content) else {
            continue;
        };
        let mut leaves = Vec::new();
        flatten(&Value::Object(tree), "", &mut leaves);
        for (path, value, description) in leaves {
            let (variable, why) = match typed(&path, &value, description.as_deref()) {
                Ok(v) if taken.contains(&v.id) => {
                    (None, format!("the card already has a variable {:?}", v.id))
                }
                Ok(v) => {
                    taken.push(v.id.clone());
                    (Some(v), String::new())
                }
                Err(why) => (None, why),
            };
            out.push(Proposal {
                entry: index,
                path,
                value,
                description,
                variable,
                why,
            });
        }
    }
    out
}

/// Adds the chosen leaves (by path) as variables and takes them out of their tree; an entry
/// whose tree is left empty is removed. Returns one line per change for the author.
pub fn promote(card: &mut Lorecard, chosen: &[String]) -> Vec<String> {
    let offered = proposals(card);
    let mut notes = Vec::new();
    let mut emptied = Vec::new();
    for (index, entry) in card.worldbook.iter_mut().enumerate() {
        let picked: Vec<&Proposal> = offered
            .iter()
            .filter(|p| p.entry == index && p.variable.is_some() && chosen.contains(&p.path))
            .collect();
        if picked.is_empty() {
            continue;
        }
        let Some(mut tree) = parse(&entry.content).map(Value::Object) else {
            continue;
        };
        for p in &picked {
            remove(&mut tree, &p.path);
            card.variables.push(p.variable.clone().expect("filtered"));
        }
        prune_empty(&mut tree);
        let title = entry.title.clone();
        if tree.as_object().is_some_and(Map::is_empty) {
            emptied.push(index);
            notes.push(format!(
                "entry {title:?}: all {} leaves became typed variables; the entry is gone",
                picked.len()
            ));
        } else {
            entry.content = serde_json::to_string_pretty(&tree).expect("a JSON tree");
            notes.push(format!(
                "entry {title:?}: {} leaves became typed variables; the rest stays an MVU tree (rewritten as JSON, its comments dropped)",
                picked.len()
            ));
        }
    }
    for index in emptied.into_iter().rev() {
        card.worldbook.remove(index);
    }
    // A condition reads a variable id first, then the MVU tree (`core.varspace`): a promoted
    // path is now found only under its id.
    let moved: Vec<(String, String)> = offered
        .iter()
        .filter(|p| chosen.contains(&p.path))
        .filter_map(|p| p.variable.as_ref().map(|v| (p.path.clone(), v.id.clone())))
        .collect();
    for entry in &mut card.worldbook {
        for (path, id) in &moved {
            let condition = replace_name(&entry.condition, path, id);
            if condition != entry.condition {
                notes.push(format!(
                    "entry {:?}: its condition now reads {id} (was {path})",
                    entry.title
                ));
                entry.condition = condition;
            } else if !is_initvar(&entry.title)
                && replace_name(&entry.content, path, id) != entry.content
            {
                notes.push(format!(
                    "entry {:?} names {path} in its text (MVU update rules reach the tree, not the variable {id}): check it",
                    entry.title
                ));
            }
        }
    }
    notes
}

/// `text` with `name` replaced by `by` wherever it stands as a whole name (not part of a
/// longer dotted path or word).
fn replace_name(text: &str, name: &str, by: &str) -> String {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let before = if at > 0 {
            rest[..at].chars().last()
        } else {
            out.chars().last()
        };
        let after = rest[at + name.len()..].chars().next();
        out.push_str(&rest[..at]);
        if part(before) || part(after) {
            out.push_str(name);
        } else {
            out.push_str(by);
        }
        rest = &rest[at + name.len()..];
    }
    out.push_str(rest);
    out
}

/// `_flatten_into`: ValueWithDescription leaves unwrap (their description kept), a list of
/// scalars is one leaf, a list of containers recurses by index.
fn flatten(node: &Value, prefix: &str, out: &mut Vec<(String, Value, Option<String>)>) {
    if out.len() >= MAX_LEAVES {
        return;
    }
    let join = |key: &str| {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    };
    match node {
        Value::Array(items) if items.len() == 2 && items[1].is_string() => out.push((
            prefix.into(),
            items[0].clone(),
            items[1].as_str().map(str::to_string),
        )),
        Value::Object(map) => {
            for (key, child) in map {
                flatten(child, &join(key), out);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            for (index, child) in items.iter().enumerate() {
                flatten(child, &join(&index.to_string()), out);
            }
        }
        _ => out.push((prefix.into(), node.clone(), None)),
    }
}

/// The variable a leaf becomes, or why it cannot be one.
fn typed(path: &str, value: &Value, description: Option<&str>) -> Result<Variable, String> {
    let id = variable_id(path).ok_or_else(|| {
        format!("{path:?} makes no variable id (at most 64 letters, digits and underscores)")
    })?;
    let mut var = Variable {
        id,
        kind: String::new(),
        visibility: "keeper".into(),
        labels: Map::new(),
        default: value.clone(),
        minimum: None,
        maximum: None,
        options: None,
        extra: Map::new(),
    };
    match value {
        Value::Bool(_) => var.kind = "bool".into(),
        Value::Number(n) if whole(n).is_some() => {
            let v = whole(n).expect("checked");
            var.kind = "number".into();
            var.default = v.into();
            if let Some((low, high)) = description.and_then(range) {
                if low <= v && v <= high {
                    var.minimum = Some(Number::from(low));
                    var.maximum = Some(Number::from(high));
                }
            }
        }
        Value::Number(n) => {
            return Err(format!(
                "{n} is not a whole number (a variable counts in whole numbers)"
            ))
        }
        Value::String(s) if s.chars().count() <= MAX_TEXT => var.kind = "text".into(),
        Value::String(_) => return Err(format!("longer than {MAX_TEXT} characters")),
        Value::Array(_) => return Err("a list (a variable holds one value)".into()),
        Value::Null => return Err("no value to start from".into()),
        Value::Object(_) => return Err("an empty group".into()),
    }
    Ok(var)
}

/// A whole number, `5.0` too (`coerce_int` takes it as 5).
fn whole(n: &Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| f as i64)
    })
}

/// `core.modvars.normalize_id` of the path with its dots as underscores.
pub fn variable_id(path: &str) -> Option<String> {
    let mut id = String::new();
    let mut gap = false;
    for c in path.trim().chars() {
        if c.is_whitespace() || c == '-' || c == '.' {
            gap = true;
            continue;
        }
        if gap && !id.is_empty() {
            id.push('_');
        }
        gap = false;
        id.extend(c.to_lowercase());
    }
    let ok = (1..=64).contains(&id.chars().count())
        && id.chars().all(|c| {
            if c.is_ascii() {
                c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
            } else {
                !c.is_whitespace() && !c.is_control() && !is_separator(c)
            }
        });
    ok.then_some(id)
}

/// Unicode's Z categories beyond whitespace, and the C categories `is_control` leaves out.
fn is_separator(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}')
}

/// A whole-number range in a leaf's description: `[-10,10]`, `0~100`, `0-100`, `0 到 100`.
fn range(description: &str) -> Option<(i64, i64)> {
    let chars: Vec<char> = description.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if let Some((low, end)) = integer(&chars, i) {
            let mut j = end;
            while j < chars.len() && chars[j] == ' ' {
                j += 1;
            }
            let sep = chars.get(j).copied();
            if matches!(sep, Some(',' | '~' | '-' | '～' | '，' | '到' | '至')) {
                j += 1;
                while j < chars.len() && chars[j] == ' ' {
                    j += 1;
                }
                if let Some((high, _)) = integer(&chars, j) {
                    if low < high {
                        return Some((low, high));
                    }
                }
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    None
}

fn integer(chars: &[char], start: usize) -> Option<(i64, usize)> {
    let mut end = start;
    if chars.get(end) == Some(&'-') {
        end += 1;
    }
    let digits = end;
    while end < chars.len() && chars[end].is_ascii_digit() {
        end += 1;
    }
    if end == digits || chars.get(end) == Some(&'.') {
        return None;
    }
    let text: String = chars[start..end].iter().collect();
    text.parse().ok().map(|n| (n, end))
}

fn remove(tree: &mut Value, path: &str) {
    let segments: Vec<&str> = path.split('.').collect();
    let Some((last, parents)) = segments.split_last() else {
        return;
    };
    let mut node = tree;
    for seg in parents {
        node = match node {
            Value::Object(m) => match m.get_mut(*seg) {
                Some(n) => n,
                None => return,
            },
            Value::Array(a) => match seg.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                Some(n) => n,
                None => return,
            },
            _ => return,
        };
    }
    match node {
        Value::Object(m) => {
            m.shift_remove(*last);
        }
        // A list keeps its indices (the paths of its other leaves): the leaf becomes null.
        Value::Array(a) => {
            if let Some(slot) = last.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                *slot = Value::Null;
            }
        }
        _ => {}
    }
}

/// Groups left with nothing in them go too.
fn prune_empty(node: &mut Value) {
    if let Value::Object(map) = node {
        for child in map.values_mut() {
            prune_empty(child);
        }
        map.retain(|_, child| !child.as_object().is_some_and(Map::is_empty));
    }
}

// ---- JSON5-lite (`_json5_normalize`): comments out, single quotes to double, trailing
// commas dropped, bare identifier keys quoted. `None` on an unterminated string or comment.

fn json5_normalize(text: &str) -> Option<String> {
    Some(quote_bare_keys(&drop_trailing_commas(&strip_comments(
        text,
    )?)))
}

fn strip_comments(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '"' || ch == '\'' {
            let quote = ch;
            i += 1;
            let mut buf = String::new();
            let mut closed = false;
            while i < chars.len() {
                let c = chars[i];
                if c == '\\' {
                    let escaped = *chars.get(i + 1)?;
                    if quote == '\'' && escaped == '\'' {
                        buf.push('\'');
                    } else {
                        buf.push('\\');
                        buf.push(escaped);
                    }
                    i += 2;
                    continue;
                }
                if c == quote {
                    closed = true;
                    i += 1;
                    break;
                }
                if c == '"' && quote == '\'' {
                    buf.push_str("\\\"");
                } else {
                    buf.push(c);
                }
                i += 1;
            }
            if !closed {
                return None;
            }
            out.push('"');
            out.push_str(&buf);
            out.push('"');
            continue;
        }
        if ch == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if ch == '/' && chars.get(i + 1) == Some(&'*') {
            let rest: String = chars[i + 2..].iter().collect();
            let end = rest.find("*/")?;
            i += 2 + rest[..end].chars().count() + 2;
            continue;
        }
        out.push(ch);
        i += 1;
    }
    Some(out)
}

/// Calls `keep` for every character outside strings with the text after it; inside a
/// (double-quoted, already normalized) string everything is copied.
fn outside_strings(
    text: &str,
    mut step: impl FnMut(&[char], usize, &mut String) -> usize,
) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let ch = chars[i];
        if in_string {
            out.push(ch);
            if ch == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            in_string = ch != '"';
            i += 1;
            continue;
        }
        if ch == '"' {
            in_string = true;
            out.push(ch);
            i += 1;
            continue;
        }
        i = step(&chars, i, &mut out);
    }
    out
}

fn drop_trailing_commas(text: &str) -> String {
    outside_strings(text, |chars, i, out| {
        if chars[i] == ',' {
            let mut probe = i + 1;
            while probe < chars.len() && matches!(chars[probe], ' ' | '\t' | '\r' | '\n') {
                probe += 1;
            }
            if matches!(chars.get(probe), Some('}' | ']')) {
                return i + 1;
            }
        }
        out.push(chars[i]);
        i + 1
    })
}

fn quote_bare_keys(text: &str) -> String {
    let start = |c: char| c.is_ascii_alphabetic() || c == '_' || c == '$';
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    outside_strings(text, |chars, i, out| {
        if !start(chars[i]) {
            out.push(chars[i]);
            return i + 1;
        }
        let mut end = i;
        while end < chars.len() && part(chars[end]) {
            end += 1;
        }
        let word: String = chars[i..end].iter().collect();
        let mut probe = end;
        while probe < chars.len() && matches!(chars[probe], ' ' | '\t' | '\r' | '\n') {
            probe += 1;
        }
        if chars.get(probe) == Some(&':') {
            out.push('"');
            out.push_str(&word);
            out.push('"');
        } else {
            out.push_str(&word);
        }
        end
    })
}

#[cfg(test)]
mod tests;
