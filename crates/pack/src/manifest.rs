//! `pack.yaml` checked by the engine's own rules (`core/pack.py`, `parse_manifest_text`, the
//! author's side): a lowercase slug id, a semver version, a name and a description, a
//! licence, minimum engine versions, and `contents` as a **list** of files per kind. The
//! engine refuses the first thing it dislikes with one sentence; this lists all of them, each
//! with its position and a fix, in the engine's words so an author can search for either.

use std::collections::HashSet;

use crate::problem::Problems;
use crate::yaml::{Kind, Node};

const FILE: &str = "pack.yaml";
/// The manifest schema the engine reads (`MANIFEST_VERSION`).
pub const MANIFEST_VERSION: i64 = 2;
/// Every content kind the engine knows, in its order (`CONTENT_KINDS`).
pub const CONTENT_KINDS: &[&str] = &[
    "skills",
    "rulepacks",
    "cards",
    "lorebooks",
    "panels",
    "presentation",
    "presets",
    "prep",
];
/// `MAX_CONTENT_FILES_PER_KIND`.
pub const MAX_FILES_PER_KIND: usize = 64;

/// One file `contents.<kind>` lists, with where the author wrote it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: &'static str,
    pub path: String,
    pub node: Node,
}

#[derive(Debug, Default)]
pub struct Manifest {
    pub id: String,
    pub entries: Vec<Entry>,
    /// Kinds the author wrote under `contents` at all (even as an empty list).
    pub declared: HashSet<&'static str>,
}

impl Manifest {
    pub fn files<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Entry> {
        self.entries.iter().filter(move |e| e.kind == kind)
    }
}

pub fn check(meta: &Node, problems: &mut Problems) -> Manifest {
    let mut out = Manifest::default();
    if meta.as_map().is_none() {
        problems.at(
            FILE,
            meta,
            "manifest root must be a mapping",
            "start pack.yaml with `id: my-pack` on its own line",
        );
        return out;
    }
    if let Some(v) = meta.get("manifest_version") {
        match v.kind {
            Kind::Int(n) if n == MANIFEST_VERSION => {}
            Kind::Int(n) if n > MANIFEST_VERSION => problems.at(
                FILE,
                v,
                format!(
                    "manifest_version {n} is newer than this engine supports ({MANIFEST_VERSION})"
                ),
                "write `manifest_version: 2`, or leave it out",
            ),
            Kind::Int(n) => problems.at(
                FILE,
                v,
                format!("manifest_version {n} is not supported (no migration path)"),
                "move the pack to the 2.0 shape and write `manifest_version: 2`",
            ),
            _ => problems.at(
                FILE,
                v,
                "manifest_version must be an integer",
                "write `manifest_version: 2`",
            ),
        }
    }
    match meta.get("id").and_then(Node::as_str) {
        Some(id) if is_slug(id) => out.id = id.to_string(),
        _ => problems.at(
            FILE,
            meta.get("id").unwrap_or(meta),
            "manifest id must be a lowercase slug ([a-z0-9-], max 64)",
            "write e.g. `id: haunted-manor`",
        ),
    }
    if !meta
        .get("version")
        .and_then(Node::as_str)
        .is_some_and(is_semver)
    {
        problems.at(
            FILE,
            meta.get("version").unwrap_or(meta),
            "manifest version must be semver (MAJOR.MINOR.PATCH)",
            "write e.g. `version: \"0.1.0\"`",
        );
    }
    for field in ["name", "description"] {
        if !meta.get(field).is_some_and(localized) {
            problems.at(
                FILE,
                meta.get(field).unwrap_or(meta),
                format!("manifest field '{field}' must be a non-empty string or an en/zh mapping"),
                format!("write e.g. `{field}: {{en: \"…\", zh: \"…\"}}`"),
            );
        }
    }
    if let Some(a) = meta.get("authors").filter(|a| !falsy(a)) {
        let ok = a.as_seq().is_some_and(|l| {
            l.iter()
                .all(|s| s.as_str().is_some_and(|s| !s.trim().is_empty()))
        });
        if !ok {
            problems.at(
                FILE,
                a,
                "manifest authors must be a list of non-empty strings",
                "write `authors: [\"Your Name\"]`",
            );
        }
    }
    if meta
        .get("license")
        .and_then(Node::as_str)
        .is_none_or(|l| l.trim().is_empty())
    {
        problems.at(
            FILE,
            meta.get("license").unwrap_or(meta),
            "manifest license is required (an SPDX id or short name)",
            "write e.g. `license: CC-BY-4.0`",
        );
    }
    engine(meta, problems);
    contents(meta, problems, &mut out);
    for generated in ["files", "trust"] {
        if let Some(n) = meta.get(generated) {
            problems.at(
                FILE,
                n,
                format!("{generated} is generated at pack time and must not be hand-written"),
                format!("delete `{generated}:`; the engine's packer writes it"),
            );
        }
    }
    out
}

