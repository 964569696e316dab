//! The UI's one direction of imports: `bridge` and `i18n` at the bottom, then the shared
//! helpers and the `store`, then the features. A feature names only what is below it and the
//! features it is built from (the play view draws the others; the bench watches the panels;
//! the panels draw templates). Read from the source, so a `use` that runs back up or sideways
//! fails here, not in review.

use std::path::{Path, PathBuf};

use super::{code_lines, rust_files, src};

const BASE: &[&str] = &["bridge", "i18n"];

/// Each module of the crate root and the modules it may name with `crate::`.
const ALLOWED: &[(&str, &[&str])] = &[
    ("bridge", &[]),
    ("i18n", &[]),
    ("markdown", &[]),
    ("perf", &[]),
    ("clock", &[]),
    ("idle", &[]),
    ("focus", &[]),
    ("prefs", BASE),
    ("store", &["bridge", "i18n", "prefs", "perf"]),
    // The features.
    (
        "connect",
        &["bridge", "i18n", "prefs", "perf", "store", "hosting"],
    ),
    ("hosting", &["bridge", "i18n", "clock", "store"]),
    (
        "play",
        &[
            "bridge",
            "i18n",
            "prefs",
            "markdown",
            "perf",
            "clock",
            "idle",
            "focus",
            "store",
            "keeper",
            "pack_bench",
            "panels",
            "templates",
        ],
    ),
    ("keeper", &["bridge", "i18n", "clock", "focus", "store"]),
    (
        "pack_bench",
        &["bridge", "i18n", "prefs", "store", "panels", "templates"],
    ),
    (
        "panels",
        &["bridge", "i18n", "prefs", "focus", "store", "templates"],
    ),
    ("templates", &[]),
];

/// The root's own files: the wiring (`main.rs`) and these checks.
const ROOT: &[&str] = &["main", "tests"];

/// Every `.rs` file of module `name` (`name.rs` or the folder `name/`).
fn files_of(name: &str) -> Vec<PathBuf> {
    let mut out = rust_files(&src().join(name));
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        out.push(file);
    }
    assert!(
        !out.is_empty(),
        "module {name} has no source: the list here is stale"
    );
    out
}

/// `(line number, module)` for each `crate::<module>` the file's code names.
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (n, code) in code_lines(file) {
        let mut rest = code.as_str();
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let module = ident(after);
            if !module.is_empty() {
                out.push((n, module));
            }
            rest = after;
        }
        // A use-tree from the crate root: `use crate::{a, b::C}`.
        if let Some(at) = code.find("crate::{") {
            for part in code[at + "crate::{".len()..].split([',', '}']) {
                let module = ident(part);
                if !module.is_empty() {
                    out.push((n, module));
                }
            }
        }
    }
    out
}

/// Every `crate::` path in `module` that names something outside `allowed`.
fn violations(module: &str, allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files_of(module) {
        for (line, target) in crate_paths(&file) {
            if target != module && !allowed.contains(&target.as_str()) {
                let file = file.strip_prefix(src()).unwrap_or(&file).display();
                found.push(format!("ui/src/{file}:{line} imports crate::{target}"));
            }
        }
    }
    found
}

#[test]
fn every_module_imports_only_what_is_below_it() {
    let found: Vec<String> = ALLOWED
        .iter()
        .flat_map(|(module, allowed)| violations(module, allowed))
        .collect();
    assert!(
        found.is_empty(),
        "imports that run back up or sideways (see ui/src/tests/layers.rs):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_module_is_placed_in_a_layer() {
    let listed: Vec<&str> = ALLOWED
        .iter()
        .map(|(m, _)| *m)
        .chain(ROOT.iter().copied())
        .collect();
    for entry in std::fs::read_dir(src()).expect("ui/src").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let name = name.strip_suffix(".rs").unwrap_or(&name);
        assert!(
            listed.contains(&name),
            "ui/src/{name} is in no layer: place it in ALLOWED (ui/src/tests/layers.rs)"
        );
    }
}

#[test]
fn no_module_is_pulled_in_from_outside_src() {
    let needle = concat!("#[", "path");
    for file in rust_files(&src()) {
        for (line, code) in code_lines(&file) {
            assert!(
                !code.contains(needle),
                "{}:{line}: a module pulled in by a path attribute; keep the UI's modules under ui/src",
                file.display()
            );
        }
    }
}

#[test]
fn the_reader_sees_an_import_that_runs_back_up() {
    let dir = std::env::temp_dir().join(format!("ui-layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    std::fs::write(
        &file,
        "use crate::keeper::Page; // crate::play in a comment\nuse crate::{panels, store::Table};\n<crate::pack_bench::BenchPane/>\n",
    )
    .unwrap();
    let seen: Vec<String> = crate_paths(&file).into_iter().map(|(_, m)| m).collect();
    assert_eq!(seen, ["keeper", "panels", "store", "pack_bench"]);
    let _ = std::fs::remove_dir_all(&dir);
}
