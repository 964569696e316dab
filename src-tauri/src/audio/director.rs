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
    plan: Arc<Mutex<Plan>>,
    seq: Sequencer,
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
            plan: Default::default(),
            seq: Sequencer::new(mixer),
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
        let (cache, session) = (self.cache.clone(), self.session.clone());
        self.seq.run(actions, move |hash| {
            let (cache, session) = (cache.clone(), session.clone());
            async move {
                fetch_verified(&cache, &session, &hash)
                    .await
                    .map_err(|e| tracing::warn!("a sound could not be fetched: {e}"))
                    .ok()
            }
        });
    }
}

/// Actions to mixer commands, each layer in arrival order even while sounds are fetched.
#[derive(Clone)]
pub struct Sequencer {
    mixer: AudioMixer,
    /// Per layer, the latest frame: a fetch finishing for an older one is dropped.
    latest: Arc<Mutex<Latest>>,
}

impl Sequencer {
    pub fn new(mixer: AudioMixer) -> Self {
        Sequencer {
            mixer,
            latest: Default::default(),
        }
    }

    /// Applies `actions`; a Play runs `fetch` first, on a task (returned, for tests to await).
    pub fn run<F, Fut>(
        &self,
        actions: Vec<Action>,
        fetch: F,
    ) -> Vec<tauri::async_runtime::JoinHandle<()>>
    where
        F: Fn(String) -> Fut,
        Fut: std::future::Future<Output = Option<std::fs::File>> + Send + 'static,
    {
        let mut tasks = Vec::new();
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
                    let fetching = fetch(hash);
                    let (mixer, latest) = (self.mixer.clone(), self.latest.clone());
                    tasks.push(tauri::async_runtime::spawn(async move {
                        let Some(file) = fetching.await else {
                            return;
                        };
                        // Checked and sent under the lock: no later frame can slip in between.
                        let latest = latest.lock().unwrap_or_else(|e| e.into_inner());
                        if latest.is_latest(&ticket) {
                            mixer.send(AudioCommand::Play {
                                layer,
                                file,
                                looped,
                                volume,
                                fade_ms,
                                start,
                            });
                        }
                    }));
                    continue;
                }
                // Stop, pause, resume, volume: the mixer takes the plan's action as it is.
                other => AudioCommand::Layer(other),
            };
            let _guard = self.latest.lock().unwrap_or_else(|e| e.into_inner());
            self.mixer.send(command);
        }
        tasks
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

#[cfg(test)]
mod tests {
    use super::*;

    fn play(hash: &str, volume: f32) -> Action {
        Action::Play {
            layer: "bgm".into(),
            hash: hash.into(),
            looped: true,
            volume,
            fade_ms: 0,
            start: Start::Beginning,
        }
    }

    /// A fetch that takes as long as the test says for "slow", and is instant otherwise.
    fn fetcher(
        path: std::path::PathBuf,
        slow: Arc<tokio::sync::Notify>,
    ) -> impl Fn(
        String,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Option<std::fs::File>> + Send>,
    > {
        move |hash| {
            let (path, slow) = (path.clone(), slow.clone());
            Box::pin(async move {
                if hash == "slow" {
                    slow.notified().await;
                }
                std::fs::File::open(path).ok()
            })
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_play_never_lands_after_what_followed_it() {
        let dir = tempfile::tempdir().unwrap();
        let tone = dir.path().join("tone.wav");
        mixer::bench::write_wav(&tone, 1.0, |i, _| (i as f32 * 0.06).sin() * 0.5).unwrap();
        let audio = AudioMixer::start(true);
        let seq = Sequencer::new(audio.clone());
        let slow = Arc::new(tokio::sync::Notify::new());
        let fetch = fetcher(tone.clone(), slow.clone());

        // Play(A, slow fetch), then Stop: silence, whenever A's bytes arrive.
        let tasks = seq.run(vec![play("slow", 0.3)], &fetch);
        seq.run(
            vec![Action::Stop {
                layer: "bgm".into(),
                fade_ms: 0,
            }],
            &fetch,
        );
        slow.notify_one();
        for t in tasks {
            t.await.unwrap();
        }
        let r = audio.report(true);
        assert!(
            r.sounding.is_empty(),
            "the slow play landed after the stop: {r:?}"
        );

        // Play(A, slow), then Play(B): B, at B's volume.
        let tasks = seq.run(vec![play("slow", 0.3)], &fetch);
        let b = seq.run(vec![play("fast", 0.9)], &fetch);
        for t in b {
            t.await.unwrap();
        }
        slow.notify_one();
        for t in tasks {
            t.await.unwrap();
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            let r = audio.report(true);
            let level = r
                .layers
                .iter()
                .find(|(l, _)| l == "bgm")
                .map_or(0.0, |(_, v)| *v);
            if level > 0.85 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "B is not what plays: {r:?}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        // And it stays B: A's late bytes changed nothing.
        let r = audio.report(true);
        assert_eq!(r.sounding, vec!["bgm".to_string()]);
        let level = r
            .layers
            .iter()
            .find(|(l, _)| l == "bgm")
            .map_or(0.0, |(_, v)| *v);
        assert!(level > 0.85, "{r:?}");
    }
}