fn engine(meta: &Node, problems: &mut Problems) {
    let Some(engine) = meta.get("engine").filter(|e| !falsy(e)) else {
        return;
    };
    let Some(entries) = engine.as_map() else {
        problems.at(
            FILE,
            engine,
            "manifest engine must be a mapping of minimum versions",
            "write `engine: {protocol: \"2.3\"}`",
        );
        return;
    };
    for (k, v) in entries {
        match k.as_str() {
            Some("protocol" | "server") => {
                if !v.is_null() && !v.as_str().is_some_and(is_engine_version) {
                    problems.at(
                        FILE,
                        v,
                        format!(
                            "engine.{} must be a version string (dotted integers only)",
                            k.as_str().unwrap_or("")
                        ),
                        "write it quoted, e.g. `\"2.3\"`",
                    );
                }
            }
            _ => problems.at(
                FILE,
                k,
                format!("unknown engine keys: ['{}']", k.as_str().unwrap_or("?")),
                "the engine knows `protocol` and `server`",
            ),
        }
    }
}

fn contents(meta: &Node, problems: &mut Problems, out: &mut Manifest) {
    let Some(contents) = meta.get("contents").filter(|c| !falsy(c)) else {
        return;
    };
    let Some(map) = contents.as_map() else {
        problems.at(
            FILE,
            contents,
            "manifest contents must be a mapping",
            "write `contents:` with one list per kind below it",
        );
        return;
    };
    for (k, v) in map {
        let Some(kind) = k
            .as_str()
            .and_then(|k| CONTENT_KINDS.iter().find(|c| **c == k))
        else {
            problems.at(
                FILE,
                k,
                format!("unknown contents kinds: ['{}']", k.as_str().unwrap_or("?")),
                format!("the engine knows {}", CONTENT_KINDS.join(", ")),
            );
            continue;
        };
        out.declared.insert(kind);
        if falsy(v) {
            continue;
        }
        let Some(items) = v.as_seq() else {
            let example = v.as_str().unwrap_or("ui/panels.yaml");
            problems.at(
                FILE,
                v,
                format!("contents.{kind} must be a list"),
                format!("write `{kind}: [{example}]` (one file or more)"),
            );
            continue;
        };
        if items.len() > MAX_FILES_PER_KIND {
            problems.at(
                FILE,
                &items[MAX_FILES_PER_KIND],
                format!("contents.{kind} lists too many files (max {MAX_FILES_PER_KIND})"),
                "split the pack",
            );
        }
        let mut seen = HashSet::new();
        for item in items {
            let Some(path) = entry_path(kind, item, problems) else {
                continue;
            };
            if !seen.insert(path.clone()) {
                problems.at(
                    FILE,
                    item,
                    format!("contents.{kind} lists a duplicate path"),
                    "list each file once",
                );
                continue;
            }
            out.entries.push(Entry {
                kind,
                path,
                node: item.clone(),
            });
        }
    }
}

/// One entry's path: a relative path string, or for cards a `{path, notes}` mapping.
fn entry_path(kind: &str, item: &Node, problems: &mut Problems) -> Option<String> {
    let path_node = match (&item.kind, kind) {
        (Kind::Map(_), "cards") => {
            if let Some(k) = item.get("kind") {
                problems.at(
                    FILE,
                    k,
                    "card kind is detected from the real payload at build time and must not be declared",
                    "delete `kind:`",
                );
                return None;
            }
            if let Some((k, _)) = item.as_map().and_then(|m| {
                m.iter()
                    .find(|(k, _)| !matches!(k.as_str(), Some("path" | "notes")))
            }) {
                problems.at(
                    FILE,
                    k,
                    format!("unknown card entry keys: ['{}']", k.as_str().unwrap_or("?")),
                    "a card entry has `path` and `notes`",
                );
                return None;
            }
            item.get("path").unwrap_or(item)
        }
        _ => item,
    };
    match path_node.as_str().map(str::trim) {
        Some(p) if !p.is_empty() => match unsafe_reason(p) {
            None => Some(normalised(p)),
            Some(why) => {
                problems.at(
                    FILE,
                    path_node,
                    format!("unsafe archive path ({why}): '{p}'"),
                    "write a path inside the pack, with `/` between folders",
                );
                None
            }
        },
        _ => {
            let msg = if kind == "cards" {
                "contents.cards entries must be path strings or {path, notes} mappings".to_string()
            } else {
                format!("contents.{kind} entries must be relative path strings")
            };
            problems.at(
                FILE,
                path_node,
                msg,
                "write the file's path inside the pack",
            );
            None
        }
    }
}

