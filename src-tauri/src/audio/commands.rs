//! The sound popover's commands: the person's own levels, and what each layer sounds like.

use tauri::State;

use super::{AudioCommand, Levels, Report};
use crate::table_session::Tables;

/// The person's master and layer levels and mutes (remembered by the interface).
#[tauri::command]
pub fn set_sound_levels(tables: State<'_, Tables>, levels: Levels) {
    tables.audio().send(AudioCommand::Levels(levels));
}

/// Each layer's level now, for the popover's meters.
#[tauri::command]
pub async fn sound_report(tables: State<'_, Tables>) -> Result<Report, String> {
    let mixer = tables.audio().clone();
    let headless = tables.audio_headless();
    tauri::async_runtime::spawn_blocking(move || mixer.report(headless))
        .await
        .map_err(|e| e.to_string())
}
