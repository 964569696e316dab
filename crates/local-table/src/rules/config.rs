//! What a table is started with: keys, folders, pacing and the limits the engine enforces.

use std::path::PathBuf;
use std::time::Duration;

use crate::rules::keystore::KeySource;

/// How fast the scripted Keeper "types".
#[derive(Debug, Clone)]
pub struct Pacing {
    /// Pause between two `narrative_delta` chunks.
    pub delta: Duration,
    /// Pause before a dice/npc frame, and between tool rounds.
    pub beat: Duration,
    /// How long `admin_generate` "thinks" before answering.
    pub generate: Duration,
}

impl Pacing {
    /// A human reading pace, for the demo.
    pub fn human() -> Self {
        Self {
            delta: Duration::from_millis(120),
            beat: Duration::from_millis(600),
            generate: Duration::from_secs(3),
        }
    }

    /// Fast enough for tests, still asynchronous (other frames can interleave).
    pub fn fast() -> Self {
        Self {
            delta: Duration::from_millis(2),
            beat: Duration::from_millis(5),
            generate: Duration::from_millis(50),
        }
    }
}

/// Limits the engine enforces, with its defaults.
#[derive(Debug, Clone)]
pub struct Limits {
    pub join_timeout: Duration,
    /// Inputs one member may send per `input_window`.
    pub inputs_per_member: usize,
    /// Inputs a whole room may send per `input_window`.
    pub inputs_per_room: usize,
    pub input_window: Duration,
    pub uploads_per_minute: usize,
    pub image_max_bytes: u64,
    pub image_room_quota: u64,
    pub audio_max_bytes: u64,
    pub audio_room_quota: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            join_timeout: Duration::from_secs(10),
            inputs_per_member: 10,
            inputs_per_room: 40,
            input_window: Duration::from_secs(10),
            uploads_per_minute: 10,
            image_max_bytes: 8 << 20,
            image_room_quota: 512 << 20,
            audio_max_bytes: 128 << 20,
            audio_room_quota: 2 << 30,
        }
    }
}

/// Everything a table needs to start.
#[derive(Debug, Clone)]
pub struct TableConfig {
    pub keys: KeySource,
    /// Media blobs, room snapshots and backups live here.
    pub data_dir: PathBuf,
    /// Pack source folders (`pack.yaml` + `ui/panels.yaml` + assets).
    pub packs: Vec<PathBuf>,
    /// The scripted module folder (`story.json` + assets); `None` uses the built-in demo.
    pub story: Option<PathBuf>,
    /// A fixed identity, so a restarted table keeps its ticket.
    pub secret_key: Option<iroh::SecretKey>,
    /// 0 picks a free port; a fixed port keeps the ticket across restarts.
    pub port: u16,
    pub pacing: Pacing,
    pub limits: Limits,
    /// The operator's self-update command (run by `sh -c`; `cmd /C` on Windows); enables the
    /// `update` feature for keepers.
    pub update_command: Option<String>,
    pub locale: String,
    /// A new room starts with every pack enabled (the pack bench: an author's own pack).
    pub enable_packs: bool,
    /// No scripted module at all, not even the built-in demo (the pack bench: a room of the
    /// packs alone, as the engine's dev room is).
    pub without_story: bool,
}

impl TableConfig {
    pub fn new(keys: KeySource, data_dir: impl Into<PathBuf>) -> Self {
        Self {
            keys,
            data_dir: data_dir.into(),
            packs: vec![],
            story: None,
            secret_key: None,
            port: 0,
            pacing: Pacing::human(),
            limits: Limits::default(),
            update_command: None,
            locale: "en".into(),
            enable_packs: false,
            without_story: false,
        }
    }
}