/// Why the engine's `_validated_entry_path` would refuse `p`, if it would.
fn unsafe_reason(p: &str) -> Option<&'static str> {
    if p.chars().count() > 512 {
        return Some("empty or too long");
    }
    if p.contains('\\') || p.chars().any(|c| (c as u32) < 0x20) {
        return Some("illegal characters");
    }
    let b = p.as_bytes();
    if p.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':') {
        return Some("absolute");
    }
    // PurePosixPath drops empty segments and a lone `.` between slashes.
    let parts: Vec<&str> = p
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if parts.is_empty() {
        return Some("empty");
    }
    if parts
        .iter()
        .any(|s| *s == ".." || s.trim().is_empty() || s.chars().count() > 255)
    {
        return Some("traversal segment");
    }
    None
}

/// Python's falsy values, which the engine reads as "nothing here" (`raw.get(k) or []`).
fn falsy(n: &Node) -> bool {
    match &n.kind {
        Kind::Null => true,
        Kind::Bool(b) => !b,
        Kind::Int(i) => *i == 0,
        Kind::Float(f) => *f == 0.0,
        Kind::Str(s) => s.is_empty(),
        Kind::Seq(l) => l.is_empty(),
        Kind::Map(m) => m.is_empty(),
    }
}

/// `p` as the engine's `PurePosixPath` spells it: empty and `.` segments dropped.
fn normalised(p: &str) -> String {
    p.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect::<Vec<_>>()
        .join("/")
}

fn localized(n: &Node) -> bool {
    match &n.kind {
        Kind::Str(s) => !s.trim().is_empty(),
        Kind::Map(_) => ["en", "zh"].iter().any(|l| {
            n.get(l)
                .and_then(Node::as_str)
                .is_some_and(|s| !s.trim().is_empty())
        }),
        _ => false,
    }
}

/// `^[a-z0-9][a-z0-9-]{0,63}$`: the engine's pack and panel ids.
pub(crate) fn is_slug(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn digits(s: &str) -> bool {
    (1..=6).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit())
}

/// `^\d{1,6}\.\d{1,6}\.\d{1,6}(?:[-+][0-9A-Za-z.-]{1,32})?$`
fn is_semver(s: &str) -> bool {
    let (core, tail) = match s.find(['-', '+']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| digits(p))
        && tail.is_none_or(|t| {
            (1..=32).contains(&t.len())
                && t.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'-')
        })
}

/// `^\d{1,6}(?:\.\d{1,6}){0,3}$`
fn is_engine_version(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() <= 4 && parts.iter().all(|p| digits(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_patterns() {
        assert!(
            is_slug("haunted-manor")
                && is_slug("0x")
                && !is_slug("-a")
                && !is_slug("Bench")
                && !is_slug("a_b")
                && !is_slug("a.b")
        );
        assert!(
            is_semver("0.1.0")
                && is_semver("1.2.3-rc.1")
                && !is_semver("1.2")
                && !is_semver("v1.2.3")
                && !is_semver("1.2.3-")
        );
        assert!(
            is_engine_version("2.3")
                && is_engine_version("2")
                && !is_engine_version("2.3.x")
                && !is_engine_version("1.2.3.4.5")
        );
        assert_eq!(unsafe_reason("ui/panels.yaml"), None);
        assert_eq!(unsafe_reason("./ui//panels.yaml"), None);
        assert_eq!(unsafe_reason("../x.yaml"), Some("traversal segment"));
        assert_eq!(unsafe_reason("/etc/passwd"), Some("absolute"));
        assert_eq!(unsafe_reason("C:x"), Some("absolute"));
        assert_eq!(unsafe_reason("a\\b"), Some("illegal characters"));
    }
}
