//! Loreweaver pack folders.
//!
//! A pack source folder is `pack.yaml` (id, name, `contents`), a panels file (default
//! `ui/panels.yaml`), card files and the files its panels use. [`load`] reads all of it the
//! way the engine's pack build does: either the whole pack is good and comes back ready to
//! serve (manifest entries with every `src` and page file addressed by sha256), or it comes
//! back as the list of [`Problem`]s the build would refuse, each with file, line, column and
//! a one-line fix. The local table serves what this returns and the pack bench shows its
//! problems, so the two can never disagree.

pub mod assets;
mod blocks;
mod cards;
mod panels;
mod problem;
pub mod yaml;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use assets::{mime_for, Asset};
pub use blocks::KINDS as BLOCK_KINDS;
pub use cards::{Card, VarDef, CARD_FORMAT};
pub use panels::{MAX_PANELS, MAX_TIER2_BYTES};
pub use problem::Problem;

use problem::Problems;

/// Who a panel is for. Resolved by the table per viewer; never on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    All,
    Keeper,
    Players,
}

impl Audience {
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::All => "all",
            Audience::Keeper => "keeper",
            Audience::Players => "players",
        }
    }

    pub fn reaches(self, keeper: bool) -> bool {
        match self {
            Audience::All => true,
            Audience::Keeper => keeper,
            Audience::Players => !keeper,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Panel {
    /// `<packId>/<panelId>`.
    pub id: String,
    pub audience: Audience,
    /// The manifest entry (audience already stripped).
    pub wire: Value,
}

#[derive(Debug, Clone)]
pub struct Pack {
    pub id: String,
    pub dir: PathBuf,
    pub panels: Vec<Panel>,
    /// sha256 → file, for GET.
    pub assets: HashMap<String, Asset>,
    pub cards: Vec<Card>,
    /// The module variables the world cards define, in definition order.
    pub variables: Vec<VarDef>,
}

fn read_yaml(dir: &Path, rel: &str, problems: &mut Problems) -> Option<yaml::Node> {
    let text = match std::fs::read_to_string(dir.join(rel)) {
        Ok(t) => t,
        Err(e) => {
            let hint = if rel == "pack.yaml" {
                "a pack folder starts with pack.yaml (`id: my-pack`)"
            } else {
                "create the file or fix the path in pack.yaml `contents:`"
            };
            problems.push(Problem::file(rel, format!("cannot read: {e}"), hint));
            return None;
        }
    };
    // An empty file is never a pack's intent (no panels is `panels: []`), and it is what an
    // editor's truncate-then-write leaves for a moment: refuse it, so the last good panels stay.
    if text.trim().is_empty() {
        problems.push(Problem::file(
            rel,
            "the file is empty".to_string(),
            "write `panels: []` for a pack without panels",
        ));
        return None;
    }
    match yaml::parse(&text) {
        Ok(doc) => Some(doc),
        Err(e) => {
            problems.push(Problem {
                file: rel.into(),
                line: e.line,
                column: e.column,
                message: format!("YAML syntax: {}", e.message),
                hint: "check the indentation and the brackets/quotes around this spot".into(),
            });
            None
        }
    }
}

/// Reads and checks the pack at `dir`.
pub fn load(dir: &Path) -> Result<Pack, Vec<Problem>> {
    let mut problems = Problems::default();
    let Some(meta) = read_yaml(dir, "pack.yaml", &mut problems) else {
        return Err(problems.0);
    };
    let id = match meta.get("id") {
        Some(n) => match n.as_str() {
            Some(s)
                if !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) =>
            {
                s.to_string()
            }
            _ => {
                problems.at(
                    "pack.yaml",
                    n,
                    "the pack id is letters, digits, -, _ and .",
                    "write e.g. `id: haunted-manor`",
                );
                String::new()
            }
        },
        None => {
            problems.at(
                "pack.yaml",
                &meta,
                "pack.yaml has no id",
                "add `id: my-pack` (letters, digits, -, _ and .)",
            );
            String::new()
        }
    };
    let contents = meta.get("contents");
    let mut store = assets::Store::new(dir);
    let panels_rel = match contents.and_then(|c| c.get("panels")) {
        Some(p) => p.as_str().map(str::to_string),
        None => dir
            .join("ui/panels.yaml")
            .exists()
            .then(|| "ui/panels.yaml".to_string()),
    };
    let mut panels = Vec::new();
    if let Some(rel) = panels_rel {
        if let Some(doc) = read_yaml(dir, &rel, &mut problems) {
            panels = panels::panels(&id, &rel, &doc, &mut store, &mut problems);
        }
    }
    let mut cards = Vec::new();
    let mut variables = Vec::new();
    for rel in card_paths(dir, contents.and_then(|c| c.get("cards")), &mut problems) {
        match std::fs::read_to_string(dir.join(&rel)) {
            Ok(text) => cards.push(cards::card(&rel, &text, &mut problems, &mut variables)),
            Err(e) => problems.push(Problem::file(
                &rel,
                format!("cannot read the card: {e}"),
                "fix the path under `contents.cards`",
            )),
        }
    }
    if !problems.0.is_empty() {
        return Err(problems.0);
    }
    Ok(Pack {
        id,
        dir: dir.to_path_buf(),
        panels,
        assets: store.by_hash,
        cards,
        variables,
    })
}

/// `contents.cards`: a list of files or folders (default: the `cards/` folder).
fn card_paths(dir: &Path, declared: Option<&yaml::Node>, problems: &mut Problems) -> Vec<String> {
    let mut roots: Vec<String> = Vec::new();
    match declared {
        None => roots.push("cards".into()),
        Some(n) => match (n.as_str(), n.as_seq()) {
            (Some(s), _) => roots.push(s.into()),
            (_, Some(items)) => {
                for item in items {
                    match item.as_str() {
                        Some(s) if !s.contains("..") && !s.starts_with('/') => {
                            if !dir.join(s).exists() {
                                problems.at(
                                    "pack.yaml",
                                    item,
                                    format!("card \"{s}\" does not exist"),
                                    "fix the path or add the file",
                                );
                            }
                            roots.push(s.into());
                        }
                        _ => problems.at(
                            "pack.yaml",
                            item,
                            "a card path must be inside the pack",
                            "write e.g. `- cards/world.lorecard.json`",
                        ),
                    }
                }
            }
            _ => problems.at(
                "pack.yaml",
                n,
                "contents.cards must be a list of paths",
                "write `cards: [cards/world.lorecard.json]`",
            ),
        },
    }
    let mut out = Vec::new();
    for root in roots {
        let path = dir.join(&root);
        if path.is_dir() {
            let mut files = Vec::new();
            assets::files_under(&path, &mut files);
            for f in files {
                if let Ok(rel) = f.strip_prefix(dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        } else if path.is_file() {
            out.push(root);
        }
    }
    out
}
