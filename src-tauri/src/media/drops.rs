//! Files dropped on the window wait for the person. A drop is only a list of paths, and not
//! always the person's: WebKitGTK turns every `file://` entry of a dragged URI list into a path,
//! whoever started the drag — a panel page can start one inside the window. So a drop that
//! started inside the window is refused outright, and any other is checked without reading a
//! byte (a link, a folder, a FIFO or a kind the table does not take is refused with why) and
//! offered to the page as names, sizes and kinds; the paths stay here until the person
//! confirms (`share_dropped`) or declines (`discard_drop`). The page never names a path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use ipc::{cmd, DropOffer, DropRefused, DroppedFile, PumpBatch, PumpEvent, Reply};
use tauri::{AppHandle, Manager, State};

use super::share::{mime_for, share_paths};
use crate::seat::Seat;

/// Drops waiting for the person, and whether a drag started inside the window is under way.
#[derive(Default)]
pub struct Drops {
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Vec<PathBuf>>>,
    inside: AtomicBool,
}

/// What a dropped path is, read without following a link or opening it.
pub fn check(path: &Path) -> Result<DroppedFile, DropRefused> {
    let name = path
        .file_name()
        .map(|n| crate::clean::text(&n.to_string_lossy()))
        .unwrap_or_default();
    let refuse = |why: &str| DropRefused {
        name: name.clone(),
        why: why.to_string(),
    };
    let meta = std::fs::symlink_metadata(path).map_err(|_| refuse("It could not be read."))?;
    if meta.file_type().is_symlink() {
        return Err(refuse("It is a link: Studio shares only the file itself."));
    }
    if meta.is_dir() {
        return Err(refuse("Only files can be shared, not folders."));
    }
    if !meta.is_file() {
        return Err(refuse("It is not a regular file."));
    }
    let mime = mime_for(path).ok_or_else(|| {
        refuse("Studio shares pictures (PNG, JPEG, WebP, GIF, SVG) and sounds (MP3, OGG, WAV, FLAC, M4A, AAC).")
    })?;
    Ok(DroppedFile {
        name,
        size: meta.len(),
        mime: mime.to_string(),
    })
}

impl Drops {
    /// A drag began (`true`) or ended in the window's own web content. Followed on Linux,
    /// where WebKitGTK hands a page's own drag to GTK as the window's; WebView2 and WKWebView
    /// give Tauri's drop handler only files dragged in from the system.
    #[cfg(any(target_os = "linux", test))]
    pub fn drag_inside(&self, on: bool) {
        self.inside.store(on, Ordering::SeqCst);
    }

    /// A drop on the window: the offer to show the person, its paths kept here until they
    /// answer; `None` for a drag that started inside the window (a page may start one).
    pub fn take(&self, paths: Vec<PathBuf>) -> Option<DropOffer> {
        if self.inside.load(Ordering::SeqCst) {
            tracing::warn!(
                files = paths.len(),
                "a drag that started inside the window was dropped on it: refused (a page may start one)"
            );
            return None;
        }
        let mut files = Vec::new();
        let mut refused = Vec::new();
        let mut keep = Vec::new();
        for path in paths {
            match check(&path) {
                Ok(file) => {
                    files.push(file);
                    keep.push(path);
                }
                Err(r) => refused.push(r),
            }
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            // Only the latest drop waits: a new one replaces an unanswered one.
            pending.clear();
            pending.insert(id, keep);
        }
        tracing::info!(
            files = files.len(),
            refused = refused.len(),
            "files dropped: waiting for the person"
        );
        Some(DropOffer { id, files, refused })
    }

    /// The paths of drop `id`, once: what the person confirmed.
    fn confirmed(&self, id: u64) -> Option<Vec<PathBuf>> {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id)
    }
}

/// A drop on the window (the window's drop event calls this): offered to the person at the
/// table, if there is one.
pub fn offer(app: &AppHandle, paths: Vec<PathBuf>) {
    let Some(channel) = app.state::<Seat>().outlet().current() else {
        return;
    };
    if let Some(offer) = app.state::<Drops>().take(paths) {
        let _ = channel.send(PumpBatch::of(&PumpEvent::DropOffer(offer)));
    }
}

/// The person confirmed the drop: its files are shared (each opened without following a link).
#[tauri::command]
pub fn share_dropped(
    app: AppHandle,
    drops: State<'_, Drops>,
    args: cmd::ShareDropped,
) -> Result<Reply<cmd::ShareDropped>, String> {
    let cmd::ShareDropped { id } = args;
    let paths = drops
        .confirmed(id)
        .ok_or("That drop is no longer waiting.")?;
    Ok(share_paths(&app, paths))
}

/// The person declined the drop: nothing of it is read.
#[tauri::command]
pub fn discard_drop(drops: State<'_, Drops>, args: cmd::DiscardDrop) -> Reply<cmd::DiscardDrop> {
    let cmd::DiscardDrop { id } = args;
    drops.confirmed(id);
}

/// Follows drags that start in the window's own web content (GTK's `drag-begin`/`drag-end` on
/// the web view, which WebKit uses as the drag's source).
pub fn follow_inner_drags(app: &tauri::App) {
    #[cfg(target_os = "linux")]
    if let Some(window) = app.get_webview_window("main") {
        let handle = app.handle().clone();
        let _ = window.with_webview(move |pw| {
            use gtk::prelude::WidgetExt;
            let view = pw.inner();
            let begin = handle.clone();
            view.connect_drag_begin(move |_, _| begin.state::<Drops>().drag_inside(true));
            let end = handle.clone();
            view.connect_drag_end(move |_, _| end.state::<Drops>().drag_inside(false));
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = app;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_is_checked_without_following_or_opening() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("token.png");
        std::fs::write(&png, b"png").unwrap();
        let ok = check(&png).unwrap();
        assert_eq!(
            (ok.name.as_str(), ok.size, ok.mime.as_str()),
            ("token.png", 3, "image/png")
        );
        assert!(check(&dir.path().join("notes.txt")).is_err());
        std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
        assert!(check(&dir.path().join("notes.txt"))
            .unwrap_err()
            .why
            .contains("pictures"));
        assert!(check(dir.path()).unwrap_err().why.contains("folders"));
        #[cfg(unix)]
        {
            // Another user's link named like a picture, pointing at a private file.
            let secret = dir.path().join("id_ed25519");
            std::fs::write(&secret, b"KEY").unwrap();
            let link = dir.path().join("a.png");
            std::os::unix::fs::symlink(&secret, &link).unwrap();
            assert!(check(&link).unwrap_err().why.contains("link"));
            let fifo = dir.path().join("pipe.png");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo with a valid C path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            assert!(check(&fifo).unwrap_err().why.contains("regular"));
        }
    }

    #[test]
    fn a_drag_begun_inside_the_window_is_refused_and_one_from_outside_waits() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("token.png");
        std::fs::write(&png, b"png").unwrap();
        let drops = Drops::default();
        // A panel page's drag (GTK's drag-begin on the web view) dropped on the window.
        drops.drag_inside(true);
        assert!(
            drops.take(vec![png.clone()]).is_none(),
            "an inner drag was offered"
        );
        assert!(
            drops.pending.lock().unwrap().is_empty(),
            "its paths were kept"
        );
        drops.drag_inside(false);
        // The person's drag from the file manager: offered, kept until they answer, once.
        let offer = drops
            .take(vec![png.clone()])
            .expect("an outside drop is offered");
        assert_eq!(offer.files.len(), 1);
        assert_eq!(drops.confirmed(offer.id), Some(vec![png]));
        assert_eq!(drops.confirmed(offer.id), None);
    }
}
