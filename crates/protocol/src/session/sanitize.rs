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
