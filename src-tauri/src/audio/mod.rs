//! Sound at the table: the mixer (crate `mixer`), fed in arrival order by the [`director`],
//! and the sound popover's [`commands`]. [`Sound`] follows the table in play: each session's
//! `audio_control` / `audio_state` go to a fresh director, and leaving the table silences it.

pub mod commands;
pub mod director;

use std::sync::{Arc, OnceLock};

pub use mixer::{AudioCommand, AudioMixer};
use protocol::ServerFrame;
use transport::session::SessionEvent;

use crate::media::Cache;
use crate::seat::{Follower, Joining, Later, Listener};

/// The mixer (started on first use, kept for the app's life) and the cache sounds come from.
#[derive(Clone)]
pub struct Sound {
    mixer: Arc<OnceLock<AudioMixer>>,
    cache: Cache,
}

impl Sound {
    pub fn new(cache: Cache) -> Self {
        Sound {
            mixer: Default::default(),
            cache,
        }
    }

    /// The mixer (headless where there is no sound device, or with `STUDIO_AUDIO=headless`).
    pub fn mixer(&self) -> &AudioMixer {
        self.mixer
            .get_or_init(|| AudioMixer::start(self.headless()))
    }

    /// Whether sound goes to the headless output (tests, machines without a device).
    pub fn headless(&self) -> bool {
        std::env::var("STUDIO_AUDIO").as_deref() == Ok("headless")
    }

    pub fn cache(&self) -> &Cache {
        &self.cache
    }
}

impl Follower for Sound {
    fn joined(&self, joining: &Joining<'_>) -> Option<Box<dyn Listener>> {
        let cache = self.cache.get().ok()?.clone();
        let director =
            director::AudioDirector::new(cache, joining.session.clone(), self.mixer().clone());
        Some(Box::new(director))
    }

    /// Leaving the table silences it.
    fn left(&self) -> Later<'_> {
        if let Some(mixer) = self.mixer.get() {
            for layer in ["bgm", "ambience", "sfx"] {
                mixer.send(AudioCommand::Layer(sound::plan::Action::Stop {
                    layer: layer.into(),
                    fade_ms: 0,
                }));
            }
        }
        Box::pin(async {})
    }
}

impl Listener for director::AudioDirector {
    /// In arrival order: the director keeps each layer's frames in sequence.
    fn event(&mut self, event: &SessionEvent, current: bool) {
        match event {
            SessionEvent::Frame(ServerFrame::AudioControl(c), _) if current => self.control(c),
            SessionEvent::Frame(ServerFrame::AudioState(s), _) if current => self.state(s),
            _ => {}
        }
    }
}
