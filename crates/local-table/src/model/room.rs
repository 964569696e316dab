//! One room: its members, its saved campaign state, and the fan-out that keeps every
//! member's stream in the same order (all sends happen under the room's state lock).

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;

use crate::model::character::Character;
use crate::model::ids::new_id;
use crate::model::saved::{Line, Saved};

/// What a connection's writer task is asked to do.
#[derive(Debug)]
pub enum Out {
    Line(String),
    /// Finish the control stream and close the connection (after a fatal error).
    Close,
}

/// A connected member of a room.
#[derive(Debug, Clone)]
pub struct Member {
    pub conn: u64,
    pub id: String,
    pub name: String,
    pub role: String,
    pub tx: UnboundedSender<Out>,
}

impl Member {
    pub fn is_keeper(&self) -> bool {
        self.role == "keeper"
    }

    pub fn send(&self, frame: &Value) {
        let _ = self.tx.send(Out::Line(frame.to_string()));
    }
}

/// An accepted media offer waiting for its PUT (only on the same connection).
#[derive(Debug, Clone)]
pub struct Pending {
    pub conn: u64,
    pub uploader: String,
    pub name: String,
    pub mime: String,
    pub size: u64,
    pub sha256: String,
}

/// Kept only while the table runs.
#[derive(Default)]
pub struct Live {
    pub members: Vec<Member>,
    pub inputs: HashMap<String, VecDeque<Instant>>,
    pub room_inputs: VecDeque<Instant>,
    pub uploads: HashMap<String, VecDeque<Instant>>,
    pub pending: HashMap<String, Pending>,
}

pub struct RoomState {
    pub saved: Saved,
    pub live: Live,
}

pub struct Room {
    pub name: String,
    pub file: PathBuf,
    state: Mutex<RoomState>,
    /// Serializes turns, commands and destructive ops, like the engine's room turn lock.
    pub turn: tokio::sync::Mutex<()>,
    /// Set by `admin_delete_room_data`: connections still holding the room must never
    /// write its file back.
    pub deleted: std::sync::atomic::AtomicBool,
}

/// How many transcript lines a join replays.
pub const REPLAY_LINES: usize = 30;
/// How many transcript lines are kept at all.
const KEEP_LINES: usize = 200;

impl Room {
    pub fn new(name: &str, file: PathBuf, saved: Saved) -> Arc<Self> {
        Arc::new(Self {
            name: name.to_string(),
            file,
            state: Mutex::new(RoomState {
                saved,
                live: Live::default(),
            }),
            turn: tokio::sync::Mutex::new(()),
            deleted: Default::default(),
        })
    }

    pub fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RoomState {
    pub fn broadcast(&self, frame: &Value) {
        let line = frame.to_string();
        for m in &self.live.members {
            let _ = m.tx.send(Out::Line(line.clone()));
        }
    }

    /// Sends each member its own rendering of a frame (`None` skips that member).
    pub fn broadcast_with(&self, mut render: impl FnMut(&Member) -> Option<Value>) {
        for m in &self.live.members {
            if let Some(frame) = render(m) {
                m.send(&frame);
            }
        }
    }

    /// Broadcasts a transcript line and records it for join replay.
    pub fn publish_line(&mut self, frame: Value) {
        self.broadcast(&frame);
        self.saved.history.push(Line {
            frame,
            events: vec![],
        });
        let len = self.saved.history.len();
        if len > KEEP_LINES {
            self.saved.history.drain(..len - KEEP_LINES);
        }
    }

    /// Broadcasts a dice/npc frame and anchors it to the line it followed.
    pub fn publish_event(&mut self, frame: Value) {
        self.broadcast(&frame);
        match self.saved.history.last_mut() {
            Some(line) => line.events.push(frame),
            None => self.saved.lead_events.push(frame),
        }
    }

    pub fn character(&self, member_id: &str) -> Option<&Character> {
        self.saved
            .chars
            .iter()
            .find(|(id, _)| id == member_id)
            .map(|(_, c)| c)
    }

    pub fn character_mut(&mut self, member_id: &str) -> Option<&mut Character> {
        self.saved
            .chars
            .iter_mut()
            .find(|(id, _)| id == member_id)
            .map(|(_, c)| c)
    }

    /// `Alice (Player)` once a member has a character, else the member name.
    pub fn display_name(&self, member_id: &str, name: &str) -> String {
        match self.character(member_id) {
            Some(c) => format!("{} ({name})", c.name),
            None => name.to_string(),
        }
    }

    pub fn presence(&self) -> Value {
        let mut seen = Vec::new();
        let mut players = Vec::new();
        for m in &self.live.members {
            if seen.contains(&m.id) {
                continue;
            }
            seen.push(m.id.clone());
            players.push(json!({"id": m.id, "name": m.name, "online": true}));
        }
        json!({"type": "presence", "players": players, "online": seen.len()})
    }

    pub fn online(&self) -> usize {
        let mut ids: Vec<&str> = self.live.members.iter().map(|m| m.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }

    /// The join replay, for this viewer: the last lines with their anchored events,
    /// media history, audio library, audio state and the upload switch. Narrative ids
    /// are fresh per join, as the engine's are.
    pub fn replay(&self) -> Vec<Value> {
        let mut out = Vec::new();
        let history = &self.saved.history;
        let start = history.len().saturating_sub(REPLAY_LINES);
        let lead = if start > 0 {
            &history[start - 1].events
        } else {
            &self.saved.lead_events
        };
        let fresh = |f: &Value| {
            let mut f = f.clone();
            if f.get("id").is_some() {
                f["id"] = json!(new_id());
            }
            f
        };
        out.extend(lead.iter().map(fresh));
        for line in &history[start..] {
            out.push(fresh(&line.frame));
            out.extend(line.events.iter().map(fresh));
        }
        out.extend(
            self.saved
                .media_history
                .iter()
                .rev()
                .take(50)
                .rev()
                .cloned(),
        );
        out.extend(self.saved.audio_items.iter().rev().take(50).rev().cloned());
        if !self.saved.audio_items.is_empty() || !self.saved.audio.is_empty() {
            out.push(self.audio_state());
        }
        if !self.saved.media_enabled {
            out.push(json!({"type": "media_enabled", "enabled": false}));
        }
        out
    }

    /// The `audio_state` frame as the engine sends it (to joiners and after each bgm/ambience
    /// control): all three layers, sfx never playing.
    pub fn audio_state(&self) -> Value {
        let layers: Vec<Value> = ["ambience", "bgm", "sfx"]
            .iter()
            .map(|layer| {
                self.saved
                    .audio
                    .iter()
                    .find(|l| l["layer"] == *layer)
                    .cloned()
                    .unwrap_or_else(|| json!({"layer": layer, "playing": false}))
            })
            .collect();
        json!({"type": "audio_state", "layers": layers})
    }
}
