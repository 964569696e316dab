//! Tier-1 panel template instantiation (protocol 2.1+, "Module UI panels").
//!
//! Turns a panel's WIRE template blocks plus ONE viewer's `state.variables` into the
//! `ui` blocks that viewer draws. Everything fails CLOSED: a binding this viewer cannot
//! resolve omits its whole block, a required field that misses drops the block, an
//! optional one drops only itself, and an undecidable `visible_when` hides. Hidden
//! variables are dropped before anything resolves, so a panel can never widen what the
//! server's state filter granted. `panel_template_vectors.json` is the contract; where
//! the reference client has an oddity, this copies it (noted inline).

use serde_json::{Map, Value};

use crate::condexpr;
use crate::jsnum::js_number_string;

/// Most instances one `repeat` expands to (filtered first, then capped).
pub const MAX_PANEL_REPEAT_INSTANCES: usize = 32;

const BADGE_TONES: [&str; 3] = ["info", "warn", "danger"];
const LEAF_FIELDS: [&str; 3] = ["id", "label", "value"];

/// The performance kinds: every field is localized text except `map_pin`'s picture and
/// position ([`NOT_TEXT`]), which are checked separately.
const PERFORMANCE_KINDS: [&str; 4] = ["letter", "clipping", "map_pin", "title_card"];
const NOT_TEXT: [&str; 3] = ["src", "x", "y"];

/// The variables a panel may see, with a lookup that answers the FIRST of an id.
struct Scope<'a> {
    visible: Vec<&'a Map<String, Value>>,
}

impl<'a> Scope<'a> {
    fn new(variables: &'a [Value]) -> Self {
        // Any truthy `hidden` drops the row: fail-closed even for a malformed flag.
        let visible = variables
            .iter()
            .filter_map(Value::as_object)
            .filter(|v| !v.get("hidden").is_some_and(condexpr::truthy))
            .collect();
        Scope { visible }
    }

    fn find(&self, id: &str) -> Option<&'a Map<String, Value>> {
        self.visible
            .iter()
            .copied()
            .find(|v| v.get("id").and_then(Value::as_str) == Some(id))
    }

    fn gate_open(&self, block: &Map<String, Value>) -> bool {
        let lookup = |id: &str| {
            self.find(id)
                .map(|v| v.get("value").cloned().unwrap_or(Value::Null))
        };
        condexpr::is_visible(block.get("visible_when"), &lookup)
    }
}

/// One block being resolved: the scope, the locale, and a repeat's matched variable.
struct Ctx<'s, 'a> {
    scope: &'s Scope<'a>,
    locale: &'s str,
    leaf: Option<&'a Map<String, Value>>,
}

impl Ctx<'_, '_> {
    /// A field with its binding applied; `None` is a MISS (unresolvable binding). An
    /// absent field resolves to `null`, which every caller below also treats as a miss.
    fn scalar(&self, field: Option<&Value>) -> Option<Value> {
        let Some(value) = field else {
            return Some(Value::Null);
        };
        if let Some(map) = value.as_object() {
            // A map merely CONTAINING `$var` is a binding, and `$var` wins over `$leaf`.
            if let Some(name) = map.get("$var") {
                let var = self.scope.find(name.as_str()?)?;
                return Some(var.get("value").cloned().unwrap_or(Value::Null));
            }
            if let Some(name) = map.get("$leaf") {
                let name = name.as_str().filter(|n| LEAF_FIELDS.contains(n))?;
                return Some(self.leaf?.get(name).cloned().unwrap_or(Value::Null));
            }
        }
        Some(value.clone())
    }

    /// A field as display text: numbers and bools stringify like JS `String()`, maps
    /// localize, arrays give their first non-empty string. `None` when nothing usable.
    fn text(&self, field: Option<&Value>) -> Option<String> {
        match self.scalar(field)? {
            Value::Bool(b) => Some(b.to_string()),
            Value::Number(n) => Some(js_number_string(n.as_f64()?)),
            other => pick_text(&other, self.locale),
        }
    }

