//! Whether a room's packs may run code of their own (tier-2 pages): asked once per room before
//! any page starts, remembered in a small file, changeable from the saved table and the Panels
//! menu. The backend holds the answer for the room in play and refuses to mount a page without
//! it, so no page can start on the interface's word alone.
//!
//! A room is named as saved tables name it (ticket + room, hashed); the demo table and the pack
//! bench are one room each. The bench runs the author's own code unless they turn it off.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The person's answer for one room (kept in the consent file in the same words).
pub use ipc::PanelCode;

/// The room key of the pack bench (the author's own pack: runs unless turned off).
pub const BENCH_ROOM: &str = "bench";
/// The room key of the demo table.
pub const DEMO_ROOM: &str = "demo";

pub struct Consent {
    path: PathBuf,
    /// The room in play (its key), once the interface has asked for its answer.
    current: Mutex<Option<String>>,
    /// Whether pages of the room in play may be mounted now.
    allowed: AtomicBool,
}

impl Consent {
    pub fn new(dir: PathBuf) -> Self {
        Consent {
            path: dir.join("panel-code.json"),
            current: Mutex::new(None),
            allowed: AtomicBool::new(false),
        }
    }

    fn read(&self) -> BTreeMap<String, PanelCode> {
        // A file anyone could have edited: anything unreadable counts as "never asked".
        std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn write(&self, all: &BTreeMap<String, PanelCode>) -> Result<(), String> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        let tmp = self.path.with_extension("json.tmp");
        let json = serde_json::to_vec_pretty(all).map_err(|e| e.to_string())?;
        std::fs::write(&tmp, json).map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, &self.path).map_err(|e| e.to_string())
    }

    /// The stored answer for `room` (the bench defaults to Run).
    pub fn get(&self, room: &str) -> Option<PanelCode> {
        let stored = self.read().get(room).copied();
        stored.or((room == BENCH_ROOM).then_some(PanelCode::Run))
    }

    /// Stores (or with `None` forgets) the answer for `room`; the room in play follows at once.
    pub fn set(&self, room: &str, code: Option<PanelCode>) -> Result<(), String> {
        let mut all = self.read();
        match code {
            Some(c) => all.insert(room.to_string(), c),
            None => all.remove(room),
        };
        self.write(&all)?;
        if self.current().as_deref() == Some(room) {
            self.allowed
                .store(self.get(room) == Some(PanelCode::Run), Ordering::SeqCst);
        }
        Ok(())
    }

    /// `room` is now in play: pages may mount only if its answer is Run.
    pub fn enter(&self, room: &str) -> Option<PanelCode> {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(room.to_string());
        let code = self.get(room);
        self.allowed
            .store(code == Some(PanelCode::Run), Ordering::SeqCst);
        code
    }

    /// No room in play (a join, a leave): nothing mounts until the next room is asked about.
    pub fn leave(&self) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.allowed.store(false, Ordering::SeqCst);
    }

    pub fn current(&self) -> Option<String> {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn allowed(&self) -> bool {
        self.allowed.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_per_room_remembered_and_gates_the_room_in_play() {
        let dir = tempfile::tempdir().unwrap();
        let c = Consent::new(dir.path().to_path_buf());
        // Never asked: nothing may mount.
        assert_eq!(c.enter("room-a"), None);
        assert!(!c.allowed());
        c.set("room-a", Some(PanelCode::Run)).unwrap();
        assert!(c.allowed(), "the room in play follows its new answer");
        // Another room's answer does not touch the room in play.
        c.set("room-b", Some(PanelCode::Blocks)).unwrap();
        assert!(c.allowed());
        assert_eq!(c.enter("room-b"), Some(PanelCode::Blocks));
        assert!(!c.allowed());
        // Remembered across a restart (a fresh reader of the same file).
        let again = Consent::new(dir.path().to_path_buf());
        assert_eq!(again.get("room-a"), Some(PanelCode::Run));
        assert_eq!(again.get("room-b"), Some(PanelCode::Blocks));
        // Forgotten: asked again.
        again.set("room-a", None).unwrap();
        assert_eq!(again.get("room-a"), None);
        c.leave();
        assert!(!c.allowed(), "between rooms nothing mounts");
    }

    #[test]
    fn the_bench_runs_the_authors_code_unless_turned_off() {
        let dir = tempfile::tempdir().unwrap();
        let c = Consent::new(dir.path().to_path_buf());
        assert_eq!(c.enter(BENCH_ROOM), Some(PanelCode::Run));
        c.set(BENCH_ROOM, Some(PanelCode::Blocks)).unwrap();
        assert!(!c.allowed());
    }

    #[test]
    fn an_edited_file_reads_as_never_asked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("panel-code.json"),
            b"{\"room\": \"yes please\"}",
        )
        .unwrap();
        let c = Consent::new(dir.path().to_path_buf());
        assert_eq!(c.enter("room"), None);
        assert!(!c.allowed());
    }
}
