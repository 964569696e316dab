//! Every string key has one owner: each key a strings table defines is answered by exactly one
//! registered table, and every key the UI's source names resolves, in both locales (a key no
//! table owns would be drawn as the key itself).

use std::collections::BTreeSet;
use std::path::Path;

use super::{code_lines, rust_files, src};
use crate::i18n::{lookup, Locale};

fn is_table(file: &Path) -> bool {
    file.file_name().is_some_and(|n| n == "text.rs")
}

/// The string literals on one line of code (no escapes in keys, so none are handled).
fn literals(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open = None;
    for (i, c) in code.char_indices() {
        if c == '"' {
            match open.take() {
                None => open = Some(i),
                Some(start) => out.push((start, code[start + 1..i].to_owned())),
            }
        }
    }
    out
}

/// Where the call whose arguments start at `open` ends: its `)`, or the end of the line.
fn close_of(code: &str, open: usize) -> usize {
    let mut depth = 1;
    let mut in_string = false;
    for (i, c) in code[open..].char_indices() {
        match c {
            '"' => in_string = !in_string,
            '(' if !in_string => depth += 1,
            ')' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

fn key_shaped(s: &str) -> bool {
    let mut parts = s.split('.');
    let first = parts.next().unwrap_or("");
    let word = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    s.contains('.') && first.starts_with(|c: char| c.is_ascii_lowercase()) && s.split('.').all(word)
}

/// The keys the tables' source defines: each `"key" =>` arm of every `text.rs`.
fn defined() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for file in rust_files(&src()).into_iter().filter(|f| is_table(f)) {
        for (_, code) in code_lines(&file) {
            let t = code.trim_start();
            if let Some((key, rest)) = t.strip_prefix('"').and_then(|t| t.split_once('"')) {
                if rest.trim_start().starts_with("=>") {
                    keys.insert(key.to_owned());
                }
            }
        }
    }
    keys
}

/// The keys the rest of the source names: every literal given to `tr(`/`t(`, and every
/// key-shaped literal in a namespace the tables use (keys chosen by a `match`).
fn used(namespaces: &BTreeSet<String>) -> BTreeSet<(String, String)> {
    let mut keys = BTreeSet::new();
    let root = src();
    for file in rust_files(&root) {
        if is_table(&file) || file.starts_with(root.join("tests")) {
            continue;
        }
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (n, code) in code_lines(&file) {
            let calls: Vec<(usize, usize)> = ["tr(", "t("]
                .iter()
                .flat_map(|call| code.match_indices(call))
                .filter(|&(i, _)| {
                    let before = code[..i].chars().next_back();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                })
                .map(|(i, call)| (i + call.len(), close_of(&code, i + call.len())))
                .collect();
            for (at, lit) in literals(&code) {
                // In a call, a literal that is matched or compared chooses a key, is not one.
                let end = at + lit.len() + 2;
                let chooser = code[end..].trim_start().starts_with("=>")
                    || code[..at].trim_end().ends_with("==");
                let in_call =
                    !chooser && calls.iter().any(|&(open, close)| open <= at && at < close);
                let namespaced =
                    key_shaped(&lit) && namespaces.contains(lit.split('.').next().unwrap_or(""));
                if (in_call && !lit.is_empty()) || namespaced {
                    keys.insert((lit, format!("ui/src/{name}:{n}")));
                }
            }
        }
    }
    keys
}

#[test]
fn every_defined_key_has_exactly_one_table() {
    let keys = defined();
    assert!(
        keys.len() > 250,
        "the tables' keys were not found: {}",
        keys.len()
    );
    let mut problems = Vec::new();
    for key in &keys {
        let owners = crate::STRINGS.iter().filter(|t| t(key).is_some()).count();
        if owners != 1 {
            problems.push(format!("{key}: answered by {owners} registered tables"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_key_the_source_names_resolves_in_both_locales() {
    let namespaces: BTreeSet<String> = defined()
        .iter()
        .map(|k| k.split('.').next().unwrap_or("").to_owned())
        .collect();
    let used = used(&namespaces);
    assert!(
        used.len() > 250,
        "the source's keys were not found: {}",
        used.len()
    );
    let mut missing = Vec::new();
    for (key, place) in &used {
        let key: &'static str = Box::leak(key.clone().into_boxed_str());
        for locale in [Locale::En, Locale::Zh] {
            let text = lookup(crate::STRINGS, locale, key);
            if text == key || text.is_empty() {
                missing.push(format!("{place}: \"{key}\" has no {locale:?} string"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn a_key_no_table_owns_is_shown_as_itself() {
    let shown = lookup(crate::STRINGS, Locale::Zh, "no.such.key");
    assert_eq!(shown, "no.such.key");
}
