//! The scripted module: `story.json` plus its media, loaded from a folder. The story is
//! data (scenes, beats, steps), so an author edits the demo without touching code.

use std::path::Path;

use serde::Deserialize;
use serde_json::{json, Value};
use sha2::Digest as _;

use crate::error::Error;
use crate::model::ids::{hex, new_id};
use crate::model::saved::{MediaRecord, Pregen, Saved, Var};

#[derive(Debug, Clone, Deserialize)]
struct MediaFile {
    file: String,
    mime: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    title: Option<String>,
}

/// One Keeper reply: an optional scene change and its steps (see assets/demo/README.md).
#[derive(Debug, Clone, Deserialize)]
pub struct Beat {
    #[serde(default)]
    pub scene: Option<Value>,
    pub steps: Vec<Value>,
}

#[derive(Debug, Clone, Deserialize)]
struct StoryFile {
    /// Read (and so type-checked) from story.json; nothing shows it yet.
    #[serde(default)]
    #[allow(dead_code)]
    title: String,
    #[serde(default)]
    variables: Vec<Var>,
    #[serde(default)]
    pregens: Vec<String>,
    #[serde(default)]
    media: Vec<MediaFile>,
    beats: Vec<Beat>,
    #[serde(default)]
    fallback: Vec<Beat>,
}

/// A media file the story ships, hashed at load.
#[derive(Debug, Clone)]
pub struct StoryMedia {
    pub file: String,
    pub record: MediaRecord,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone)]
pub struct Story {
    variables: Vec<Var>,
    pregens: Vec<String>,
    pub media: Vec<StoryMedia>,
    pub beats: Vec<Beat>,
    pub fallback: Vec<Beat>,
}

impl Story {
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let path = dir.join("story.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::Story(format!("{}: {e}", path.display())))?;
        let file: StoryFile = serde_json::from_str(&text)
            .map_err(|e| Error::Story(format!("{}: {e}", path.display())))?;
        let mut media = Vec::new();
        for m in file.media {
            let bytes = std::fs::read(dir.join(&m.file))
                .map_err(|e| Error::Story(format!("{}: {e}", m.file)))?;
            let hash = hex(sha2::Sha256::digest(&bytes));
            let name = m
                .name
                .clone()
                .unwrap_or_else(|| m.file.rsplit('/').next().unwrap_or(&m.file).to_string());
            media.push(StoryMedia {
                file: m.file,
                record: MediaRecord {
                    hash,
                    mime: m.mime,
                    size: bytes.len() as u64,
                    name,
                    uploader: "Keeper".into(),
                    created_at: 0.0,
                    title: m.title,
                },
                bytes,
            });
        }
        if file.beats.is_empty() {
            return Err(Error::Story("story.json has no beats".into()));
        }
        Ok(Self {
            variables: file.variables,
            pregens: file.pregens,
            media,
            beats: file.beats,
            fallback: file.fallback,
        })
    }

    /// Seeds a new room: variables, pregens, and the story media stored by hash.
    pub fn seed(&self, saved: &mut Saved, media_dir: &Path) {
        saved.vars = self.variables.clone();
        saved.pregens = self
            .pregens
            .iter()
            .map(|n| Pregen {
                name: n.clone(),
                claimed_by: String::new(),
            })
            .collect();
        let _ = std::fs::create_dir_all(media_dir);
        for m in &self.media {
            let path = media_dir.join(&m.record.hash);
            if !path.exists() && std::fs::write(&path, &m.bytes).is_err() {
                continue;
            }
            saved.media.push(m.record.clone());
            if m.record.mime.starts_with("audio/") {
                saved.audio_items.push(audio_item(&m.record, new_id()));
            }
        }
    }

    /// The beat for the `n`th Keeper turn: the script in order, then the fallback loop.
    pub fn beat(&self, n: usize) -> Option<&Beat> {
        if n < self.beats.len() {
            return self.beats.get(n);
        }
        if self.fallback.is_empty() {
            return None;
        }
        self.fallback
            .get((n - self.beats.len()) % self.fallback.len())
    }

    /// `{hash, mime, size}` for a story-relative media path.
    pub fn resolve(&self, src: &str) -> Option<&MediaRecord> {
        self.media.iter().find(|m| m.file == src).map(|m| &m.record)
    }
}

/// The `audio_library_item` frame for a stored audio record.
pub fn audio_item(r: &MediaRecord, id: String) -> Value {
    let mut f = json!({
        "type": "audio_library_item", "id": id, "hash": r.hash, "mime": r.mime,
        "size": r.size, "name": r.name, "from": r.uploader, "ts": r.created_at,
    });
    if let Some(title) = &r.title {
        f["title"] = json!(title);
    }
    f
}
