//! The forge's import and export: a SillyTavern card (JSON or PNG) or a native card brought
//! into the pack (previewed first: its kind and world half as the engine decides, and what it
//! cannot carry), and a card written out as native, SillyTavern JSON or a PNG card, in the safe
//! or the release flavour. `STUDIO_PICK_FILES` and `STUDIO_SAVE_DIR` answer for the dialogs in
//! the end-to-end tests (a GTK dialog cannot be driven over WebDriver).

use std::path::PathBuf;

use ipc::{cmd, ForgeImportView, ForgeInitVar, Reply};

use super::engine::save_path;
use super::forge::{add_card, card_rel, inside, write_whole};
use super::PackBench;

/// The most a card file may be (the engine's card cap).
const MAX_CARD: u64 = lorecard::card::MAX_FILE_BYTES as u64;

async fn pick_file(app: &tauri::AppHandle, filter: (&str, &[&str])) -> Option<PathBuf> {
    if let Some(files) = std::env::var_os("STUDIO_PICK_FILES") {
        // Each pick takes the next path; the last one answers every pick after it.
        static PICKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let files: Vec<PathBuf> = std::env::split_paths(&files).collect();
        let n = PICKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return files.get(n.min(files.len().saturating_sub(1))).cloned();
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter(filter.0, filter.1)
        .pick_file(move |picked| {
            let _ = tx.send(picked.and_then(|p| p.into_path().ok()));
        });
    rx.await.ok().flatten()
}

fn read_card_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() || meta.len() > MAX_CARD {
        return Err(format!(
            "{}: not a card file (a regular file of at most 16 MiB)",
            path.display()
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

#[tauri::command]
pub async fn forge_import(
    app: tauri::AppHandle,
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeImport,
) -> Result<Reply<cmd::ForgeImport>, String> {
    let cmd::ForgeImport {
        source,
        accept,
        promote,
        split,
    } = args;
    let source = match source {
        Some(s) => PathBuf::from(s),
        None => match pick_file(&app, ("Character cards", &["json", "png"])).await {
            Some(p) => p,
            None => return Ok(None),
        },
    };
    let bytes = read_card_file(&source)?;
    let mut imported =
        lorecard::import_bytes(&bytes).map_err(|e| format!("{}: {e}", source.display()))?;
    let initvar = lorecard::initvar::proposals(&imported.card)
        .into_iter()
        .map(offered)
        .collect();
    let notes = if accept {
        lorecard::initvar::promote(&mut imported.card, &promote)
    } else {
        vec![]
    };
    let native = lorecard::card::write(&imported.card);
    let json: serde_json::Value = serde_json::from_str(&native).map_err(|e| e.to_string())?;
    let world = lorecard::world::payloads(&json);
    let halves = lorecard::split::split(&imported.card);
    let mut view = ForgeImportView {
        source: source.display().to_string(),
        name: imported.card.name.clone(),
        kind: world.kind().into(),
        entries: imported.card.worldbook.len(),
        variables: imported.card.variables.len(),
        hooks: world.hooks,
        declarations: world.variable_declarations,
        ejs: world.ejs_blocks,
        secret: world.secret_entries,
        left_out: imported.left_out,
        initvar,
        notes,
        written: None,
        splittable: lorecard::split::has_persona(&imported.card) && halves.is_some(),
        character_entries: halves.as_ref().map_or(0, |h| h.character.worldbook.len()),
        written_world: None,
    };
    if accept {
        let dir = bench.dir().await?;
        match halves.filter(|_| split && view.splittable) {
            Some(halves) => {
                // The world half first: the character half is the one opened after.
                let world = card_rel(&dir, &halves.world.name);
                add_card(&dir, &world, &lorecard::card::write(&halves.world))?;
                let character = card_rel(&dir, &halves.character.name);
                add_card(&dir, &character, &lorecard::card::write(&halves.character))?;
                view.notes.push(format!(
                    "split in two: {character} (the character, {} entries) and {world} (the world)",
                    halves.character.worldbook.len()
                ));
                (view.written, view.written_world) = (Some(character), Some(world));
            }
            None => {
                let rel = card_rel(&dir, &imported.card.name);
                add_card(&dir, &rel, &native)?;
                view.written = Some(rel);
            }
        }
    }
    Ok(Some(view))
}

fn offered(p: lorecard::initvar::Proposal) -> ForgeInitVar {
    let bound = |n: &Option<serde_json::Number>| n.as_ref().and_then(serde_json::Number::as_i64);
    let mut out = ForgeInitVar {
        value: p.value.to_string(),
        description: p.description.unwrap_or_default(),
        why: p.why,
        ..ForgeInitVar::default()
    };
    if let Some(v) = p.variable {
        (out.minimum, out.maximum) = (bound(&v.minimum), bound(&v.maximum));
        (out.id, out.kind) = (v.id, v.kind);
    }
    out.path = p.path;
    out
}

#[tauri::command]
pub async fn forge_export(
    app: tauri::AppHandle,
    bench: tauri::State<'_, PackBench>,
    args: cmd::ForgeExport,
) -> Result<Reply<cmd::ForgeExport>, String> {
    let cmd::ForgeExport { path, form } = args;
    let form = lorecard::Export::named(&form).ok_or_else(|| format!("no export form {form:?}"))?;
    let file = inside(&bench.dir().await?, &path)?;
    let card = lorecard::card::read(&std::fs::read(&file).map_err(|e| format!("{path}: {e}"))?)
        .map_err(|e| format!("{path}: {e}"))?;
    let image = match form {
        lorecard::Export::Png(_) => match pick_file(&app, ("PNG images", &["png"])).await {
            Some(p) => Some(read_card_file(&p)?),
            None => return Ok(None),
        },
        _ => None,
    };
    let bytes = lorecard::export(&card, form, image.as_deref()).map_err(|e| e.to_string())?;
    let stem = file
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.split('.').next())
        .unwrap_or("card");
    let Some(to) = save_path(&app, format!("{stem}.{}", form.extension()), None).await else {
        return Ok(None);
    };
    write_whole(&to, &bytes)?;
    Ok(Some(to.display().to_string()))
}
