//! Loreweaver pack folders.
//!
//! A pack source folder is `pack.yaml` (id, version, name, description, licence, and
//! `contents`: a list of files per kind), the panels files and card files it lists, and the
//! files its panels use. [`load`] reads all of it the
//! way the engine's pack build does: either the whole pack is good and comes back ready to
//! serve (manifest entries with every `src` and page file addressed by sha256), or it comes
//! back as the list of [`Problem`]s the build would refuse, each with file, line, column and
//! a one-line fix. The local table serves what this returns and the pack bench shows its
//! problems, so the two can never disagree.

pub mod assets;
mod blocks;
mod card_checks;
mod cards;
pub mod contents;
pub mod differences;
pub mod engine_verdict;
pub mod files;
pub mod manifest;
mod panels;
mod problem;
mod worldbook;
pub mod yaml;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use assets::{mime_for, Asset};
pub use blocks::KINDS as BLOCK_KINDS;
pub use cards::{Card, VarDef, CARD_FORMAT};
pub use engine_verdict::EngineVerdict;
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
    /// The panels file it is declared in, relative to the pack folder.
    pub file: String,
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
    /// What the engine accepts but skips, ignores or never fires (the pack loads; the bench
    /// shows each where it is).
    pub warnings: Vec<Problem>,
}

fn read_yaml(dir: &Path, rel: &str, problems: &mut Problems) -> Option<yaml::Node> {
    let max = if rel == "pack.yaml" {
        files::MAX_MANIFEST_BYTES
    } else {
        files::MAX_YAML_BYTES
    };
    let text = match files::read_text_inside(dir, rel, max) {
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
    // An empty file is never a pack's intent (a pack without panels lists no panels file), and
    // it is what an editor's truncate-then-write leaves for a moment: refuse it, so the last
    // good panels stay.
    if text.trim().is_empty() {
        problems.push(Problem::file(
            rel,
            "the file is empty".to_string(),
            "write the file again, or take it out of `contents` in pack.yaml",
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
    let manifest = manifest::check(&meta, &mut problems);
    let id = manifest.id.clone();
    let mut store = assets::Store::new(dir);
    let mut panels = Vec::new();
    for entry in manifest.files("panels") {
        let rel = entry.path.as_str();
        if !(rel.ends_with(".yaml") || rel.ends_with(".yml")) {
            problems.at(
                "pack.yaml",
                &entry.node,
                format!("panels file must be a .yaml file: '{rel}'"),
                "name the panels file e.g. `ui/panels.yaml`",
            );
        } else if let Some(doc) = read_yaml(dir, rel, &mut problems) {
            panels::panels(&id, rel, &doc, &mut store, &mut problems, &mut panels);
        }
    }
    unlisted(dir, &manifest, &mut problems);
    let mut cards = Vec::new();
    let mut variables = Vec::new();
    let mut warnings = Vec::new();
    for entry in manifest.files("cards") {
        let rel = entry.path.as_str();
        match files::read_text_inside(dir, rel, files::MAX_YAML_BYTES) {
            Ok(text) => cards.push(cards::card(
                rel,
                &text,
                &mut problems,
                &mut warnings,
                &mut variables,
            )),
            Err(e) => problems.at(
                "pack.yaml",
                &entry.node,
                format!("cannot read the card: {e}"),
                "fix the path under `contents.cards` or add the file",
            ),
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
        warnings,
    })
}

/// Files the engine would leave out because `contents` does not list them: it ships only
/// what the manifest lists, so a `ui/panels.yaml` or `cards/` folder that is not listed means
/// a pack that loads with no panels or cards and no word why. Stricter than the engine, on
/// purpose (it accepts such a pack silently); the hint says so.
fn unlisted(dir: &Path, manifest: &manifest::Manifest, problems: &mut Problems) {
    let conventional = [("panels", "ui/panels.yaml"), ("cards", "cards")];
    for (kind, rel) in conventional {
        if manifest.declared.contains(kind) || !dir.join(rel).exists() {
            continue;
        }
        let listed = if rel == "cards" {
            let mut files = Vec::new();
            assets::files_under(&dir.join(rel), &mut files);
            // Card files only (JSON, or PNG cards): a folder of pictures is not a card list.
            files
                .iter()
                .filter(|f| {
                    f.extension().is_some_and(|x| {
                        x.eq_ignore_ascii_case("json") || x.eq_ignore_ascii_case("png")
                    })
                })
                .filter_map(|f| f.strip_prefix(dir).ok())
                .map(|f| f.to_string_lossy().replace('\\', "/"))
                .collect::<Vec<_>>()
        } else {
            vec![rel.to_string()]
        };
        if listed.is_empty() {
            continue;
        }
        problems.push(Problem::file(
            "pack.yaml",
            format!(
                "{rel} is not listed under contents.{kind}: the engine would ship the pack without it"
            ),
            format!(
                "add `{kind}: [{}]` under `contents:` (the engine accepts the pack as it is, and \
                 leaves the file out)",
                listed.join(", ")
            ),
        ));
    }
}
