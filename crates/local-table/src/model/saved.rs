//! What a room keeps across a restart (and an export/import): its transcript, characters,
//! variables, media index and switches. Plain serde data; writing it is the rules' job.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::model::character::Character;

/// A module variable. `hidden` marks a keeper-only row that has not been exposed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Var {
    pub id: String,
    pub label: String,
    pub kind: String,
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    #[serde(default)]
    pub hidden: bool,
}

/// One transcript line (player utterance or Keeper prose) and the dice/npc frames
/// that followed it live, in order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    pub frame: Value,
    #[serde(default)]
    pub events: Vec<Value>,
}

/// A stored media blob's index row.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MediaRecord {
    pub hash: String,
    pub mime: String,
    pub size: u64,
    pub name: String,
    pub uploader: String,
    pub created_at: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pregen {
    pub name: String,
    #[serde(default)]
    pub claimed_by: String,
}

fn yes() -> bool {
    true
}

/// Everything about a room that survives a restart (and an export/import).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Saved {
    #[serde(default)]
    pub history: Vec<Line>,
    /// Dice/npc frames seen before the first transcript line.
    #[serde(default)]
    pub lead_events: Vec<Value>,
    /// `(member id, character)` in creation order.
    #[serde(default)]
    pub chars: Vec<(String, Character)>,
    #[serde(default)]
    pub vars: Vec<Var>,
    /// Persisted audio layers (`audio_state.layers` entries) for bgm/ambience.
    #[serde(default)]
    pub audio: Vec<Value>,
    #[serde(default)]
    pub media: Vec<MediaRecord>,
    #[serde(default)]
    pub media_history: Vec<Value>,
    #[serde(default)]
    pub audio_items: Vec<Value>,
    #[serde(default = "yes")]
    pub media_enabled: bool,
    #[serde(default)]
    pub packs: Vec<String>,
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub beat: usize,
    #[serde(default)]
    pub scene: Option<Value>,
    #[serde(default)]
    pub pregens: Vec<Pregen>,
}

impl Default for Saved {
    fn default() -> Self {
        serde_json::from_value(json!({})).expect("defaults")
    }
}
