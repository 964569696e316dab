//! Wire strings are text, never markup or terminal/bidi control.

/// Strips control characters except `\n` and `\t`, and the bidi embedding,
/// override and isolate characters (U+202A–U+202E, U+2066–U+2069) that would let
/// a name or line reorder the text around it. Apply before rendering any wire string.
pub fn sanitize_text(s: &str) -> String {
    if !s.chars().any(is_stripped) {
        return s.to_owned();
    }
    s.chars().filter(|c| !is_stripped(*c)).collect()
}

fn is_stripped(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// [`sanitize_text`] on every string (and object key) of a frame, before anything reads it:
/// one choke point, so no renderer can forget.
pub fn sanitize_value(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) if s.chars().any(is_stripped) => *s = sanitize_text(s),
        Value::String(_) => {}
        Value::Array(items) => items.iter_mut().for_each(sanitize_value),
        Value::Object(map) => {
            if map.keys().any(|k| k.chars().any(is_stripped)) {
                let entries = std::mem::take(map);
                for (k, mut v) in entries {
                    sanitize_value(&mut v);
                    map.insert(sanitize_text(&k), v);
                }
            } else {
                map.values_mut().for_each(sanitize_value);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_controls_and_bidi_everywhere() {
        let mut v =
            serde_json::json!({"a\u{202E}": ["x\u{0007}y", {"n": "ok\n\tfine\u{2066}"}], "k": 1});
        sanitize_value(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"a": ["xy", {"n": "ok\n\tfine"}], "k": 1})
        );
    }
}
