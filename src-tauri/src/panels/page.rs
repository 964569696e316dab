//! What a panel page is served with: its paths checked segment by segment, its mimes plain,
//! and the host's two files (the theme stylesheet and the bootstrap) injected into its entry.

pub const RESERVED: &str = "__loreweaver__";

/// A wire path's segments, or `None` for anything unsafe: empty, `.`, `..`, backslash, NUL,
/// a bad percent-escape, or (for declared assets) a `__` reserved segment.
pub fn clean_segments(path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for raw in path.split('/') {
        let seg = percent_decode(raw)?;
        if seg.is_empty() || seg == "." || seg == ".." || seg.contains(['\\', '\0', '/']) {
            return None;
        }
        out.push(seg);
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A manifest mime, if it is a plain `type/subtype` (never a header injection).
pub fn clean_mime(m: &str) -> Option<String> {
    let ok = m.len() <= 100
        && m.split_once('/').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && (a.to_string() + b)
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
        });
    ok.then(|| m.to_ascii_lowercase())
}

/// `:root{…}` from the UI's current theme variables (names and values checked).
pub fn theme_css(theme: &serde_json::Value) -> String {
    let mut css = String::from(":root {\n");
    if let Some(map) = theme.as_object() {
        for (name, value) in map {
            let Some(value) = value.as_str() else {
                continue;
            };
            let name_ok = name.starts_with("--lw-")
                && name.len() <= 40
                && name[2..]
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c == b'-');
            let value_ok = value.len() <= 200
                && !value.contains(['{', '}', ';', '<', '>', '\\', '\n', '\r', '@'])
                && !value.to_ascii_lowercase().contains("url(");
            if name_ok && value_ok {
                css.push_str(&format!("  {name}: {value};\n"));
            }
        }
    }
    css.push_str("}\n");
    css
}

/// Where the host's stylesheet and bootstrap go: after `<head…>`, else `<html…>`, else the top.
pub fn inject(html: &str) -> String {
    let tags = format!(
        "<link rel=\"stylesheet\" href=\"{RESERVED}/theme.css\"><script src=\"{RESERVED}/bootstrap.js\"></script>"
    );
    let lower = html.to_ascii_lowercase();
    let after_open = |name: &str| -> Option<usize> {
        let mut from = 0;
        while let Some(i) = lower[from..].find(&format!("<{name}")) {
            let at = from + i;
            let next = lower.as_bytes().get(at + 1 + name.len()).copied();
            if matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')) {
                return lower[at..].find('>').map(|j| at + j + 1);
            }
            from = at + 1;
        }
        None
    };
    let at = after_open("head")
        .or_else(|| after_open("html"))
        .unwrap_or(0);
    let mut out = String::with_capacity(html.len() + tags.len());
    out.push_str(&html[..at]);
    out.push_str(&tags);
    out.push_str(&html[at..]);
    out
}

pub fn bootstrap_js(panel: &str, nonce: &str) -> String {
    let panel = serde_json::to_string(panel).unwrap_or_else(|_| "\"\"".into());
    let nonce = serde_json::to_string(nonce).unwrap_or_else(|_| "\"\"".into());
    BOOTSTRAP
        .replace("__PANEL__", &panel)
        .replace("__NONCE__", &nonce)
}

const BOOTSTRAP: &str = include_str!("bootstrap.js");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        assert_eq!(clean_segments("a/b.js").unwrap(), ["a", "b.js"]);
        assert_eq!(clean_segments("a%20b.js").unwrap(), ["a b.js"]);
        for bad in [
            "", "a//b", "./a", "../a", "a/..", "%2e%2e/x", "a%2fb", "a\\b", "a%5cb", "a%00", "%zz",
        ] {
            assert!(clean_segments(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn injection_points() {
        assert!(inject("<html><head><title>x</title>").starts_with(
            "<html><head><link rel=\"stylesheet\" href=\"__loreweaver__/theme.css\">"
        ));
        assert!(inject("<HTML lang=en><header>").starts_with("<HTML lang=en><link"));
        assert!(inject("<p>hi").starts_with("<link"));
    }

    #[test]
    fn theme_values_are_checked() {
        let css = theme_css(
            &serde_json::json!({"--lw-bg": "#111", "--lw-ink": "red; } body { x", "--evil": "1", "--lw-accent": "url(http://x)"}),
        );
        assert!(css.contains("--lw-bg: #111;"));
        assert!(!css.contains("red"));
        assert!(!css.contains("evil"));
        assert!(!css.contains("url("));
    }
}
