//! #29 item 4: in each theme, text meets WCAG 2.2 AA against every background it is drawn on
//! (4.5:1), and the accent that draws focus rings and links meets 3:1 as a UI component —
//! computed from the themes' own CSS variables (`styles/studio.css`), so a colour edit that
//! breaks contrast fails here.

use std::collections::BTreeMap;

use super::src;

/// The tokens of the default theme with `theme`'s block over them.
fn tokens(css: &str, theme: Option<&str>) -> BTreeMap<String, String> {
    let css = &without_comments(css);
    let block = |head: &str| -> BTreeMap<String, String> {
        let start = css
            .find(head)
            .unwrap_or_else(|| panic!("no `{head}` block in studio.css"));
        let body = &css[start + head.len()..];
        let body = &body[..body.find('}').expect("the block ends")];
        body.split(';')
            .filter_map(|decl| {
                let (k, v) = decl.split_once(':')?;
                let (k, v) = (k.trim(), v.trim());
                (k.starts_with("--lw-") && v.starts_with('#'))
                    .then(|| (k.to_string(), v.to_string()))
            })
            .collect()
    };
    let mut t = block(":root {");
    if let Some(name) = theme {
        t.extend(block(&format!(":root[data-theme=\"{name}\"] {{")));
    }
    t
}

fn without_comments(css: &str) -> String {
    let mut out = String::new();
    let mut rest = css;
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("*/")
            .map_or("", |end| &rest[at + end + 2..]);
    }
    out + rest
}

fn channel(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    let byte = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).expect("a #rrggbb colour");
    0.2126 * channel(byte(0)) + 0.7152 * channel(byte(2)) + 0.0722 * channel(byte(4))
}

fn ratio(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

const TEXTS: &[&str] = &[
    "--lw-ink",
    "--lw-ink-dim",
    "--lw-ink-faint",
    "--lw-accent",
    "--lw-danger",
    "--lw-warn",
    "--lw-ok",
];
const BACKGROUNDS: &[&str] = &["--lw-bg", "--lw-bg-raised", "--lw-bg-inset"];

#[test]
fn every_theme_meets_aa() {
    let css = std::fs::read_to_string(src().join("../styles/studio.css")).expect("studio.css");
    let mut misses = Vec::new();
    let mut checked = 0;
    for theme in [None, Some("light"), Some("contrast")] {
        let t = tokens(&css, theme);
        let name = theme.unwrap_or("dark");
        let mut check = |fg: &str, bg: &str, goal: f64| {
            let r = ratio(&t[fg], &t[bg]);
            checked += 1;
            if r < goal {
                misses.push(format!(
                    "{name}: {fg} {} on {bg} {}: {r:.2}:1 (AA {goal}:1)",
                    t[fg], t[bg]
                ));
            }
        };
        for fg in TEXTS {
            for bg in BACKGROUNDS {
                check(fg, bg, 4.5);
            }
        }
        // A primary button's label on the accent; a Delete button's and the crash banner's on
        // the danger fill.
        check("--lw-accent-ink", "--lw-accent", 4.5);
        check("--lw-danger-ink", "--lw-danger", 4.5);
        // The focus ring is a UI component: 3:1 against what it is drawn on.
        for bg in BACKGROUNDS {
            check("--lw-focus", bg, 3.0);
        }
    }
    assert_eq!(
        checked,
        3 * (TEXTS.len() * BACKGROUNDS.len() + 2 + BACKGROUNDS.len())
    );
    // And it is drawn: every focusable thing gets the ring when the keyboard brings focus.
    assert!(
        without_comments(&css).contains(":focus-visible { outline: 2px solid var(--lw-focus)"),
        "studio.css has no focus ring for every element"
    );
    assert!(misses.is_empty(), "under WCAG AA:\n{}", misses.join("\n"));
}

#[test]
fn the_ratio_is_wcags() {
    assert!((ratio("#000000", "#ffffff") - 21.0).abs() < 1e-9);
    assert!((ratio("#777777", "#ffffff") - 4.48).abs() < 0.01);
}
