//! Sharing pictures and sounds with the room. The interface hands over paths — from the native
//! open dialog or a drop on the window — never the bytes: the transport hashes the file from
//! disk and PUTs it in chunks, so memory stays flat even for a 128 MiB sound. Progress, Cancel
//! and the outcome (a sentence when it fails) flow back through the table's channel.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio::sync::Notify;
use transport::media::MediaError;
use transport::session::{UploadOutcome, UploadRequest};

use crate::table_session::{PumpBatch, PumpEvent, Tables};

/// One upload as the input area shows it.
#[derive(Debug, Clone, Serialize)]
pub struct UploadView {
    pub id: u64,
    pub name: String,
    pub sent: u64,
    pub total: u64,
    /// `Some(hash)` once the room has the bytes.
    pub done: Option<String>,
    /// Why it failed, as a sentence.
    pub error: Option<String>,
    pub cancelled: bool,
}

/// Uploads in flight, each with its Cancel.
#[derive(Default)]
pub struct Shares {
    next: AtomicU64,
    running: Mutex<HashMap<u64, Arc<Notify>>>,
}

/// The kinds the table takes (protocol 2.3), by file extension.
pub fn mime_for(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "mp3" => "audio/mpeg",
        "ogg" | "oga" | "opus" => "audio/ogg",
        "wav" => "audio/wav",
        "flac" => "audio/flac",
        "m4a" | "mp4" => "audio/mp4",
        "aac" => "audio/aac",
        _ => return None,
    })
}

/// What went wrong, as a sentence next to the upload.
pub fn sentence(e: &MediaError) -> String {
    match e {
        MediaError::Refused { code, message } => protocol::media::upload_refusal(code, message)
            .unwrap_or_else(|| {
                if message.is_empty() {
                    format!("The table refused it ({code}).")
                } else {
                    format!("The table refused it: {message}")
                }
            }),
        MediaError::TooLarge {
            kind, limit_mib, ..
        } => format!("Too large: the table takes {kind} up to {limit_mib} MiB."),
        MediaError::UnsupportedMime { .. } => {
            "Studio shares pictures (PNG, JPEG, WebP, GIF, SVG) and sounds (MP3, OGG, WAV, FLAC, M4A, AAC).".into()
        }
        MediaError::Offline => "Not connected: share it again once the table is back.".into(),
        other => {
            let t = other.to_string();
            let mut c = t.chars();
            let first: String = c.next().map(|f| f.to_uppercase().collect()).unwrap_or_default();
            format!("{first}{}.", c.as_str().trim_end_matches('.'))
        }
    }
}

fn report(channel: &Channel<PumpBatch>, view: &UploadView) {
    // The error may quote the server; the name is the file's own: both are only text.
    let mut view = view.clone();
    view.name = crate::clean::text(&view.name);
    view.error = view.error.map(|e| crate::clean::text(&e));
    let _ = channel.send(vec![PumpEvent::Upload(view)]);
}

/// Starts sharing each path; returns their upload ids.
pub fn share_paths(app: &AppHandle, paths: Vec<PathBuf>) -> Vec<u64> {
    let shares = app.state::<Shares>();
    paths
        .into_iter()
        .map(|path| {
            let id = shares.next.fetch_add(1, Ordering::Relaxed) + 1;
            let cancel = Arc::new(Notify::new());
            shares
                .running
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id, cancel.clone());
            let app = app.clone();
            tauri::async_runtime::spawn(async move {
                share(&app, id, path, cancel).await;
                app.state::<Shares>()
                    .running
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
            });
            id
        })
        .collect()
}

