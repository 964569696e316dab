//! The engine's own verdict on the bench's pack: its packer (`--pack <src> --out <file>
//! --json`) run on the folder beside our lint, and the `.lwpack` it builds. The engine is the
//! one source of truth for the built format: Studio never zips a pack itself. The engine is
//! the one hosting uses (chosen before, or found on PATH).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ipc::{cmd, PackBuilt, PackEngineCheck, Problem, Reply};
use pack::engine_verdict::{self, EngineVerdict};

/// A packer that has not answered by then is stopped (it reads a folder; seconds at most).
const PACK_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the packer: its verdict, the engine as said to the person, and the time it took.
async fn packer(dir: &Path, out: &Path) -> Result<(EngineVerdict, String, u64), String> {
    let (engine, _) = crate::hosting::engine_in_use()
        .ok_or("no engine found: choose one under Host a table (connect screen) first")?;
    let version = crate::hosting::probe_engine(&engine).await?;
    let (program, mut args) = engine.command();
    args.extend([
        "--pack".into(),
        dir.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--json".into(),
    ]);
    // Its own data folder: a check never touches a hosted table's packs.
    let data = tempfile::tempdir().map_err(|e| format!("a folder for the packer: {e}"))?;
    let mut command = tokio::process::Command::new(&program);
    command
        .args(&args)
        .current_dir(engine.workdir().unwrap_or(data.path()))
        .env("TRPG_DATA_DIR", data.path())
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let started = Instant::now();
    let run = tokio::time::timeout(PACK_TIMEOUT, command.output())
        .await
        .map_err(|_| {
            format!(
                "the engine's packer did not finish within {} s",
                PACK_TIMEOUT.as_secs()
            )
        })?
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let ms = started.elapsed().as_millis() as u64;
    let verdict = engine_verdict::read(
        &String::from_utf8_lossy(&run.stdout),
        &String::from_utf8_lossy(&run.stderr),
        run.status.code(),
    )
    .map_err(|e| {
        // The whole output goes to the log (a pack's text, never a key); the window gets the why.
        tracing::warn!("{e}");
        format!(
            "the engine's packer gave no verdict ({}): see the log",
            e.reason
        )
    })?;
    let label = format!("{} {version}", engine.path().display());
    Ok((verdict, label, ms))
}

/// The engine's refusal as a problem, where it says (crashes keep the exception's line).
fn engine_problem(verdict: &EngineVerdict) -> Option<Problem> {
    match verdict {
        EngineVerdict::Built { .. } => None,
        EngineVerdict::Refused {
            error,
            file,
            line,
            column,
        } => Some(Problem {
            file: file.clone().unwrap_or_default(),
            line: line.unwrap_or(0),
            column: column.unwrap_or(0),
            message: error.clone(),
            hint: String::new(),
        }),
        EngineVerdict::Crashed { exception, .. } => Some(Problem {
            file: String::new(),
            line: 0,
            column: 0,
            message: format!("the packer stopped with {exception}"),
            hint: "a file the pack declares is missing or unreadable".into(),
        }),
    }
}

/// Our lint's problems on `dir` (empty: it loads).
async fn ours(dir: PathBuf) -> Result<Vec<Problem>, String> {
    let loaded = tauri::async_runtime::spawn_blocking(move || pack::load(&dir))
        .await
        .map_err(|e| e.to_string())?;
    Ok(match loaded {
        Ok(_) => Vec::new(),
        Err(list) => list.into_iter().map(super::problem).collect(),
    })
}

/// The engine's packer and our lint on the same folder.
#[tauri::command]
pub async fn check_pack_on_engine(
    args: cmd::CheckPackOnEngine,
) -> Result<Reply<cmd::CheckPackOnEngine>, String> {
    let cmd::CheckPackOnEngine { dir } = args;
    let dir = PathBuf::from(dir);
    let out = tempfile::tempdir().map_err(|e| format!("a folder for the check: {e}"))?;
    let (verdict, engine, ms) = packer(&dir, &out.path().join("check.lwpack"))
        .await
        .map_err(|e| crate::clean::text(&e))?;
    let (id, version) = match &verdict {
        EngineVerdict::Built { id, version, .. } => (Some(id.clone()), Some(version.clone())),
        _ => (None, None),
    };
    let check = PackEngineCheck {
        engine,
        engine_accepts: verdict.accepted(),
        engine_problem: engine_problem(&verdict),
        id,
        version,
        ours: ours(dir).await?,
        ms,
    };
    tracing::info!(
        engine_accepts = check.engine_accepts,
        ours_accepts = check.ours.is_empty(),
        ms,
        "pack bench: checked the pack with the engine"
    );
    Ok(check)
}

/// Where a built pack or an exported card goes: `STUDIO_SAVE_DIR` (the tests: a GTK dialog
/// cannot be driven over WebDriver), else the desktop's save dialog.
pub(super) async fn save_path(
    app: &tauri::AppHandle,
    name: String,
    filter: Option<(&str, &[&str])>,
) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("STUDIO_SAVE_DIR") {
        return Some(PathBuf::from(dir).join(name));
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut dialog = app.dialog().file().set_file_name(&name);
    if let Some((label, extensions)) = filter {
        dialog = dialog.add_filter(label, extensions);
    }
    dialog.save_file(move |picked| {
        let _ = tx.send(picked.and_then(|p| p.into_path().ok()));
    });
    rx.await.ok().flatten()
}

/// Builds the pack with the engine's packer into a file the person chose.
#[tauri::command]
pub async fn build_pack_on_engine(
    app: tauri::AppHandle,
    args: cmd::BuildPackOnEngine,
) -> Result<Reply<cmd::BuildPackOnEngine>, String> {
    let cmd::BuildPackOnEngine { dir } = args;
    let dir = PathBuf::from(dir);
    let name = dir
        .file_name()
        .map(|n| format!("{}.lwpack", n.to_string_lossy()))
        .unwrap_or_else(|| "pack.lwpack".into());
    let Some(path) = save_path(&app, name, Some(("Loreweaver pack", &["lwpack"]))).await else {
        return Ok(None);
    };
    let (verdict, _, ms) = packer(&dir, &path)
        .await
        .map_err(|e| crate::clean::text(&e))?;
    match verdict {
        EngineVerdict::Built {
            id,
            version,
            sha256,
            ..
        } => {
            let bytes = std::fs::metadata(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .len();
            tracing::info!(ms, bytes, "pack bench: built the pack with the engine");
            Ok(Some(PackBuilt {
                path: path.display().to_string(),
                id,
                version,
                sha256,
                bytes,
                ms,
            }))
        }
        refused => {
            let p = engine_problem(&refused).unwrap_or_default();
            let at = if p.file.is_empty() {
                String::new()
            } else if p.line > 0 {
                format!(" ({}:{})", p.file, p.line)
            } else {
                format!(" ({})", p.file)
            };
            Err(crate::clean::text(&format!(
                "the engine refused to build the pack{at}: {}",
                p.message
            )))
        }
    }
}
