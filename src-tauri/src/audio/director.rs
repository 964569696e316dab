//! Turns the table's `audio_control` / `audio_state` frames into mixer commands. What a frame
//! means is `sound::plan`'s call; this fetches each sound through the verified cache first and
//! keeps every layer in arrival order: a later frame for a layer retires any fetch still in
//! flight for it, so a slow Play can never land after the Stop that followed it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use protocol::frame::{AudioControl, AudioState};
use sound::order::Latest;
use sound::plan::{Action, Plan, Start};
use transport::media_cache::MediaCache;
use transport::session::SessionHandle;

use super::{AudioCommand, AudioMixer};

#[derive(Clone)]
pub struct AudioDirector {
    pub cache: MediaCache,
    pub session: SessionHandle,
    pub mixer: AudioMixer,
    plan: Arc<Mutex<Plan>>,
    /// Per layer, the latest frame: a fetch finishing for an older one is dropped.
    latest: Arc<Mutex<Latest>>,
}

fn now_secs() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl AudioDirector {
    pub fn new(cache: MediaCache, session: SessionHandle, mixer: AudioMixer) -> Self {
        AudioDirector {
            cache,
            session,
            mixer,
            plan: Default::default(),
            latest: Default::default(),
        }
    }

    /// One live `audio_control`, in arrival order (call it from the frame pump, not a task).
    pub fn control(&self, c: &AudioControl) {
        let actions = self
            .plan
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .control(c, now_secs());
        self.run(actions);
    }

    /// An `audio_state`, in arrival order.
    pub fn state(&self, s: &AudioState) {
        let actions = self
            .plan
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .state(s, now_secs());
        self.run(actions);
    }

    fn run(&self, actions: Vec<Action>) {
        for action in actions {
            let layer = action.layer().to_string();
            let ticket = self
                .latest
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .issue(&layer);
            let command = match action {
                Action::Play {
                    layer,
                    hash,
                    looped,
                    volume,
                    fade_ms,
                    start,
                } => {
                    let start = match start {
                        Start::Beginning => None,
                        Start::Elapsed(d) => Some((d, Instant::now())),
                    };
                    let me = self.clone();
                    tauri::async_runtime::spawn(async move {
                        let Some(file) = me.fetch(&hash).await else {
                            return;
                        };
                        // Checked and sent under the lock: no later frame can slip in between.
                        let latest = me.latest.lock().unwrap_or_else(|e| e.into_inner());
                        if latest.is_latest(&ticket) {
                            me.mixer.send(AudioCommand::Play {
                                layer,
                                file,
                                looped,
                                volume,
                                fade_ms,
                                start,
                            });
                        }
                    });
                    continue;
                }
                Action::Stop { layer, fade_ms } => AudioCommand::Stop { layer, fade_ms },
                Action::Pause { layer, fade_ms } => AudioCommand::Pause { layer, fade_ms },
                Action::Resume { layer, fade_ms } => AudioCommand::Resume { layer, fade_ms },
                Action::Volume {
                    layer,
                    volume,
                    fade_ms,
                } => AudioCommand::Volume {
                    layer,
                    volume,
                    fade_ms,
                },
            };
            let _guard = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            self.mixer.send(command);
        }
    }

    async fn fetch(&self, hash: &str) -> Option<std::fs::File> {
        fetch_verified(&self.cache, &self.session, hash)
            .await
            .map_err(|e| tracing::warn!("a sound could not be fetched: {e}"))
            .ok()
    }
}

/// The sound, fetched and verified if need be, opened from the trusted file.
pub async fn fetch_verified(
    cache: &MediaCache,
    session: &SessionHandle,
    hash: &str,
) -> Result<std::fs::File, String> {
    if cache.cached(hash, None).await.is_none() {
        let channel = session.media().ok_or("offline")?;
        cache
            .get(&channel, hash, None)
            .await
            .map_err(|e| e.to_string())?;
    }
    cache
        .open_verified(hash, None)
        .await
        .map(|(file, _)| file)
        .ok_or_else(|| "the sound did not pass its check".to_string())
}
