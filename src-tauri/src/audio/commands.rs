//! The sound popover's commands: the person's own levels, and what each layer sounds like.

use ipc::{cmd, Reply};
use tauri::State;

use super::{AudioCommand, Sound};
use crate::seat::Seat;

/// The person's master and layer levels and mutes (remembered by the interface).
#[tauri::command]
pub fn set_sound_levels(
    sound: State<'_, Sound>,
    args: cmd::SetSoundLevels,
) -> Reply<cmd::SetSoundLevels> {
    let cmd::SetSoundLevels { levels } = args;
    sound.mixer().send(AudioCommand::Levels(levels));
}

/// Each layer's level now, for the popover's meters.
#[tauri::command]
pub async fn sound_report(
    sound: State<'_, Sound>,
    args: cmd::GetSoundReport,
) -> Result<Reply<cmd::GetSoundReport>, String> {
    let cmd::GetSoundReport {} = args;
    let mixer = sound.mixer().clone();
    let headless = sound.headless();
    let report = tauri::async_runtime::spawn_blocking(move || mixer.report(headless))
        .await
        .map_err(|e| e.to_string())?;
    Ok(ipc::SoundReport {
        layers: report.layers,
        sounding: report.sounding,
        output_peak: report.output_peak,
    })
}

/// Plays a sound of the room for this person only (the gallery's Listen), or stops it.
#[tauri::command]
pub async fn preview_sound(
    sound: State<'_, Sound>,
    seat: State<'_, Seat>,
    args: cmd::PreviewSound,
) -> Result<Reply<cmd::PreviewSound>, String> {
    let cmd::PreviewSound { hash } = args;
    let mixer = sound.mixer().clone();
    let Some(hash) = hash else {
        mixer.send(AudioCommand::Layer(sound::plan::Action::Stop {
            layer: PREVIEW.into(),
            fade_ms: 150,
        }));
        return Ok(());
    };
    let cache = sound.cache().get()?.clone();
    let session = seat.session().await.ok_or("not at a table")?;
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
