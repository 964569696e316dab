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

/// Plays a sound of the room for this person only (the gallery's Listen), or stops it.
#[tauri::command]
pub async fn preview_sound(tables: State<'_, Tables>, hash: Option<String>) -> Result<(), String> {
    let mixer = tables.audio().clone();
    let Some(hash) = hash else {
        mixer.send(AudioCommand::Layer(sound::plan::Action::Stop {
            layer: PREVIEW.into(),
            fade_ms: 150,
        }));
        return Ok(());
    };
    let cache = tables.cache()?.clone();
    let session = tables.session().await.ok_or("not at a table")?;
    let file = super::director::fetch_verified(&cache, &session, &hash).await?;
    mixer.send(AudioCommand::Play {
        layer: PREVIEW.into(),
        file,
        looped: false,
        volume: 1.0,
        fade_ms: 0,
        start: None,
    });
    Ok(())
}

/// The person's own listening layer: the table's frames never touch it.
const PREVIEW: &str = "preview";
