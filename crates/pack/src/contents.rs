//! Listing a new file under `pack.yaml`'s `contents` by editing the text, so the author's
//! comments, order and quoting stay as they were.

/// `pack_yaml` with `rel` added to `contents.<kind>`: into a flow list (`cards: [a, b]`), at
/// the end of a block list (`cards:` then `- a` lines), or as a new `kind: [rel]` line under
/// `contents:`. `None` when there is no `contents:` at the top level to add to.
pub fn add(pack_yaml: &str, kind: &str, rel: &str) -> Option<String> {
    let lines: Vec<&str> = pack_yaml.lines().collect();
    let contents = lines.iter().position(|l| l.trim_end() == "contents:")?;
    let mut end = lines.len();
    let mut key_line = None;
    let mut indent = None;
    for (i, line) in lines.iter().enumerate().skip(contents + 1) {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let this = line.len() - line.trim_start().len();
        if this == 0 {
            end = i;
            break;
        }
        let child = *indent.get_or_insert(this);
        if this == child && line.trim_start().starts_with(&format!("{kind}:")) {
            key_line = Some(i);
        }
    }
    let child = indent.unwrap_or(2);
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match key_line {
        Some(i) => {
            let line = &lines[i];
            let after = line.trim_start()[kind.len() + 1..].trim();
            if let Some(inner) = after.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
                let items = if inner.trim().is_empty() {
                    rel.to_string()
                } else {
                    format!("{}, {rel}", inner.trim_end())
                };
                out[i] = format!("{}{kind}: [{items}]", &line[..child]);
            } else if after.is_empty() {
                // A block list: after its last `- ` item.
                let mut last = i;
                let mut item_indent = None;
                for (j, l) in lines.iter().enumerate().take(end).skip(i + 1) {
                    let this = l.len() - l.trim_start().len();
                    if l.trim().is_empty() {
                        continue;
                    }
                    if this <= child {
                        break;
                    }
                    if l.trim_start().starts_with("- ") {
                        item_indent.get_or_insert(this);
                    }
                    last = j;
                }
                let pad = " ".repeat(item_indent.unwrap_or(child + 2));
                out.insert(last + 1, format!("{pad}- {rel}"));
            } else {
                return None;
            }
        }
        None => {
            let mut at = end;
            while at > contents + 1 && lines[at - 1].trim().is_empty() {
                at -= 1;
            }
            out.insert(at, format!("{}{kind}: [{rel}]", " ".repeat(child)));
        }
    }
    let mut text = out.join("\n");
    if pack_yaml.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::add;

    #[test]
    fn a_card_joins_each_form_of_list_and_nothing_else_moves() {
        let flow = "id: t\n# the pack\ncontents:\n  panels: [ui/panels.yaml]\n  cards: [cards/a.json]\nengine: {protocol: \"2.x\"}\n";
        assert_eq!(
            add(flow, "cards", "cards/b.lorecard.json").unwrap(),
            "id: t\n# the pack\ncontents:\n  panels: [ui/panels.yaml]\n  cards: [cards/a.json, cards/b.lorecard.json]\nengine: {protocol: \"2.x\"}\n"
        );
        let block = "contents:\n  cards:\n    - cards/a.json  # first\n    - cards/b.json\n  panels: [p.yaml]\n";
        assert_eq!(
            add(block, "cards", "cards/c.json").unwrap(),
            "contents:\n  cards:\n    - cards/a.json  # first\n    - cards/b.json\n    - cards/c.json\n  panels: [p.yaml]\n"
        );
        let none = "id: t\ncontents:\n    panels: [p.yaml]\n\nlicense: MIT\n";
        assert_eq!(
            add(none, "cards", "cards/c.json").unwrap(),
            "id: t\ncontents:\n    panels: [p.yaml]\n    cards: [cards/c.json]\n\nlicense: MIT\n"
        );
        assert_eq!(add("id: t\n", "cards", "c.json"), None);
        assert_eq!(
            add("contents:\n  cards: []\n", "cards", "c.json").unwrap(),
            "contents:\n  cards: [c.json]\n"
        );
    }
}
