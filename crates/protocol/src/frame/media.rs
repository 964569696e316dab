//! Media and audio: the control-stream frames, and the headers of the separate
//! MediaChannel byte streams (`{op:"put"|"get"|"put_ok", ...}`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `media_accept` — upload accepted; with `existing: true` no PUT is needed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaAccept {
    /// `""` when `existing`.
    pub upload_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub existing: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<MediaFrame>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio: Option<AudioLibraryItem>,
}

/// `media` — image metadata broadcast / replay entry; bytes are fetched on demand.
/// Also nested in `media_accept.media` (without `type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaFrame {
    pub id: String,
    pub hash: String,
    pub mime: String,
    pub size: u64,
    pub name: String,
    /// The uploader's display name.
    pub from: String,
    #[serde(with = "super::num")]
    pub ts: f64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `media_enabled` — the room's player-upload policy (no frame = enabled).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaEnabled {
    pub enabled: bool,
}

/// `audio_library_item` — an audio-library entry created from an uploaded blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudioLibraryItem {
    pub id: String,
    pub hash: String,
    pub mime: String,
    pub size: u64,
    pub name: String,
    pub from: String,
    #[serde(with = "super::num")]
    pub ts: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

wire_enum! {
    /// `audio_control.action`.
    pub enum AudioAction {
        Play = "play",
        Stop = "stop",
        Pause = "pause",
        Resume = "resume",
        Volume = "volume",
    }
}

wire_enum! {
    /// An audio layer.
    pub enum AudioLayer { Bgm = "bgm", Ambience = "ambience", Sfx = "sfx" }
}

/// `audio_control` — playback intent; the client fetches the bytes and plays locally.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudioControl {
    pub id: String,
    pub action: AudioAction,
    pub layer: AudioLayer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#loop: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub volume: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fade_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_ms: Option<u64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub server_ts: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One `audio_state.layers` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudioLayerState {
    pub layer: AudioLayer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub playing: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub volume: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#loop: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "super::num::opt"
    )]
    pub started_at: Option<f64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `audio_state` — best-effort persisted BGM/ambience state, replayed on join.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AudioState {
    pub layers: Vec<AudioLayerState>,
}

/// The header a client writes first on a MediaChannel stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum MediaRequest {
    /// Followed by the raw body (Iroh: chunks of up to 64 KiB).
    Put {
        upload_id: String,
    },
    Get {
        hash: String,
    },
}

/// The `{op:"get", hash, size, mime, name}` header that precedes a GET body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaGetHeader {
    pub hash: String,
    pub size: u64,
    pub mime: String,
    pub name: String,
}

/// The server's first line on a MediaChannel stream (decode with
/// [`crate::codec::decode_media_reply`]).
#[derive(Debug, Clone, PartialEq)]
pub enum MediaReply {
    /// `{op:"get", ...}`, followed by exactly `size` body bytes.
    Get(MediaGetHeader),
    /// `{op:"put_ok", hash}` — the blob is stored.
    PutOk { hash: String },
    /// A `{type:"error", code, message}` line; no body follows.
    Error(super::codes::ErrorFrame),
}

impl Serialize for MediaReply {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use super::tagged::serialize_tagged;
        match self {
            Self::Get(header) => serialize_tagged(s, "op", "get", header),
            Self::PutOk { hash } => {
                serialize_tagged(s, "op", "put_ok", &serde_json::json!({ "hash": hash }))
            }
            Self::Error(error) => serialize_tagged(s, "type", "error", error),
        }
    }
}
