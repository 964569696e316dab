//! What the rules read besides the room itself: the table's config, keys, packs, story,
//! admin settings and its rooms. The wire and the table hand it down; it knows nothing of
//! endpoints or connections, so the rules never need the table above them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::error::Error;
use crate::model::room::Room;
use crate::model::saved::Saved;
use crate::rules::admin_config::AdminState;
use crate::rules::config::TableConfig;
use crate::rules::keystore::Keystore;
use crate::rules::packs::{self, Packs};
use crate::rules::snapshot;
use crate::rules::story::Story;

pub struct Context {
    pub cfg: TableConfig,
    pub keys: Keystore,
    pub packs: Packs,
    pub story: Option<Story>,
    pub admin: Mutex<AdminState>,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
}

impl Context {
    /// Opens the keys, loads every pack and the story in `story_dir`, and makes the data folder.
    pub fn new(cfg: TableConfig, story_dir: Option<PathBuf>) -> Result<Self, Error> {
        let keys = Keystore::open(&cfg.keys)?;
        let packs = cfg
            .packs
            .iter()
            .map(|p| packs::load(p).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        let story = match story_dir {
            Some(dir) => Some(Story::load(&dir)?),
            None => None,
        };
        std::fs::create_dir_all(&cfg.data_dir)?;
        Ok(Self {
            cfg,
            keys,
            packs: Packs::new(packs),
            story,
            admin: Mutex::new(AdminState::default()),
            rooms: Mutex::new(HashMap::new()),
        })
    }

    pub fn room_file(&self, room: &str) -> PathBuf {
        self.cfg
            .data_dir
            .join("rooms")
            .join(format!("{}.json", safe_name(room)))
    }

    pub fn media_dir(&self, room: &str) -> PathBuf {
        self.cfg.data_dir.join("media").join(safe_name(room))
    }

    /// The live room, loading its snapshot (or seeding it from the story) on first use.
    pub fn room(&self, name: &str) -> Arc<Room> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(room) = rooms.get(name) {
            return room.clone();
        }
        let file = self.room_file(name);
        let saved = snapshot::read(&file).unwrap_or_else(|| self.fresh_saved(name));
        let room = Room::new(name, file, saved);
        rooms.insert(name.to_string(), room.clone());
        room
    }

    /// Every live room, as of now.
    pub fn rooms(&self) -> Vec<Arc<Room>> {
        (self.rooms.lock().unwrap_or_else(|e| e.into_inner()))
            .values()
            .cloned()
            .collect()
    }

    /// A brand-new room: the story's variables, cast and media.
    pub fn fresh_saved(&self, room: &str) -> Saved {
        let mut saved = Saved::default();
        if let Some(story) = &self.story {
            story.seed(&mut saved, &self.media_dir(room));
        }
        if self.cfg.enable_packs {
            saved.packs = self.packs.all().iter().map(|p| p.id.clone()).collect();
        }
        // Rooms with a pack enabled start from its world cards' variables.
        for id in &saved.packs {
            if let Some(pack) = self.packs.get(id) {
                packs::seed_vars(&pack, "en", &mut saved.vars);
            }
        }
        saved
    }

    /// Drops a room from memory (its members stay connected to the old object until they leave).
    pub fn forget_room(&self, name: &str) {
        self.rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(name);
    }
}

pub fn safe_name(room: &str) -> String {
    room.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