    /// A field as a finite number, kept in its JSON form. A bool is NOT a number here.
    fn number(&self, field: Option<&Value>) -> Option<serde_json::Number> {
        match self.scalar(field)? {
            Value::Number(n) if n.as_f64().is_some_and(f64::is_finite) => Some(n),
            _ => None,
        }
    }
}

/// The reference `pickPanelText`: a plain string as-is (empty included); an array's first
/// non-empty string (the client reads any object via `Object.values`); a locale map's
/// `locale[..2]` entry, else `en`, else any non-empty string value.
pub fn pick_text(value: &Value, locale: &str) -> Option<String> {
    let non_empty = |v: &Value| v.as_str().filter(|s| !s.is_empty()).map(str::to_owned);
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => items.iter().find_map(non_empty),
        Value::Object(map) => {
            let short: String = locale.chars().take(2).collect();
            [map.get(short.as_str()), map.get("en")]
                .into_iter()
                .flatten()
                .chain(map.values())
                .find_map(non_empty)
        }
        _ => None,
    }
}

/// Copy `mime`/`size` through exactly as the wire carries them; absent stays absent
/// (the client's `undefined` property is an absent key once compared).
fn carry_media(block: &Map<String, Value>, out: &mut Map<String, Value>) {
    for key in ["mime", "size"] {
        if let Some(v) = block.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
}

fn hash_of(block: &Map<String, Value>) -> Option<Value> {
    block
        .get("hash")
        .filter(|h| h.as_str().is_some_and(|s| !s.is_empty()))
        .cloned()
}

/// A map-pin coordinate clamped into the map's own 0..1 box.
fn clamp_unit(n: serde_json::Number) -> Value {
    match n.as_f64() {
        Some(f) if f > 1.0 => Value::from(1),
        Some(f) if f < 0.0 => Value::from(0),
        _ => Value::Number(n),
    }
}

fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// One non-repeat template block → its `ui` block, or `None` when hidden/unresolvable.
fn resolve_one(block: &Value, ctx: &Ctx) -> Option<Value> {
    let block = block.as_object()?;
    // A repeat is only expanded at the top level: nesting resolves to nothing.
    if block.contains_key("repeat") || !ctx.scope.gate_open(block) {
        return None;
    }
    let kind = block.get("kind")?.as_str()?;
    let text = |key: &str| ctx.text(block.get(key));
    let mut out = obj([("kind", Value::from(kind))]);
    match kind {
        "divider" => {}
        "meter" => {
            let label = text("label")?;
            let value = ctx.number(block.get("value"))?;
            let (min, max) = (ctx.number(block.get("min"))?, ctx.number(block.get("max"))?);
            // A zero-width (or inverted) gauge cannot be drawn.
            if max.as_f64()? <= min.as_f64()? {
                return None;
            }
            out.extend(obj([
                ("label", label.into()),
                ("value", value.into()),
                ("min", min.into()),
                ("max", max.into()),
            ]));
        }
        "stat" => {
            let label = text("label")?;
            // A stat keeps its value's TYPE: numbers and bools ride as themselves.
            let value = match ctx.scalar(block.get("value"))? {
                v @ (Value::Bool(_) | Value::Number(_) | Value::String(_)) => v,
                other => Value::String(pick_text(&other, ctx.locale)?),
            };
            out.extend(obj([("label", label.into()), ("value", value)]));
        }
        "badge" => {
            out.insert("label".into(), text("label")?.into());
            // Optional enum: an invalid (or unresolvable) tone strips, the badge stays.
            let tone = block.get("tone").and_then(|t| ctx.scalar(Some(t)));
            if let Some(tone) =
                tone.filter(|t| t.as_str().is_some_and(|s| BADGE_TONES.contains(&s)))
            {
                out.insert("tone".into(), tone);
            }
        }
        "text" => {
            out.insert("text".into(), text("text")?.into());
            // Authored, not bound: passed through untouched, as the reference does.
            if let Some(style) = block.get("style") {
                out.insert("style".into(), style.clone());
            }
        }
        "image" => {
            out.insert("hash".into(), hash_of(block)?);
            carry_media(block, &mut out);
            for key in ["caption", "alt"] {
                if let Some(t) = text(key) {
                    out.insert(key.into(), t.into());
                }
            }
        }
        "choices" => {
            // An unusable option drops only itself; an empty chooser drops the block.
            let options: Vec<Value> = block
                .get("options")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|option| {
                    let option = option.as_object()?;
                    let label = ctx.text(option.get("label"))?;
                    let id = option.get("id").filter(|v| v.is_string())?;
                    let input = option.get("input").filter(|v| v.is_string())?;
                    Some(Value::Object(obj([
                        ("id", id.clone()),
                        ("label", label.into()),
                        ("input", input.clone()),
                    ])))
                })
                .collect();
            if options.is_empty() {
                return None;
            }
            if let Some(prompt) = block.get("prompt").and_then(|p| ctx.text(Some(p))) {
                out.insert("prompt".into(), prompt.into());
            }
            out.insert("options".into(), options.into());
        }
        _ => {
            if !PERFORMANCE_KINDS.contains(&kind) {
                return None;
            }
            let spec = crate::frame::block_kind(kind)?;
            for key in spec.required.iter().filter(|k| !NOT_TEXT.contains(k)) {
                out.insert((*key).into(), text(key)?.into());
            }
            for key in spec.optional {
                if let Some(t) = text(key) {
                    out.insert((*key).into(), t.into());
                }
            }
            if kind == "map_pin" {
                let (x, y) = (ctx.number(block.get("x"))?, ctx.number(block.get("y"))?);
                out.insert("hash".into(), hash_of(block)?);
                carry_media(block, &mut out);
                out.insert("x".into(), clamp_unit(x));
                out.insert("y".into(), clamp_unit(y));
            }
        }
    }
    Some(Value::Object(out))
}

