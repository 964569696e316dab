//! The keeper's clipboard: a minted key, or a whole invite (ticket + key) in one paste.
//!
//! Copies go through the official clipboard plugin's Rust side, so the page never gets a
//! clipboard permission of its own (and a panel frame could not use one anyway).

use ipc::{cmd, Reply};
use tauri::State;
use tauri_plugin_clipboard_manager::ClipboardExt;

use crate::seat::Seat;

/// Puts `text` (a minted key) on the system clipboard.
#[tauri::command]
pub fn copy_text(
    app: tauri::AppHandle,
    args: cmd::CopyText,
) -> Result<Reply<cmd::CopyText>, String> {
    let cmd::CopyText { text } = args;
    app.clipboard()
        .write_text(text)
        .map_err(|e| format!("the clipboard refused the copy: {e}"))?;
    // That it happened, never what: the text is a key.
    tracing::info!("copied a minted key to the clipboard");
    Ok(())
}

/// Puts an invite for the current table on the clipboard: its ticket and `key`, in the block
/// the connect screen reads back when pasted.
#[tauri::command]
pub async fn copy_invite(
    app: tauri::AppHandle,
    seat: State<'_, Seat>,
    args: cmd::CopyInvite,
) -> Result<Reply<cmd::CopyInvite>, String> {
    let cmd::CopyInvite { room, key } = args;
    let ticket = seat
        .ticket()
        .await
        .ok_or("not at a table: there is no ticket to share")?;
    let block = protocol::keeper::invite::Invite { room, ticket, key }.to_block();
    app.clipboard()
        .write_text(block)
        .map_err(|e| format!("the clipboard refused the copy: {e}"))?;
    // That it happened, never what: the block holds the key.
    tracing::info!("copied an invite to the clipboard");
    Ok(())
}
