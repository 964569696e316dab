//! What each audio frame means for the layers this client plays.

use std::collections::HashMap;
use std::time::Duration;

use protocol::frame::{AudioAction, AudioControl, AudioState};

/// A track change on bgm or ambience crossfades this long unless the frame says otherwise.
pub const CROSSFADE_MS: u64 = 1500;

/// Where a new track starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    Beginning,
    /// This long after the table started it (wrapped or ended by the track's length).
    Elapsed(Duration),
}

/// One thing the mixer must do, in order, on one layer.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Play {
        layer: String,
        hash: String,
        looped: bool,
        volume: f32,
        /// Fade in (and, when something was playing, crossfade) over this long.
        fade_ms: u64,
        start: Start,
    },
    Stop {
        layer: String,
        fade_ms: u64,
    },
    Pause {
        layer: String,
        fade_ms: u64,
    },
    Resume {
        layer: String,
        fade_ms: u64,
    },
    Volume {
        layer: String,
        volume: f32,
        fade_ms: u64,
    },
}

impl Action {
    pub fn layer(&self) -> &str {
        match self {
            Action::Play { layer, .. }
            | Action::Stop { layer, .. }
            | Action::Pause { layer, .. }
            | Action::Resume { layer, .. }
            | Action::Volume { layer, .. } => layer,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Status {
    /// Playing here.
    Playing,
    /// Paused here: resumes from where it stopped.
    Paused,
    /// Known from `audio_state` (paused at the table) but never started here.
    Held,
}

#[derive(Debug, Clone)]
struct Track {
    hash: String,
    looped: bool,
    volume: f32,
    status: Status,
}

impl Track {
    fn playing(hash: &str, looped: bool, volume: f32) -> Self {
        Track {
            hash: hash.to_string(),
            looped,
            volume,
            status: Status::Playing,
        }
    }
}

/// This client's view of the music and ambience layers (effects are one-shots: not tracked).
#[derive(Debug, Default)]
pub struct Plan {
    layers: HashMap<String, Track>,
    /// How far this client's clock runs ahead of the table's, from the controls' `server_ts`.
    skew: Option<f64>,
}

fn volume(v: Option<f64>) -> f32 {
    v.filter(|v| v.is_finite()).unwrap_or(1.0).clamp(0.0, 1.0) as f32
}

impl Plan {
    /// The table's clock as this client sees it: the smallest offset seen is the one with the
    /// least transit time in it.
    fn observe(&mut self, server_ts: Option<f64>, now: f64) {
        if let Some(ts) = server_ts.filter(|t| t.is_finite()) {
            let skew = now - ts;
            self.skew = Some(self.skew.map_or(skew, |s| s.min(skew)));
        }
    }

    /// One live `audio_control`, received at `now` (seconds, this client's clock).
    pub fn control(&mut self, c: &AudioControl, now: f64) -> Vec<Action> {
        self.observe(c.server_ts, now);
        let layer = c.layer.as_str().to_string();
        if !matches!(layer.as_str(), "bgm" | "ambience" | "sfx") {
            return Vec::new();
        }
        let tracked = layer != "sfx";
        let fade = c.fade_ms.unwrap_or(0);
        match c.action {
            AudioAction::Play => {
                let Some(hash) = c.hash.clone() else {
                    return Vec::new();
                };
                let looped = c.r#loop.unwrap_or(tracked);
                let vol = volume(c.volume);
                // A track change on a layer that is sounding crossfades.
                let sounding = tracked
                    && self
                        .layers
                        .get(&layer)
                        .is_some_and(|t| t.status == Status::Playing);
                let fade_ms = c.fade_ms.unwrap_or(if sounding { CROSSFADE_MS } else { 0 });
                // A server that says where the track is: from there, plus the time in transit.
                let start = match (c.position_ms, c.server_ts) {
                    (Some(p), Some(ts)) => Start::Elapsed(
                        Duration::from_millis(p)
                            + super::position::elapsed(ts, now, self.skew.unwrap_or(0.0)),
                    ),
                    (Some(p), None) => Start::Elapsed(Duration::from_millis(p)),
                    _ => Start::Beginning,
                };
                if tracked {
                    self.layers
                        .insert(layer.clone(), Track::playing(&hash, looped, vol));
                }
                vec![Action::Play {
                    layer,
                    hash,
                    looped,
                    volume: vol,
                    fade_ms,
                    start,
                }]
            }
            AudioAction::Stop => {
                self.layers.remove(&layer);
                vec![Action::Stop {
                    layer,
                    fade_ms: fade,
                }]
            }
            AudioAction::Pause => {
                if let Some(t) = self.layers.get_mut(&layer) {
                    if t.status == Status::Playing {
                        t.status = Status::Paused;
                    }
                }
                vec![Action::Pause {
                    layer,
                    fade_ms: fade,
                }]
            }
            AudioAction::Resume => match self.layers.get_mut(&layer) {
                Some(t) if t.status == Status::Paused => {
                    t.status = Status::Playing;
                    vec![Action::Resume {
                        layer,
                        fade_ms: fade,
                    }]
                }
                // Paused at the table before this client came: where it stood is unknown
                // (`started_at` is not moved by a pause), so from the top.
                Some(t) if t.status == Status::Held => {
                    t.status = Status::Playing;
                    vec![Action::Play {
                        layer,
                        hash: t.hash.clone(),
                        looped: t.looped,
                        volume: t.volume,
                        fade_ms: fade,
                        start: Start::Beginning,
                    }]
                }
                _ => Vec::new(),
            },
            AudioAction::Volume => {
                let vol = volume(c.volume);
                if let Some(t) = self.layers.get_mut(&layer) {
                    t.volume = vol;
                }
                vec![Action::Volume {
                    layer,
                    volume: vol,
                    fade_ms: fade,
                }]
            }
            _ => Vec::new(),
        }
    }

    /// An `audio_state` (on join, after every bgm/ambience control, after a reconnect).
    pub fn state(&mut self, s: &AudioState, now: f64) -> Vec<Action> {
        let mut out = Vec::new();
        for l in &s.layers {
            let layer = l.layer.as_str().to_string();
            if !matches!(layer.as_str(), "bgm" | "ambience") {
                continue;
            }
            let here = self.layers.get(&layer).cloned();
            let vol = volume(l.volume);
            match (l.playing, l.hash.clone()) {
                (true, Some(hash)) => match here {
                    // What this client already plays: at most the volume follows.
                    Some(t) if t.hash == hash && t.status == Status::Playing => {
                        if (t.volume - vol).abs() > 1e-3 {
                            if let Some(t) = self.layers.get_mut(&layer) {
                                t.volume = vol;
                            }
                            out.push(Action::Volume {
                                layer,
                                volume: vol,
                                fade_ms: 0,
                            });
                        }
                    }
                    Some(t) if t.hash == hash && t.status == Status::Paused => {
                        if let Some(t) = self.layers.get_mut(&layer) {
                            t.status = Status::Playing;
                        }
                        out.push(Action::Resume { layer, fade_ms: 0 });
                    }
                    other => {
                        let looped = l.r#loop.unwrap_or(true);
                        let sounding = other.is_some_and(|t| t.status == Status::Playing);
                        let start = l.started_at.map_or(Start::Beginning, |at| {
                            Start::Elapsed(super::position::elapsed(
                                at,
                                now,
                                self.skew.unwrap_or(0.0),
                            ))
                        });
                        self.layers
                            .insert(layer.clone(), Track::playing(&hash, looped, vol));
                        out.push(Action::Play {
                            layer,
                            hash,
                            looped,
                            volume: vol,
                            fade_ms: if sounding { CROSSFADE_MS } else { 0 },
                            start,
                        });
                    }
                },
                (false, hash) => match here {
                    // A stop this client missed.
                    Some(t) if t.status == Status::Playing => {
                        self.layers.remove(&layer);
                        out.push(Action::Stop { layer, fade_ms: 0 });
                    }
                    // Paused at the table: never started on join, but remembered for a resume.
                    None => {
                        if let Some(hash) = hash {
                            self.layers.insert(
                                layer,
                                Track {
                                    hash,
                                    looped: l.r#loop.unwrap_or(true),
                                    volume: vol,
                                    status: Status::Held,
                                },
                            );
                        }
                    }
                    _ => {}
                },
                (true, None) => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
