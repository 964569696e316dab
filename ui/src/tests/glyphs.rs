//! The window draws with the fonts Studio ships and the system's plain ones: a pictograph from
//! the emoji planes needs an emoji font a Debian machine may lack, and draws as an empty box
//! there (#29 item 7). Icons are the app's own SVGs (`assets/icons`, the `.icon-*` classes).

use super::{code_lines, rust_files, src};

/// Pictographs and emoji outside the Basic Multilingual Plane (U+1F000–U+1FAFF).
fn needs_an_emoji_font(c: char) -> bool {
    ('\u{1F000}'..='\u{1FAFF}').contains(&c)
}

#[test]
fn no_text_needs_an_emoji_font() {
    let mut found = Vec::new();
    for file in rust_files(&src()) {
        for (n, code) in code_lines(&file) {
            if let Some(c) = code.chars().find(|c| needs_an_emoji_font(*c)) {
                let name = file
                    .strip_prefix(src())
                    .unwrap_or(&file)
                    .display()
                    .to_string();
                found.push(format!("ui/src/{name}:{n}: {c:?} (U+{:X})", c as u32));
            }
        }
    }
    assert!(
        found.is_empty(),
        "draw these as the app's own icons (assets/icons):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_icon_class_has_its_svg() {
    let css = std::fs::read_to_string(src().join("../styles/studio.css")).expect("studio.css");
    let icons = src().join("../../assets/icons");
    let mut named = 0;
    for line in css.lines().filter(|l| l.starts_with(".icon-")) {
        let Some(file) = line
            .split("url(icons/")
            .nth(1)
            .and_then(|r| r.split(')').next())
        else {
            continue;
        };
        named += 1;
        assert!(icons.join(file).is_file(), "{line}: no assets/icons/{file}");
    }
    assert!(named >= 4, "the icon classes were not found in studio.css");
}
