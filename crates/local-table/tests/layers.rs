//! The local table's layers point one way: `model` ← `rules` ← `wire` ← `table`. Rust compiles
//! a module that reaches up just as happily as one that does not, so this test reads the
//! sources and names every path that climbs: `crate::x`, `crate::{x, …}` and `super::` chains
//! that leave the layer. A layer may name only the layers below it, itself and `error` (the
//! leaf every layer returns); the crate root's re-exports count as "above", so a path through
//! `crate::Something` is refused too.

use std::path::{Path, PathBuf};

/// `(folder or file under src, the first path segments it may name at the crate root)`.
const LAYERS: &[(&str, &[&str])] = &[
    ("error.rs", &[]),
    ("model", &["model", "error"]),
    ("rules", &["model", "rules", "error"]),
    ("wire", &["model", "rules", "wire", "error"]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            rust_files(&entry, out);
        } else if entry.extension().is_some_and(|x| x == "rs") {
            out.push(entry);
        }
    }
}

/// The source with comments, strings and char literals blanked (newlines kept, so line
/// numbers still hold): a path named in a doc comment or a message is not an import.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            while j < chars.len() && chars[j..].iter().take(close.len()).ne(close.iter()) {
                j += 1;
            }
            j = (j + close.len()).min(chars.len());
            out.extend(chars[i..j].iter().map(|c| blank(*c)));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            j = (j + 1).min(chars.len());
            out.extend(chars[i..j].iter().map(|c| blank(*c)));
            i = j;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1F600}'), else a lifetime, left as it is.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.extend(chars[i..=end].iter().map(|c| blank(*c)));
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (ident_char(chars[i - 1]) || chars[i - 1] == '$')
}

/// Skips whitespace, then reads `::` if it is there.
fn colons(code: &[char], mut i: usize) -> Option<usize> {
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    (code.get(i) == Some(&':') && code.get(i + 1) == Some(&':')).then_some(i + 2)
}

fn word_at(code: &[char], mut i: usize) -> (String, usize) {
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    let start = i;
    while code.get(i).is_some_and(|c| ident_char(*c)) {
        i += 1;
    }
    (code[start..i].iter().collect(), i)
}

/// The first segments named after a `crate::` that ends at `i`: one word, or each item of a
/// `{…}` group.
fn first_segments(code: &[char], i: usize) -> Vec<String> {
    let mut j = i;
    while code.get(j).is_some_and(|c| c.is_whitespace()) {
        j += 1;
    }
    if code.get(j) != Some(&'{') {
        return vec![word_at(code, j).0];
    }
    let mut names = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    while j < code.len() {
        match code[j] {
            '{' => {
                depth += 1;
                expect = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expect = true,
            c if expect && depth == 1 && ident_char(c) => {
                let (word, end) = word_at(code, j);
                names.push(word);
                expect = false;
                j = end;
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    names
}

/// Every `(line, path)` in `file` that names something at the crate root outside `allowed`.
fn climbs(file: &Path, module_depth: usize, allowed: &[&str]) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let code: Vec<char> = code_only(&text).chars().collect();
    let line_of = |i: usize| code[..i].iter().filter(|c| **c == '\n').count() + 1;
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if !ident_char(code[i]) || ident_before(&code, i) {
            i += 1;
            continue;
        }
        let (word, end) = word_at(&code, i);
        if word == "crate" {
            if let Some(after) = colons(&code, end) {
                for name in first_segments(&code, after) {
                    if !allowed.contains(&name.as_str()) {
                        found.push((line_of(i), format!("crate::{name}")));
                    }
                }
            }
        } else if word == "super" {
            // Count the chain; once it climbs past the file's own layer, it is at the root.
            let mut ups = 1;
            let mut at = end;
            while let Some(after) = colons(&code, at) {
                let (next, next_end) = word_at(&code, after);
                if next == "super" {
                    ups += 1;
                    at = next_end;
                    continue;
                }
                if ups >= module_depth {
                    for name in first_segments(&code, after) {
                        if !allowed.contains(&name.as_str()) {
                            let chain = "super::".repeat(ups);
                            found.push((line_of(i), format!("{chain}{name}")));
                        }
                    }
                }
                break;
            }
            i = at;
            continue;
        }
        i = end;
    }
    found
}

#[test]
fn no_layer_names_one_above_it() {
    let mut problems = Vec::new();
    let mut seen_model_paths = 0;
    for (layer, allowed) in LAYERS {
        let root = src().join(layer);
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        assert!(!files.is_empty(), "no sources under src/{layer}");
        for file in files {
            let rel = file.strip_prefix(src()).unwrap();
            // model/room.rs is crate::model::room (depth 2); model/mod.rs is crate::model (1).
            let depth = rel.components().count()
                - usize::from(file.file_name().is_some_and(|n| n == "mod.rs"));
            for (line, path) in climbs(&file, depth, allowed) {
                problems.push(format!(
                    "src/{}:{line}: `{path}`: {layer} may name only {allowed:?}",
                    rel.display()
                ));
            }
            if *layer == "rules" {
                seen_model_paths += climbs(&file, depth, &[])
                    .iter()
                    .filter(|(_, p)| p == "crate::model")
                    .count();
            }
        }
    }
    // The reader must see real imports, or an empty result proves nothing.
    assert!(
        seen_model_paths > 10,
        "the scan found only {seen_model_paths} `crate::model` paths in rules/"
    );
    assert!(
        problems.is_empty(),
        "imports that climb a layer:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reader_sees_every_way_up() {
    let dir = std::env::temp_dir().join(format!("lt-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("room.rs");
    std::fs::write(
        &file,
        r#"//! Mentions crate::table in a comment, which is fine.
use crate::model::ids::new_id;
use crate::{model::saved::Saved, rules::context::Context};
fn f() -> &'static str { let _ = 'x'; "crate::wire in a string is fine" }
fn g() { crate::wire::carrier::bind(); super::super::table::start(); super::saved::Saved::default(); }
pub(crate) fn h() {}
"#,
    )
    .unwrap();
    let found: Vec<String> = climbs(&file, 2, &["model", "error"])
        .into_iter()
        .map(|(line, path)| format!("{line}:{path}"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        ["3:crate::rules", "5:crate::wire", "5:super::super::table"]
    );
}
