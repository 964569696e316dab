//! Sharing pictures and sounds with the room. The interface hands over paths — from the native
//! open dialog or a drop on the window — never the bytes: the transport hashes the file from
//! disk and PUTs it in chunks, so memory stays flat even for a 128 MiB sound. Progress, Cancel
//! and the outcome (a sentence when it fails) flow back through the table's channel.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ipc::{cmd, PumpBatch, PumpEvent, Reply, Upload as UploadView};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio::sync::Notify;
use transport::media::MediaError;
use transport::session::{UploadOutcome, UploadRequest};

use super::Cache;
use crate::seat::Seat;

/// Uploads in flight, each with its Cancel.
#[derive(Default)]
pub struct Shares {
    next: AtomicU64,
    running: Mutex<HashMap<u64, Arc<Notify>>>,
}

/// The kind of a file the table may take (a picture or a sound), by its extension.
pub fn mime_for(path: &Path) -> Option<&'static str> {
    protocol::media::mime_for(&path.to_string_lossy()).filter(|m| protocol::media::is_media(m))
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
    let _ = channel.send(PumpBatch::of(&PumpEvent::Upload(view)));
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
    let seat = app.state::<Seat>();
    // Reports go to the page that was open when the upload started.
    let Some(channel) = seat.outlet().current() else {
        return;
    };
    let session = seat.session().await;
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
        let cache = app.state::<Cache>();
        let cache = cache.get()?;
        let meta = tokio::fs::symlink_metadata(&path)
            .await
            .map_err(|e| format!("The file could not be read: {e}."))?;
        if meta.file_type().is_symlink() {
            return Err("It is a link: Studio shares only the file itself.".to_string());
        }
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

/// The native open dialog, then [`share_paths`] with what was picked. `STUDIO_PICK_FILES`
/// (paths joined as `PATH` is) answers for the dialog in the end-to-end tests: a GTK dialog
/// cannot be driven over WebDriver.
#[tauri::command]
pub async fn pick_and_share(app: AppHandle, args: cmd::PickAndShare) -> Reply<cmd::PickAndShare> {
    let cmd::PickAndShare {} = args;
    if let Some(files) = std::env::var_os("STUDIO_PICK_FILES") {
        return share_paths(&app, std::env::split_paths(&files).collect());
    }
    use tauri_plugin_dialog::DialogExt;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter(
            "Pictures and sounds",
            &[
                "png", "jpg", "jpeg", "webp", "gif", "svg", "mp3", "ogg", "oga", "opus", "wav",
                "flac", "m4a", "aac",
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
pub fn cancel_upload(
    shares: State<'_, Shares>,
    args: cmd::CancelUpload,
) -> Reply<cmd::CancelUpload> {
    let cmd::CancelUpload { id } = args;
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
        assert_eq!(
            mime_for(Path::new("page.html")),
            None,
            "only pictures and sounds"
        );
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
