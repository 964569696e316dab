//! The keeper's clipboard: a minted key, or a whole invite (ticket + key) in one paste.
//!
//! Copies go through the official clipboard plugin's Rust side, so the page never gets a
//! clipboard permission of its own (and a panel frame could not use one anyway). A key does not
//! stay there: [`CLEAR_AFTER`] later the clipboard is cleared if it still holds what Studio put
//! there (anything the person copied since is left alone).

use std::time::Duration;

use ipc::{cmd, Reply};
use sha2::{Digest as _, Sha256};
use tauri::{AppHandle, State};
use tauri_plugin_clipboard_manager::ClipboardExt;

use crate::seat::Seat;

/// How long a copied key stays on the clipboard.
pub const CLEAR_AFTER: Duration = Duration::from_secs(ipc::CLIPBOARD_CLEAR_SECS);

/// [`CLEAR_AFTER`], or what `STUDIO_CLIPBOARD_CLEAR_SECS` says (the e2e tests, which cannot wait
/// a minute per copy).
fn clear_after() -> Duration {
    std::env::var("STUDIO_CLIPBOARD_CLEAR_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs)
        .unwrap_or(CLEAR_AFTER)
}

/// What is remembered of a copy until it is cleared: its digest, never the text.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Copied([u8; 32]);

impl Copied {
    pub fn of(text: &str) -> Self {
        Copied(Sha256::digest(text.as_bytes()).into())
    }

    /// Whether the clipboard, holding `now` (`None`: no text, or it could not be read), should
    /// be cleared: only while it still holds exactly what we copied.
    pub fn should_clear(&self, now: Option<&str>) -> bool {
        now.is_some_and(|t| Copied::of(t) == *self)
    }
}

/// Puts `text` on the clipboard; a `secret` one is cleared after [`CLEAR_AFTER`] if still ours.
fn copy(app: &AppHandle, text: String, secret: bool) -> Result<(), String> {
    let copied = secret.then(|| Copied::of(&text));
    app.clipboard()
        .write_text(text)
        .map_err(|e| format!("the clipboard refused the copy: {e}"))?;
    if let Some(copied) = copied {
        let app = app.clone();
        tauri::async_runtime::spawn(async move {
            tokio::time::sleep(clear_after()).await;
            // Off the async workers: reading the clipboard may block on its owner.
            let _ = tauri::async_runtime::spawn_blocking(move || {
                let now = app.clipboard().read_text().ok();
                if copied.should_clear(now.as_deref()) {
                    match app.clipboard().clear() {
                        Ok(()) => tracing::info!("cleared a copied key from the clipboard"),
                        Err(e) => tracing::warn!("the clipboard could not be cleared: {e}"),
                    }
                } else {
                    tracing::info!("a copied key's time was up, but the clipboard holds something else now: left as it is");
                }
            })
            .await;
        });
    }
    Ok(())
}

/// Puts `text` on the system clipboard: a minted key (`secret`, cleared after a while) or the
/// table's ticket.
#[tauri::command]
pub fn copy_text(app: AppHandle, args: cmd::CopyText) -> Result<Reply<cmd::CopyText>, String> {
    let cmd::CopyText { text, secret } = args;
    copy(&app, text, secret)?;
    // That it happened, never what: the text may be a key.
    if secret {
        tracing::info!("copied a minted key to the clipboard");
    } else {
        tracing::info!("copied text to the clipboard");
    }
    Ok(())
}

/// Puts an invite for the current table on the clipboard: its ticket and `key`, in the block
/// the connect screen reads back when pasted; cleared after a while like a key.
#[tauri::command]
pub async fn copy_invite(
    app: AppHandle,
    seat: State<'_, Seat>,
    args: cmd::CopyInvite,
) -> Result<Reply<cmd::CopyInvite>, String> {
    let cmd::CopyInvite { room, key } = args;
    let ticket = seat
        .ticket()
        .await
        .ok_or("not at a table: there is no ticket to share")?;
    let block = protocol::keeper::invite::Invite { room, ticket, key }
        .to_block()
        .ok_or("this ticket or key cannot be written as an invite")?;
    copy(&app, block, true)?;
    // That it happened, never what: the block holds the key.
    tracing::info!("copied an invite to the clipboard");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #28 item 9: the clipboard is cleared only while it still holds our copy.
    #[test]
    fn a_copy_is_cleared_only_while_the_clipboard_still_holds_it() {
        assert_eq!(CLEAR_AFTER, Duration::from_secs(60));
        let ours = Copied::of("lw-k-secret");
        assert!(ours.should_clear(Some("lw-k-secret")));
        // The person copied something else since, or the clipboard is empty / unreadable.
        for other in [Some("something else"), Some("lw-k-secret "), Some(""), None] {
            assert!(!ours.should_clear(other), "{other:?}");
        }
        // Nothing but a digest is kept.
        assert_eq!(std::mem::size_of::<Copied>(), 32);
    }
}
