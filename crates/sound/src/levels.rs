//! The person's own levels: master and per layer, each with a mute, on top of the table's.
//! The interface keeps them (per profile); the mixer multiplies them in.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Levels {
    pub master: f32,
    pub bgm: f32,
    pub ambience: f32,
    pub sfx: f32,
    pub muted: bool,
    pub muted_layers: Vec<String>,
}

impl Default for Levels {
    fn default() -> Self {
        Levels {
            master: 1.0,
            bgm: 1.0,
            ambience: 1.0,
            sfx: 1.0,
            muted: false,
            muted_layers: Vec::new(),
        }
    }
}

impl Levels {
    /// The slider of `layer` (`master` or anything unknown: the master's).
    pub fn get(&self, layer: &str) -> f32 {
        match layer {
            "bgm" => self.bgm,
            "ambience" => self.ambience,
            "sfx" => self.sfx,
            _ => self.master,
        }
    }

    pub fn set(&mut self, layer: &str, v: f32) {
        let v = if v.is_finite() {
            v.clamp(0.0, 1.0)
        } else {
            1.0
        };
        match layer {
            "bgm" => self.bgm = v,
            "ambience" => self.ambience = v,
            "sfx" => self.sfx = v,
            _ => self.master = v,
        }
    }

    pub fn layer_muted(&self, layer: &str) -> bool {
        self.muted_layers.iter().any(|l| l == layer)
    }

    /// The factor the person's levels put on `layer`.
    pub fn factor(&self, layer: &str) -> f32 {
        if self.muted || self.layer_muted(layer) {
            return 0.0;
        }
        let own = if matches!(layer, "bgm" | "ambience" | "sfx") {
            self.get(layer)
        } else {
            1.0
        };
        let f = self.master.clamp(0.0, 1.0) * own.clamp(0.0, 1.0);
        if f.is_finite() {
            f
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn master_times_layer_and_mutes_win() {
        let mut l = Levels::default();
        l.set("master", 0.5);
        l.set("bgm", 0.4);
        assert!((l.factor("bgm") - 0.2).abs() < 1e-6);
        assert_eq!(l.factor("sfx"), 0.5);
        l.muted_layers.push("bgm".into());
        assert_eq!(l.factor("bgm"), 0.0);
        assert_eq!(l.factor("ambience"), 0.5);
        l.muted = true;
        assert_eq!(l.factor("ambience"), 0.0);
        l.set("sfx", 7.0);
        assert_eq!(l.get("sfx"), 1.0, "clamped");
    }
}
