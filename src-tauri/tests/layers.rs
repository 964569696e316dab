//! The backend's one direction of imports (docs/ARCHITECTURE.md): the core (the seat and its
//! pump, the sanitiser, the profile's paths, logging) imports no feature, and no feature
//! imports the top (the app's own commands and window). Read from the source, so a `use` that
//! runs back up fails here, not in review.

use std::path::{Path, PathBuf};

const CORE: &[&str] = &["seat", "clean", "profile", "logging"];
const FEATURES: &[&str] = &[
    "audio",
    "pack_bench",
    "demo",
    "export",
    "hosting",
    "keeper",
    "media",
    "notify",
    "panels",
    "saved_tables",
];
const TOP: &[&str] = &["commands", "window", "cli"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file of module `name` (`name.rs` or the folder `name/`).
fn files_of(name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        out.push(file);
    }
    let mut stack = vec![src().join(name)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    assert!(
        !out.is_empty(),
        "module {name} has no source: the list here is stale"
    );
    out
}

/// `(line number, module)` for each `crate::<module>` the file's code names (comments skipped).
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).expect("reading a source file");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let module: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !module.is_empty() {
                out.push((i + 1, module));
            }
            rest = after;
        }
        // A use-tree from the crate root: `use crate::{a, b}`.
        if let Some(at) = code.find("crate::{") {
            for part in code[at + "crate::{".len()..].split([',', '}']) {
                let module: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !module.is_empty() {
                    out.push((i + 1, module));
                }
            }
        }
    }
    out
}

fn violations(from: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for module in from {
        for file in files_of(module) {
            for (line, target) in crate_paths(&file) {
                if forbidden.contains(&target.as_str()) {
                    found.push(format!("{}:{line} imports crate::{target}", file.display()));
                }
            }
        }
    }
    found
}

#[test]
fn the_core_imports_no_feature_and_nothing_above_it() {
    let above: Vec<&str> = FEATURES.iter().chain(TOP).copied().collect();
    let found = violations(CORE, &above);
    assert!(
        found.is_empty(),
        "imports that run back up:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_feature_imports_the_app_top() {
    let found = violations(FEATURES, TOP);
    assert!(
        found.is_empty(),
        "imports that run back up:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reader_sees_an_import_that_runs_back_up() {
    let dir = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("probe.rs");
    std::fs::write(
        &file,
        "use crate::panels::Panels; // crate::bench in a comment\nuse crate::{audio, media::Cache};\n",
    )
    .unwrap();
    let seen: Vec<String> = crate_paths(&file).into_iter().map(|(_, m)| m).collect();
    assert_eq!(seen, ["panels", "audio", "media"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_module_has_a_layer_and_the_map_names_it() {
    let mut unplaced = Vec::new();
    for entry in std::fs::read_dir(src()).expect("src").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let module = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        if entry.path().is_file() && !name.ends_with(".rs") {
            continue;
        }
        let placed = CORE.iter().chain(FEATURES).chain(TOP).any(|m| *m == module)
            || module == "lib"
            || module == "main";
        if !placed {
            unplaced.push(module);
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules in no layer (add each to CORE, FEATURES or TOP here, and to docs/ARCHITECTURE.md): {unplaced:?}"
    );
    let map = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/ARCHITECTURE.md"),
    )
    .expect("docs/ARCHITECTURE.md");
    let missing: Vec<&&str> = CORE
        .iter()
        .chain(FEATURES)
        .chain(TOP)
        .filter(|m| !map.contains(&format!("`{m}")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md does not place these backend modules: {missing:?}"
    );
}
