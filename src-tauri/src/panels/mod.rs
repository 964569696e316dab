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
mod web_process;

#[cfg(test)]
mod tests;

pub use consent::{Consent, PanelCode};
pub use mounts::Mounts;
pub use origin::SCHEME;

use std::sync::{Arc, Mutex};

use ipc::{cmd, Reply};
use protocol::frame::UiManifestPanel;
use protocol::ServerFrame;
use tauri::State;
use transport::session::SessionEvent;

use crate::media::Cache;
use crate::seat::{Follower, Joining, Kind, Later, Listener, Seat};

/// This viewer's panel list, as last received.
pub type Manifest = Arc<Mutex<Vec<UiManifestPanel>>>;

/// The panels of the table in play: the backend's own copy of the manifest (what may be
/// mounted), the live mounts, and the person's answers on each room's panel code.
#[derive(Clone)]
pub struct Panels {
    manifest: Manifest,
    pub mounts: Arc<Mounts>,
    pub consent: Arc<Consent>,
    pub cache: Cache,
}

impl Panels {
    pub fn new(dir: std::path::PathBuf, cache: Cache) -> Self {
        Panels {
            manifest: Manifest::default(),
            mounts: Default::default(),
            consent: Arc::new(Consent::new(dir)),
            cache,
        }
    }

    /// The panel `id` of the latest manifest, if this viewer has it.
    pub fn panel(&self, id: &str) -> Option<UiManifestPanel> {
        self.manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|p| p.id == id)
            .cloned()
    }

    /// The last table's pages are gone, so are their tokens; nothing mounts until the new
    /// room's answer is asked for.
    fn forget_table(&self) {
        self.manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.mounts.clear();
        self.consent.leave();
    }
}

/// The room in play as panel-code answers name it: a saved table's id (ticket + room), or the
/// demo table, or the bench.
pub async fn room_key(seat: &Seat, room: &str) -> String {
    match seat.kind().await {
        Some(Kind::PackBench) => consent::BENCH_ROOM.to_string(),
        Some(Kind::Demo) => consent::DEMO_ROOM.to_string(),
        _ => crate::seat::table_id(seat.ticket().await.as_deref().unwrap_or_default(), room),
    }
}

impl Follower for Panels {
    fn joined(&self, _: &Joining<'_>) -> Option<Box<dyn Listener>> {
        self.forget_table();
        Some(Box::new(self.clone()))
    }

    fn left(&self) -> Later<'_> {
        self.forget_table();
        Box::pin(async {})
    }
}

impl Listener for Panels {
    /// A new manifest replaces the backend's copy and retires the mounts it changed or dropped.
    fn event(&mut self, event: &SessionEvent, current: bool) {
        if let (SessionEvent::Frame(ServerFrame::UiManifest(m), _), true) = (event, current) {
            *self.manifest.lock().unwrap_or_else(|e| e.into_inner()) = m.panels.clone();
            self.mounts.keep_only(&m.panels);
        }
    }
}

/// Mounts a tier-2 panel of this viewer's latest manifest: its files fetched and verified into
/// the cache, served under a fresh random token. Returns the page URL and the bridge nonce.
#[tauri::command]
pub async fn mount_panel(
    panels: State<'_, Panels>,
    seat: State<'_, Seat>,
    args: cmd::MountPanel,
) -> Result<Reply<cmd::MountPanel>, String> {
    let cmd::MountPanel { panel, theme } = args;
    let theme = theme.unwrap_or(serde_json::Value::Null);
    mounts::mount(&panels, &seat, &panel, &theme)
        .await
        .map_err(|e| crate::clean::text(&e))
}

/// The page at `url` went away: its token stops answering.
#[tauri::command]
pub fn unmount_panel(
    panels: State<'_, Panels>,
    args: cmd::UnmountPanel,
) -> Reply<cmd::UnmountPanel> {
    let cmd::UnmountPanel { url } = args;
    let token = url
        .strip_prefix(&origin::platform_origin())
        .map(|rest| rest.trim_matches('/'))
        .unwrap_or_default();
    panels.mounts.unmount(token);
}

/// The person's answer for the room in play (`room` as its welcome names it), or none yet:
/// asked before any page of the room starts. From now on the backend mounts by this answer.
#[tauri::command]
pub async fn panel_code(
    panels: State<'_, Panels>,
    seat: State<'_, Seat>,
    args: cmd::GetPanelCode,
) -> Result<Reply<cmd::GetPanelCode>, String> {
    let cmd::GetPanelCode { room } = args;
    let key = room_key(&seat, &room).await;
    let code = panels.consent.enter(&key);
    tracing::info!(?code, "this room's panel code");
    Ok(code)
}

/// The person answered (or changed their answer) for the room in play; `None` asks again.
#[tauri::command]
pub async fn set_panel_code(
    panels: State<'_, Panels>,
    seat: State<'_, Seat>,
    args: cmd::SetPanelCode,
) -> Result<Reply<cmd::SetPanelCode>, String> {
    let cmd::SetPanelCode { room, code } = args;
    let key = room_key(&seat, &room).await;
    panels.consent.set(&key, code)?;
    if code != Some(PanelCode::Run) {
        // Turned off: running pages end now, not at their next unmount.
        panels.mounts.clear();
    }
    Ok(())
}

/// The answer for a saved table, changed from the connect screen.
#[tauri::command]
pub fn set_saved_panel_code(
    panels: State<'_, Panels>,
    args: cmd::SetSavedPanelCode,
) -> Result<Reply<cmd::SetSavedPanelCode>, String> {
    let cmd::SetSavedPanelCode { id, code } = args;
    panels.consent.set(&id, code)
}
