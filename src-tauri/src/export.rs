//! Saving the transcript: the page renders it (Markdown or a self-contained HTML page, from the
//! pure `protocol::session::export`), the person picks where through the native save dialog, and
//! the backend writes it. `STUDIO_SAVE_DIR` skips the dialog (the end-to-end tests: a GTK dialog
//! is not a page WebDriver can drive).

use std::path::PathBuf;

use ipc::{cmd, Reply};

/// Asks where to save `content` (suggesting `name`) and writes it; `None` when cancelled.
#[tauri::command]
pub async fn save_transcript(
    app: tauri::AppHandle,
    args: cmd::SaveTranscript,
) -> Result<Reply<cmd::SaveTranscript>, String> {
    let cmd::SaveTranscript {
        name,
        html,
        content,
    } = args;
    // Only a plain file name is suggested: never a path the page chose.
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '/' | '\\') && !c.is_control())
        .take(120)
        .collect();
    let name = if name.trim().is_empty() {
        "transcript".to_string()
    } else {
        name
    };
    let path = match std::env::var_os("STUDIO_SAVE_DIR") {
        Some(dir) => Some(PathBuf::from(dir).join(&name)),
        None => pick(&app, &name, html).await,
    };
    let Some(path) = path else {
        return Ok(None);
    };
    tokio::fs::write(&path, content.as_bytes())
        .await
        .map_err(|e| format!("could not save {}: {e}", path.display()))?;
    tracing::info!(bytes = content.len(), "transcript saved");
    Ok(Some(path.display().to_string()))
}

async fn pick(app: &tauri::AppHandle, name: &str, html: bool) -> Option<PathBuf> {
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let (label, ext) = if html {
        ("Web page", "html")
    } else {
        ("Markdown", "md")
    };
    app.dialog()
        .file()
        .set_file_name(name)
        .add_filter(label, &[ext])
        .save_file(move |picked| {
            let _ = tx.send(picked.and_then(|p| p.into_path().ok()));
        });
    rx.await.ok().flatten()
}