async fn share(app: &AppHandle, id: u64, path: PathBuf, cancel: Arc<Notify>) {
    let tables = app.state::<Tables>();
    let (session, channel) = tables.upload_context().await;
    let Some(channel) = channel else { return };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let total = tokio::fs::metadata(&path)
        .await
        .map(|m| m.len())
        .unwrap_or(0);
    let mut view = UploadView {
        id,
        name: name.clone(),
        sent: 0,
        total,
        done: None,
        error: None,
        cancelled: false,
    };
    report(&channel, &view);
    let work = async {
        let session = session.ok_or_else(|| sentence(&MediaError::Offline))?;
        let cache = tables.cache()?;
        let meta = tokio::fs::metadata(&path)
            .await
            .map_err(|e| format!("The file could not be read: {e}."))?;
        if !meta.is_file() {
            return Err("Only files can be shared, not folders.".to_string());
        }
        let mime = mime_for(&path).ok_or_else(|| {
            sentence(&MediaError::UnsupportedMime {
                mime: String::new(),
            })
        })?;
        // The table's own limits, checked before a byte is hashed.
        transport::media::check_upload(&name, mime, meta.len()).map_err(|e| sentence(&e))?;
        let request = UploadRequest {
            path: path.clone(),
            name: name.clone(),
            mime: mime.to_string(),
        };
        let mut last_pct = 0;
        let progress_view = view.clone();
        let outcome = session
            .upload(&request, |sent, total| {
                // At most one report per percent: a 128 MiB file is not 2,000 IPC calls.
                let pct = (sent * 100).checked_div(total).unwrap_or(100);
                if pct != last_pct {
                    last_pct = pct;
                    let mut v = progress_view.clone();
                    v.sent = sent;
                    v.total = total;
                    report(&channel, &v);
                }
            })
            .await
            .map_err(|e| sentence(&e))?;
        let hash = match outcome {
            UploadOutcome::Stored { hash } | UploadOutcome::Existing { hash } => hash,
        };
        // Our own bytes: a verified private copy, so the room's broadcast shows without a GET.
        let _ = cache.insert_file(&path, &hash).await;
        Ok(hash)
    };
    match tokio::select! {
        r = work => Some(r),
        _ = cancel.notified() => None,
    } {
        Some(Ok(hash)) => {
            view.sent = view.total;
            view.done = Some(hash);
        }
        Some(Err(e)) => view.error = Some(e),
        None => {
            view.cancelled = true;
            view.error = Some("Cancelled.".into());
        }
    }
    report(&channel, &view);
}

/// Shares files by path (the drop handler calls the same).
#[tauri::command]
pub fn share_files(app: AppHandle, paths: Vec<String>) -> Vec<u64> {
    share_paths(&app, paths.into_iter().map(PathBuf::from).collect())
}

/// The native open dialog, then [`share_files`] with what was picked.
#[tauri::command]
pub async fn pick_and_share(app: AppHandle) -> Vec<u64> {
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter(
            "Pictures and sounds",
            &[
                "png", "jpg", "jpeg", "webp", "gif", "svg", "mp3", "ogg", "oga", "opus", "wav",
                "flac", "m4a", "mp4", "aac",
            ],
        )
        .pick_files(move |picked| {
            let paths: Vec<PathBuf> = picked
                .unwrap_or_default()
                .into_iter()
                .filter_map(|p| p.into_path().ok())
                .collect();
            let _ = tx.send(paths);
        });
    let paths = rx.await.unwrap_or_default();
    share_paths(&app, paths)
}

/// Stops an upload in flight (the table never gets a partial file: the PUT is dropped).
#[tauri::command]
pub fn cancel_upload(shares: State<'_, Shares>, id: u64) {
    if let Some(n) = shares
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
    {
        n.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension_and_refusals_as_sentences() {
        assert_eq!(mime_for(Path::new("a/Sea.WAV")), Some("audio/wav"));
        assert_eq!(mime_for(Path::new("map.svg")), Some("image/svg+xml"));
        assert_eq!(mime_for(Path::new("notes.txt")), None);
        let svg = sentence(&MediaError::Refused {
            code: "media_bad_svg".into(),
            message: "svg contains script".into(),
        });
        assert!(svg.contains("scripts"), "{svg}");
        let unknown = sentence(&MediaError::Refused {
            code: "weird".into(),
            message: String::new(),
        });
        assert_eq!(unknown, "The table refused it (weird).");
        assert!(sentence(&MediaError::Stalled(30)).ends_with('.'));
    }
}
