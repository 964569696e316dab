//! EJS spans (`<% … %>`) in card text, as the engine's card split counts and removes them.
//! Both the split ([`crate::split`]) and the world-or-character verdict ([`crate::world`])
//! read them, so they live below both.

/// `core.card_split.strip_ejs`: the text without its EJS spans, and how many there were.
pub fn strip_ejs(text: &str) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut rest = text;
    while let Some(start) = rest.find("<%") {
        out.push_str(&rest[..start]);
        count += 1;
        match rest[start + 2..].find("%>") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            // A dangling opener takes the rest of the text with it (fail closed).
            None => return (out, count),
        }
    }
    out.push_str(rest);
    // Spans taken out can leave a new opener behind (`<<% a %>%`): the engine then cuts it
    // to the end as a dangling one.
    if let Some(start) = out.find("<%") {
        out.truncate(start);
        count += 1;
    }
    (out, count)
}
