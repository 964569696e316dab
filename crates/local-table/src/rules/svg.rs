//! The static SVG subset the engine accepts: drawing elements only, no scripts,
//! no event handlers, no links, no data URLs, no CSS `url(...)`.

const ALLOWED: &[&str] = &[
    "svg", "g", "rect", "line", "polyline", "text", "tspan", "title", "desc",
];

/// `Err(reason)` when the document leaves the safe subset.
pub fn validate(bytes: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())?;
    let lower = text.to_ascii_lowercase();
    for banned in [
        "<!doctype",
        "<!entity",
        "javascript:",
        "data:",
        "url(",
        "<![cdata[",
    ] {
        if lower.contains(banned) {
            return Err(format!("contains {banned}"));
        }
    }
    let mut rest = lower.as_str();
    let mut saw_svg = false;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if rest.starts_with("?xml") {
            rest = rest.split_once("?>").map(|(_, r)| r).ok_or("bad prolog")?;
            continue;
        }
        if rest.starts_with("!--") {
            rest = rest
                .split_once("-->")
                .map(|(_, r)| r)
                .ok_or("bad comment")?;
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        let tag = tag.trim_start_matches('/');
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if !ALLOWED.contains(&name.as_str()) {
            return Err(format!("element <{name}> is not allowed"));
        }
        saw_svg |= name == "svg";
        for attr in attr_names(tag) {
            if attr.starts_with("on") || attr.contains("href") || attr == "style" {
                return Err(format!("attribute {attr} is not allowed"));
            }
        }
    }
    if !saw_svg {
        return Err("no <svg> root".into());
    }
    Ok(())
}

/// Attribute names of one tag body (`name a="1" b='2'`), quoted values skipped.
fn attr_names(tag: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut chars = tag.chars().peekable();
    // Skip the element name.
    while chars.peek().is_some_and(|c| !c.is_whitespace()) {
        chars.next();
    }
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == '/') {
            chars.next();
        }
        let name: String =
            std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace() && *c != '=' && *c != '/'))
                .collect();
        if name.is_empty() {
            break;
        }
        names.push(name);
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek() == Some(&'=') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.next() {
                Some(q @ ('"' | '\'')) => {
                    for c in chars.by_ref() {
                        if c == q {
                            break;
                        }
                    }
                }
                Some(_) => while chars.next_if(|c| !c.is_whitespace()).is_some() {},
                None => break,
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::validate;

    #[test]
    fn accepts_static_drawings() {
        let ok = br##"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><!-- map --><g><rect x="1" y="1" width="8" height="8" fill="#333"/><text x="2" y="5">Hi</text></g></svg>"##;
        assert_eq!(validate(ok), Ok(()));
    }

    #[test]
    fn rejects_active_content() {
        for bad in [
            &br#"<svg><script>alert(1)</script></svg>"#[..],
            br#"<svg onload="x()"></svg>"#,
            br#"<svg><a href="http://x">y</a></svg>"#,
            br#"<svg><rect fill="url(#g)"/></svg>"#,
            br#"<svg><foreignObject/></svg>"#,
            br#"<svg><rect style="fill:red"/></svg>"#,
            br#"<svg><image xlink:href="data:image/png;base64,AA"/></svg>"#,
            b"not svg at all",
        ] {
            assert!(validate(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