/// Expand one top-level `repeat` block into its instances.
fn expand_repeat(block: &Map<String, Value>, scope: &Scope, locale: &str, out: &mut Vec<Value>) {
    // A gate on the repeat itself suppresses the WHOLE expansion.
    if !scope.gate_open(block) {
        return;
    }
    let Some(spec) = block.get("repeat").and_then(Value::as_object) else {
        return;
    };
    // A missing or empty prefix would match every variable: expand to nothing instead.
    let Some(prefix) = spec
        .get("prefix")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
    else {
        return;
    };
    let Some(inner) = spec.get("block").filter(|b| b.is_object()) else {
        return;
    };
    let matches = scope
        .visible
        .iter()
        .copied()
        .filter(|v| {
            v.get("id")
                .and_then(Value::as_str)
                .is_some_and(|id| id.starts_with(prefix))
        })
        .take(MAX_PANEL_REPEAT_INSTANCES);
    for leaf in matches {
        // A gate on the inner template suppresses each instance (checked in resolve_one).
        out.extend(resolve_one(
            inner,
            &Ctx {
                scope,
                locale,
                leaf: Some(leaf),
            },
        ));
    }
}

/// Instantiate a panel's wire template `blocks` for one viewer.
///
/// `variables` are that viewer's `state.variables` entries as raw JSON objects
/// (`{id, label, kind, value, min?, max?, hidden?}`); `locale` is the client's UI locale
/// (`"en"`, `"zh"`, `"zh-CN"`, …). An empty result is legitimate: the caller decides
/// what to say about a panel with nothing in it.
pub fn resolve_panel_blocks(blocks: &[Value], variables: &[Value], locale: &str) -> Vec<Value> {
    let scope = Scope::new(variables);
    let mut out = Vec::new();
    for block in blocks {
        match block.as_object() {
            Some(map) if map.contains_key("repeat") => expand_repeat(map, &scope, locale, &mut out),
            _ => out.extend(resolve_one(
                block,
                &Ctx {
                    scope: &scope,
                    locale,
                    leaf: None,
                },
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests;
