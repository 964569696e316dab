//! Small shapes shared by several frames: roles, localized text, scalar values,
//! content-addressed media references, the panel-fallback tri-state.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

wire_enum! {
    /// A keystore role: the only privilege split the protocol has.
    pub enum Role { Player = "player", Keeper = "keeper" }
}

/// Localized text: `{en, zh, ...}` maps on the wire; a plain string is accepted too
/// (servers normalize plain strings to `{en}`, but tolerate the un-normalized form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Localized {
    Text(String),
    Map(BTreeMap<String, String>),
}

impl Localized {
    /// The text for `locale` (`"zh"`, `"zh-CN"`, ...), falling back to `en`, then to
    /// any non-empty entry, then `""`.
    pub fn pick(&self, locale: &str) -> &str {
        let map = match self {
            Self::Text(text) => return text,
            Self::Map(map) => map,
        };
        let lang = locale.split(['-', '_']).next().unwrap_or(locale);
        let get = |key: &str| map.get(key).map(String::as_str).filter(|s| !s.is_empty());
        get(locale)
            .or_else(|| get(lang))
            .or_else(|| get("en"))
            .or_else(|| map.values().map(String::as_str).find(|s| !s.is_empty()))
            .unwrap_or("")
    }
}

impl From<&str> for Localized {
    fn from(text: &str) -> Self {
        Self::Text(text.to_owned())
    }
}

/// A `number | boolean | string` wire value (stat blocks, module variables).
/// `Null` is tolerated so one odd value never costs the whole frame.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
}

impl Scalar {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Self::Number(n) => Some(*n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::Text(s) => Some(s),
            _ => None,
        }
    }

    /// How the value reads as text: integral numbers without `.0`, `null` as `""`.
    pub fn to_display_string(&self) -> String {
        match self {
            Self::Null => String::new(),
            Self::Bool(b) => b.to_string(),
            Self::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
            Self::Number(n) => n.to_string(),
            Self::Text(s) => s.clone(),
        }
    }
}

impl Serialize for Scalar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => s.serialize_unit(),
            Self::Bool(b) => s.serialize_bool(*b),
            Self::Number(n) => super::num::write(*n, s),
            Self::Text(t) => s.serialize_str(t),
        }
    }
}

/// A content-addressed picture reference (`{hash, mime, size, name?}`), e.g. an avatar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaRef {
    pub hash: String,
    pub mime: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A tier-2 panel's `fallback`. The field's ABSENCE is `None` on the panel; an
/// explicit `null` is meaningful ("available in the rich client" line), so it is a
/// value of its own rather than collapsing into absence.
#[derive(Debug, Clone, PartialEq)]
pub enum PanelFallback {
    /// `"fallback": null` — the author chose no text-first rendering.
    RichClientOnly,
    /// `"fallback": [template blocks]`.
    Blocks(Vec<Value>),
}

impl Serialize for PanelFallback {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::RichClientOnly => s.serialize_unit(),
            Self::Blocks(blocks) => blocks.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for PanelFallback {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<Vec<Value>>::deserialize(d)? {
            None => Self::RichClientOnly,
            Some(blocks) => Self::Blocks(blocks),
        })
    }
}

/// `deserialize_with` for an `Option<T>` whose `T` gives `null` its own meaning:
/// a present key (null included) is `Some`, only an absent key is `None`.
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}
