//! A room's snapshot on disk: read when the room is first used, written back after each
//! change. The room itself (`model::room`) stays free of I/O; this is where it touches disk.

use std::path::Path;

use crate::model::ids::new_id;
use crate::model::room::Room;
use crate::model::saved::Saved;

/// The saved state in `file`, if there is a readable one.
pub fn read(file: &Path) -> Option<Saved> {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|t| serde_json::from_str::<Saved>(&t).ok())
}

impl Room {
    /// Writes the saved state next to the other rooms (best effort: a failed write
    /// only costs persistence across a restart).
    pub fn persist(&self) {
        if self.deleted.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let text = {
            let st = self.lock();
            serde_json::to_string_pretty(&st.saved)
        };
        if let Ok(text) = text {
            if let Some(dir) = self.file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let tmp = self.file.with_extension(format!("{}.tmp", new_id()));
            if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, &self.file).is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
        }
    }
}
