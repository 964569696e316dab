//! Turns the table's `audio_control` / `audio_state` frames into mixer commands, fetching each
//! sound through the verified cache first (the server never plays audio; Studio does).

use protocol::frame::{AudioAction, AudioControl, AudioState};
use transport::media_cache::MediaCache;
use transport::session::SessionHandle;

use crate::audio_mixer::{AudioCommand, AudioMixer};

#[derive(Clone)]
pub struct AudioDirector {
    pub cache: MediaCache,
    pub session: SessionHandle,
    pub mixer: AudioMixer,
}

impl AudioDirector {
    /// One live `audio_control`.
    pub async fn control(&self, c: AudioControl) {
        let layer = c.layer.as_str().to_string();
        let volume = c.volume.unwrap_or(1.0) as f32;
        let command = match c.action {
            AudioAction::Play => {
                let Some(hash) = c.hash.as_deref() else {
                    return;
                };
                match self.fetch(hash).await {
                    Some(file) => AudioCommand::Play {
                        layer,
                        file,
                        // Music and ambience loop unless told otherwise; effects play once.
                        looped: c.r#loop.unwrap_or(c.layer.as_str() != "sfx"),
                        volume,
                    },
                    None => return,
                }
            }
            AudioAction::Stop => AudioCommand::Stop { layer },
            AudioAction::Pause => AudioCommand::Pause { layer },
            AudioAction::Resume => AudioCommand::Resume { layer },
            AudioAction::Volume => AudioCommand::Volume { layer, volume },
            _ => return,
        };
        self.mixer.send(command);
    }

    /// The persisted state on join: resume what is playing (from the start of the file).
    pub async fn state(&self, s: AudioState) {
        for l in s.layers {
            let layer = l.layer.as_str().to_string();
            match (l.playing, l.hash.as_deref()) {
                (true, Some(hash)) => {
                    if let Some(file) = self.fetch(hash).await {
                        self.mixer.send(AudioCommand::Play {
                            layer,
                            file,
                            looped: l.r#loop.unwrap_or(true),
                            volume: l.volume.unwrap_or(1.0) as f32,
                        });
                    }
                }
                _ => self.mixer.send(AudioCommand::Stop { layer }),
            }
        }
    }

    /// The sound, fetched and verified if need be, opened from the trusted file.
    async fn fetch(&self, hash: &str) -> Option<std::fs::File> {
        if self.cache.cached(hash, None).await.is_none() {
            let channel = self.session.media()?;
            if let Err(e) = self.cache.get(&channel, hash, None).await {
                tracing::warn!("a sound could not be fetched: {e}");
                return None;
            }
        }
        self.cache
            .open_verified(hash, None)
            .await
            .map(|(file, _)| file)
    }
}
