//! Runtime half of `tagged_union!`: the dispatch error and the tag-first writer.

use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Why a tagged object could not become a known variant.
#[derive(Debug)]
pub(crate) enum TagError {
    /// No string tag field at all.
    MissingTag,
    /// A known tag whose fields do not fit its shape.
    Payload {
        tag: String,
        error: serde_json::Error,
    },
}

pub(crate) fn serialize_unit<S: Serializer>(s: S, key: &str, tag: &str) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(1))?;
    map.serialize_entry(key, tag)?;
    map.end()
}

/// Writes `{key: tag, ...payload fields}` with the tag first, as the engine does.
pub(crate) fn serialize_tagged<S: Serializer, P: Serialize>(
    s: S,
    key: &str,
    tag: &str,
    payload: &P,
) -> Result<S::Ok, S::Error> {
    let Value::Object(fields) = serde_json::to_value(payload).map_err(S::Error::custom)? else {
        return Err(S::Error::custom(format!(
            "`{tag}` payload is not an object"
        )));
    };
    let mut map = s.serialize_map(Some(fields.len() + 1))?;
    map.serialize_entry(key, tag)?;
    for (k, v) in &fields {
        if k != key {
            map.serialize_entry(k, v)?;
        }
    }
    map.end()
}
