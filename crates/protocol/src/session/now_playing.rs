//! What the room is listening to, per layer, as the server last said: the persisted
//! `audio_state` on join, then every `audio_control`. Effects are one-shots and not tracked.

use std::collections::BTreeMap;

use crate::frame::{AudioAction, AudioControl, AudioState};

/// One layer's current sound.
#[derive(Debug, Clone, PartialEq)]
pub struct Playing {
    pub title: String,
    pub paused: bool,
}

/// Layer (`bgm`, `ambience`) → what plays on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NowPlaying(pub BTreeMap<String, Playing>);

fn title(title: Option<&String>, name: Option<&String>) -> String {
    title.or(name).cloned().unwrap_or_default()
}

impl NowPlaying {
    /// A state replaces what is known, except a layer this client saw paused: pause and stop
    /// both read `playing:false`, and the fresh state after a pause must not hide it.
    pub fn reset(&mut self, state: &AudioState) {
        let before = std::mem::take(&mut self.0);
        self.0 = state
            .layers
            .iter()
            .filter(|l| l.layer.as_str() != "sfx")
            .filter_map(|l| {
                let layer = l.layer.as_str().to_string();
                let playing = if l.playing {
                    Playing {
                        title: title(l.title.as_ref(), l.name.as_ref()),
                        paused: false,
                    }
                } else {
                    before.get(&layer).filter(|p| p.paused)?.clone()
                };
                Some((layer, playing))
            })
            .collect();
    }

    pub fn control(&mut self, c: &AudioControl) {
        let layer = c.layer.as_str();
        if layer == "sfx" {
            return;
        }
        match c.action {
            AudioAction::Play => {
                let playing = Playing {
                    title: title(c.title.as_ref(), c.name.as_ref()),
                    paused: false,
                };
                self.0.insert(layer.to_string(), playing);
            }
            AudioAction::Stop => {
                self.0.remove(layer);
            }
            AudioAction::Pause | AudioAction::Resume => {
                if let Some(p) = self.0.get_mut(layer) {
                    p.paused = c.action == AudioAction::Pause;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(json: serde_json::Value) -> AudioControl {
        serde_json::from_value(json).expect("an audio_control")
    }

    #[test]
    fn follows_state_then_controls() {
        let mut now = NowPlaying::default();
        let state: AudioState =
            serde_json::from_value(serde_json::json!({"type":"audio_state","layers":[
            {"layer":"bgm","hash":"a","title":"Sea at Night","playing":true},
            {"layer":"ambience","playing":false}]}))
            .expect("an audio_state");
        now.reset(&state);
        assert_eq!(now.0["bgm"].title, "Sea at Night");
        assert!(!now.0.contains_key("ambience"));
        now.control(&control(
            serde_json::json!({"id":"1","action":"pause","layer":"bgm"}),
        ));
        assert!(now.0["bgm"].paused);
        now.control(&control(serde_json::json!({"id":"2","action":"play","layer":"ambience","name":"rain.ogg","hash":"b"})));
        assert_eq!(now.0["ambience"].title, "rain.ogg");
        now.control(&control(serde_json::json!({"id":"3","action":"play","layer":"sfx","name":"door.wav","hash":"c"})));
        assert!(!now.0.contains_key("sfx"));
        now.control(&control(
            serde_json::json!({"id":"4","action":"stop","layer":"bgm"}),
        ));
        assert!(!now.0.contains_key("bgm"));
    }

    #[test]
    fn a_paused_layer_survives_the_state_that_follows_its_pause() {
        let mut now = NowPlaying::default();
        let state = |playing: bool| -> AudioState {
            serde_json::from_value(serde_json::json!({"type":"audio_state","layers":[
                {"layer":"bgm","hash":"a","name":"sea.wav","playing":playing}]}))
            .unwrap()
        };
        now.reset(&state(true));
        now.control(&control(
            serde_json::json!({"type":"audio_control","id":"p","action":"pause","layer":"bgm"}),
        ));
        now.reset(&state(false));
        assert!(
            now.0["bgm"].paused,
            "the paused track is still shown, paused"
        );
        now.control(&control(
            serde_json::json!({"type":"audio_control","id":"s","action":"stop","layer":"bgm"}),
        ));
        now.reset(&state(false));
        assert!(now.0.is_empty(), "a stopped track is gone");
    }
}
