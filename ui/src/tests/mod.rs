//! Checks read from the UI's own source: the direction of its imports, and that every string
//! key it uses has exactly one owner. Native tests (no WebView needed).

mod contrast;
mod glyphs;
mod layers;
mod strings;

use std::path::{Path, PathBuf};

pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
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
    out.sort();
    out
}

/// The file's lines with `//` comments cut off (a `//` inside a string cuts too early, which
/// only ever hides code from a check, never invents any).
pub fn code_lines(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).expect("reading a source file");
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or("").to_owned()))
        .collect()
}
