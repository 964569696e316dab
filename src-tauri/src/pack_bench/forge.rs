//! The card forge's commands: the bench's pack's cards listed, a native card opened as its
//! whole document, saved in the stable key order (refused when the file changed on disk since
//! it was opened), and a new world card made and listed in `pack.yaml`. The formats are the
//! pure `lorecard` crate's; every write is to a file beside the target, then renamed over it.

use std::path::{Path, PathBuf};

use ipc::{cmd, ForgeCardInfo, ForgeDocument, Reply};
use sha2::{Digest, Sha256};

use super::PackBench;

fn base_of(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// `rel` inside the pack, read as the pack reader reads it (no link, no escape).
pub(super) fn inside(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    pack::files::path_inside(dir, rel)
}

/// Written beside and renamed in: a crash leaves the old file or the new one, never half.
pub(super) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("forge-tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

#[tauri::command]
pub async fn forge_cards(
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeCards,
) -> Result<Reply<cmd::ForgeCards>, String> {
    let cmd::ForgeCards {} = args;
    let dir = bench.dir().await?;
    let listed = bench.with_table(|t| t.packs_handle().card_paths()).await?;
    Ok(listed
        .into_iter()
        .map(|path| {
            let json: Option<serde_json::Value> = inside(&dir, &path)
                .ok()
                .and_then(|p| std::fs::read(p).ok())
                .and_then(|b| serde_json::from_slice(&b).ok());
            let native = json
                .as_ref()
                .and_then(|j| j.get("format"))
                .and_then(|f| f.as_str())
                == Some(lorecard::card::FORMAT);
            let name = json
                .as_ref()
                .and_then(|j| j.get("name").or_else(|| j.get("data")?.get("name")))
                .and_then(|n| n.as_str())
                .unwrap_or_default()
                .to_string();
            ForgeCardInfo {
                kind: json
                    .as_ref()
                    .map_or("character", |j| lorecard::world::payloads(j).kind())
                    .into(),
                path,
                name,
                native,
            }
        })
        .collect())
}

#[tauri::command]
pub async fn forge_open(
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeOpen,
) -> Result<Reply<cmd::ForgeOpen>, String> {
    let cmd::ForgeOpen { path } = args;
    let file = inside(&bench.dir().await?, &path)?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{path}: {e}"))?;
    lorecard::card::read(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let card = serde_json::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(ForgeDocument {
        base: base_of(&bytes),
        path,
        card,
    })
}

#[tauri::command]
pub async fn forge_save(
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeSave,
) -> Result<Reply<cmd::ForgeSave>, String> {
    let cmd::ForgeSave {
        path,
        card,
        base,
        overwrite,
    } = args;
    let file = inside(&bench.dir().await?, &path)?;
    let now = std::fs::read(&file).map_err(|e| format!("{path}: {e}"))?;
    if !overwrite && base_of(&now) != base {
        return Err(format!(
            "{path} changed on disk since you opened it: reload it, or save over it"
        ));
    }
    let bytes = serde_json::to_vec(&card).map_err(|e| e.to_string())?;
    let card = lorecard::card::read(&bytes).map_err(|e| format!("not saved: {e}"))?;
    let text = lorecard::card::write(&card);
    write_whole(&file, text.as_bytes())?;
    Ok(ForgeDocument {
        base: base_of(text.as_bytes()),
        card: serde_json::from_str(&text).map_err(|e| e.to_string())?,
        path,
    })
}

#[tauri::command]
pub async fn forge_new(
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeNew,
) -> Result<Reply<cmd::ForgeNew>, String> {
    let cmd::ForgeNew { name } = args;
    let name = name.trim();
    if name.is_empty() {
        return Err("give the card a name".into());
    }
    let dir = bench.dir().await?;
    let rel = card_rel(&dir, name);
    add_card(
        &dir,
        &rel,
        &lorecard::card::write(&lorecard::Lorecard::new(name)),
    )?;
    Ok(rel)
}

#[tauri::command]
pub async fn forge_split(
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeSplit,
) -> Result<Reply<cmd::ForgeSplit>, String> {
    let cmd::ForgeSplit { path, base } = args;
    let dir = bench.dir().await?;
    let file = inside(&dir, &path)?;
    let now = std::fs::read(&file).map_err(|e| format!("{path}: {e}"))?;
    if base_of(&now) != base {
        return Err(format!(
            "{path} changed on disk since you opened it: save or reload it first"
        ));
    }
    let card = lorecard::card::read(&now).map_err(|e| format!("{path}: {e}"))?;
    if !lorecard::split::has_persona(&card) {
        return Err(format!(
            "{path} has no persona (a personality or dialogue examples) to split off"
        ));
    }
    let halves = lorecard::split::split(&card).ok_or_else(|| {
        format!("{path} carries no world machinery: it is a character card already")
    })?;
    // The world half first, then the character half over the file: a failure between the
    // two leaves the whole card as it was and an extra world card, never a card lost.
    let world = card_rel(&dir, &halves.world.name);
    add_card(&dir, &world, &lorecard::card::write(&halves.world))?;
    write_whole(&file, lorecard::card::write(&halves.character).as_bytes())?;
    Ok(world)
}

/// Pure and quick (a parse of one script): called as the author types.
#[tauri::command]
pub fn forge_check_hook(args: cmd::ForgeCheckHook) -> Result<Reply<cmd::ForgeCheckHook>, String> {
    Ok(lorecard::hooks::check(&args.code)
        .into_iter()
        .map(|p| ipc::HookProblem {
            line: p.line,
            column: p.column,
            message: p.message,
            skipped: p.skipped,
        })
        .collect())
}

/// A free `cards/<slug>.lorecard.json` for a card named `name`.
pub(super) fn card_rel(dir: &Path, name: &str) -> String {
    let slug: String = name
        .chars()
        // ASCII only: a file name every platform and the engine's packer read the same.
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let slug = if slug.is_empty() { "card".into() } else { slug };
    (1..)
        .map(|n| match n {
            1 => format!("cards/{slug}.lorecard.json"),
            n => format!("cards/{slug}-{n}.lorecard.json"),
        })
        .find(|rel| !dir.join(rel).exists())
        .expect("a free name")
}

/// Writes the card file `rel`, then lists it under `pack.yaml`'s `contents.cards` (in that
/// order: the bench reloads on each write, and a listed card must be there).
pub(super) fn add_card(dir: &Path, rel: &str, card: &str) -> Result<(), String> {
    let manifest = dir.join("pack.yaml");
    let yaml = std::fs::read_to_string(&manifest).map_err(|e| format!("pack.yaml: {e}"))?;
    let listed = pack::contents::add(&yaml, "cards", rel)
        .ok_or("pack.yaml has no `contents:` to list the card under")?;
    std::fs::create_dir_all(dir.join("cards")).map_err(|e| format!("cards/: {e}"))?;
    write_whole(&dir.join(rel), card.as_bytes())?;
    write_whole(&manifest, listed.as_bytes())
}
