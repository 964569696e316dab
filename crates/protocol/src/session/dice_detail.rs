//! What a player cares about in a dice line's `detail`: the engine sends every flag and
//! modifier (`critical_success: false`, `bonus: 0`), most of which say nothing. A false flag, a
//! zero, a null or an empty string is hidden; a true flag becomes its words ("Critical
//! success"); the rest keeps its name (in words) and value.

use serde_json::{Map, Value};

use super::sanitize_text;

/// One chip of a dice line.
#[derive(Debug, Clone, PartialEq)]
pub enum DiceChip {
    /// A flag that is set: `key` names it (the UI words it).
    Flag { key: String },
    /// A value worth showing.
    Value { key: String, text: String },
}

impl DiceChip {
    pub fn key(&self) -> &str {
        match self {
            DiceChip::Flag { key } | DiceChip::Value { key, .. } => key,
        }
    }
}

/// The chips of `detail`, in the engine's order, nothing that says nothing.
pub fn dice_chips(detail: &Map<String, Value>) -> Vec<DiceChip> {
    detail
        .iter()
        .filter_map(|(key, value)| {
            let key = sanitize_text(key);
            match value {
                Value::Bool(true) => Some(DiceChip::Flag { key }),
                Value::Bool(false) | Value::Null => None,
                Value::Number(n) if n.as_f64() == Some(0.0) => None,
                Value::String(s) if s.trim().is_empty() => None,
                Value::Array(a) if a.is_empty() => None,
                v => Some(DiceChip::Value { key, text: text(v) }),
            }
        })
        .collect()
}

/// `critical_success` → "Critical success": a key in words, for keys the UI has no word for.
pub fn key_words(key: &str) -> String {
    let spaced = key.replace(['_', '-'], " ");
    let mut chars = spaced.trim().chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => sanitize_text(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
        Value::Null => String::new(),
        Value::Object(_) => "…".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chips(v: Value) -> Vec<DiceChip> {
        dice_chips(v.as_object().unwrap())
    }

    #[test]
    fn what_says_nothing_is_hidden() {
        // From the engine capture: a plain roll and a check whose detail is all zeros and false.
        assert!(chips(
            json!({"modifier": 0, "critical_success": false, "critical_failure": false})
        )
        .is_empty());
        assert!(
            chips(json!({"bonus": 0, "penalty": 0, "modifier": 0, "proficient": false})).is_empty()
        );
        assert!(chips(json!({"note": "", "x": null, "l": []})).is_empty());
    }

    #[test]
    fn set_flags_are_words_and_values_stay() {
        assert_eq!(
            chips(json!({"critical_success": true, "modifier": -2, "loss_expr": "1d6", "loss": 3})),
            vec![
                DiceChip::Flag {
                    key: "critical_success".into()
                },
                DiceChip::Value {
                    key: "modifier".into(),
                    text: "-2".into()
                },
                DiceChip::Value {
                    key: "loss_expr".into(),
                    text: "1d6".into()
                },
                DiceChip::Value {
                    key: "loss".into(),
                    text: "3".into()
                },
            ]
        );
        assert_eq!(key_words("critical_success"), "Critical success");
        assert_eq!(key_words("bonus-dice"), "Bonus dice");
        assert_eq!(key_words(""), "");
    }
}
