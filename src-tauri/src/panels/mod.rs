//! Tier-2 panel pages: mounted from the verified cache under a random token
//! ([`mounts`]), served by the `lwpanel:` scheme ([`scheme`]) from an origin that is right on
//! every platform ([`origin`]), with the host's bootstrap and theme injected ([`page`]).
//!
//! A page runs in an iframe sandboxed to `allow-scripts`: an opaque origin with no network (its
//! policy has no `connect-src`), no IPC (Tauri's globals live in the main frame only) and no
//! reach into the app. It talks to the host by `postMessage`, checked on both sides.

pub mod consent;
pub mod mounts;
pub mod origin;
mod page;
pub mod scheme;
pub mod watchdog;

#[cfg(test)]
mod tests;

pub use consent::{Consent, PanelCode};
pub use mounts::{Mounted, Mounts};
pub use origin::SCHEME;

use tauri::State;

use crate::table_session::Tables;

/// Mounts a tier-2 panel of this viewer's latest manifest: its files fetched and verified into
/// the cache, served under a fresh random token. Returns the page URL and the bridge nonce.
#[tauri::command]
pub async fn mount_panel(
    tables: State<'_, Tables>,
    panel: String,
    theme: Option<serde_json::Value>,
) -> Result<Mounted, String> {
    let theme = theme.unwrap_or(serde_json::Value::Null);
    mounts::mount(&tables, &panel, &theme)
        .await
        .map_err(|e| crate::clean::text(&e))
}

/// The page at `url` went away: its token stops answering.
#[tauri::command]
pub fn unmount_panel(tables: State<'_, Tables>, url: String) {
    let token = url
        .strip_prefix(&origin::platform_origin())
        .map(|rest| rest.trim_matches('/'))
        .unwrap_or_default();
    tables.mounts.unmount(token);
}

/// The person's answer for the room in play (`room` as its welcome names it), or none yet:
/// asked before any page of the room starts. From now on the backend mounts by this answer.
#[tauri::command]
pub async fn panel_code(
    tables: State<'_, Tables>,
    room: String,
) -> Result<Option<PanelCode>, String> {
    let key = tables.room_key(&room).await;
    let code = tables.consent.enter(&key);
    tracing::info!(?code, "this room's panel code");
    Ok(code)
}

/// The person answered (or changed their answer) for the room in play; `None` asks again.
#[tauri::command]
pub async fn set_panel_code(
    tables: State<'_, Tables>,
    room: String,
    code: Option<PanelCode>,
) -> Result<(), String> {
    let key = tables.room_key(&room).await;
    tables.consent.set(&key, code)?;
    if code != Some(PanelCode::Run) {
        // Turned off: running pages end now, not at their next unmount.
        tables.mounts.clear();
    }
    Ok(())
}

/// The answer for a saved table, changed from the connect screen.
#[tauri::command]
pub fn set_saved_panel_code(
    tables: State<'_, Tables>,
    id: String,
    code: Option<PanelCode>,
) -> Result<(), String> {
    tables.consent.set(&id, code)
}
