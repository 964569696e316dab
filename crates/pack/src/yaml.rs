//! YAML read into a tree that remembers where every node sits, so a lint can point at the
//! exact line and column of a bad value (serde-saphyr's `Spanned`), and then converted to
//! JSON for the manifest.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::Spanned;

/// A YAML node with its 1-based position.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub line: u32,
    pub column: u32,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Map(entries) => entries
                .iter()
                .find(|(k, _)| matches!(&k.kind, Kind::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            Kind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, Kind::Null)
    }

    /// What the node is, in a pack author's words (for messages).
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "nothing",
            Kind::Bool(_) => "true/false",
            Kind::Int(_) | Kind::Float(_) => "a number",
            Kind::Str(_) => "text",
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a mapping",
        }
    }

    /// The same value as JSON (keys that are not text are written as text).
    pub fn to_json(&self) -> Value {
        match &self.kind {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Int(i) => Value::from(*i),
            Kind::Float(f) => Number::from_f64(*f)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Kind::Str(s) => Value::String(s.clone()),
            Kind::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            Kind::Map(entries) => {
                let mut map = Map::new();
                for (k, v) in entries {
                    let key = match k.to_json() {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    map.insert(key, v.to_json());
                }
                Value::Object(map)
            }
        }
    }
}

/// A YAML document that does not parse: the message and where.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// Parses one YAML document (an empty one is `Null` at 1:1).
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    if text.trim().is_empty() {
        return Ok(Node {
            line: 1,
            column: 1,
            kind: Kind::Null,
        });
    }
    match serde_saphyr::from_str::<Spanned<Kind>>(text) {
        Ok(s) => Ok(spanned(s)),
        Err(e) => {
            let (line, column) = e
                .location()
                .map(|l| (l.line() as u32, l.column() as u32))
                .unwrap_or((0, 0));
            // The crate's Display repeats the position; keep the first line, the reason.
            let message = e.to_string();
            let mut message = message.lines().next().unwrap_or("").trim();
            message = message.strip_prefix("error:").unwrap_or(message).trim();
            // "line 3 column 12: unclosed bracket" → "unclosed bracket": the place is ours.
            if let Some((head, rest)) = message.split_once(": ") {
                if head.starts_with("line ") && head.contains(" column ") {
                    message = rest;
                }
            }
            let message = message.to_string();
            Err(SyntaxError {
                line,
                column,
                message,
            })
        }
    }
}

fn spanned(s: Spanned<Kind>) -> Node {
    Node {
        line: s.referenced.line() as u32,
        column: s.referenced.column() as u32,
        kind: s.value,
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KindVisitor)
    }
}

struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = Kind;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_none<E>(self) -> Result<Kind, E> {
        Ok(Kind::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Kind, D::Error> {
        Kind::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Kind, E> {
        Ok(Kind::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Kind, E> {
        Ok(Kind::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Kind, E> {
        Ok(i64::try_from(v)
            .map(Kind::Int)
            .unwrap_or(Kind::Float(v as f64)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Kind, E> {
        Ok(Kind::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Kind, E> {
        Ok(Kind::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Kind, E> {
        Ok(Kind::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
        let mut out = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Kind>>()? {
            out.push(spanned(item));
        }
        Ok(Kind::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
        let mut out = Vec::new();
        // Keys are read as text: YAML 1.1 would read a key `y` (map_pin's) as true.
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            let value = map.next_value::<Spanned<Kind>>()?;
            let key = Node {
                line: key.referenced.line() as u32,
                column: key.referenced.column() as u32,
                kind: Kind::Str(key.value),
            };
            out.push((key, spanned(value)));
        }
        Ok(Kind::Map(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_nested_values() {
        let doc =
            parse("panels:\n  - id: a\n    blocks:\n      - {kind: stat, label: X}\n").unwrap();
        let panels = doc.get("panels").unwrap().as_seq().unwrap();
        let block = &panels[0].get("blocks").unwrap().as_seq().unwrap()[0];
        let kind = block.get("kind").unwrap();
        assert_eq!((kind.line, kind.column), (4, 16));
        assert_eq!(panels[0].get("id").unwrap().as_str(), Some("a"));
        assert_eq!(
            doc.to_json(),
            serde_json::json!({"panels": [{"id": "a", "blocks": [{"kind": "stat", "label": "X"}]}]})
        );
    }

    #[test]
    fn syntax_error_has_a_position() {
        let e = parse("panels:\n  - id: a\n   bad: [\n").unwrap_err();
        assert!(e.line >= 2, "{e:?}");
        assert!(
            !e.message.is_empty() && !e.message.contains("line "),
            "{e:?}"
        );
    }
}
