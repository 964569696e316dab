//! Room backups: `admin_export_room` writes one, `admin_import_room` restores one, and every
//! room op reports what it touched in the engine's counts.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::model::ids::{now_ms, now_ts};
use crate::model::room::Room;
use crate::model::saved::Saved;
use crate::rules::context::{safe_name, Context};
use crate::rules::keystore::KeyEntry;
use crate::rules::reply::admin_error;

fn s<'a>(frame: &'a Value, k: &str) -> Option<&'a str> {
    frame.get(k).and_then(Value::as_str)
}

/// What a room op touched, in the engine's vocabulary mapped onto this table's room:
/// documents = transcript lines, room_state_rows = variables + characters, store_rows =
/// the saved snapshot itself. The table keeps no vector index, so vector_points is 0.
#[derive(Default)]
pub struct Counts {
    pub keys: usize,
    pub documents: usize,
    pub room_state_rows: usize,
    pub store_rows: usize,
    pub media_files: usize,
}

impl Counts {
    pub fn of(saved: &Saved, keys: usize) -> Self {
        Self {
            keys,
            documents: saved.history.len(),
            room_state_rows: saved.vars.len() + saved.chars.len(),
            store_rows: 1,
            media_files: saved.media.len(),
        }
    }
}

/// Every count is always present (the engine sends them all, beyond the spec's list).
pub fn room_op(action: &str, room: &str, path: Option<&PathBuf>, c: Counts) -> Value {
    let mut f = json!({"type": "admin_room_op", "action": action, "room": room, "keys": c.keys,
        "documents": c.documents, "room_state_rows": c.room_state_rows, "store_rows": c.store_rows,
        "vector_points": 0, "media_files": c.media_files});
    if let Some(p) = path {
        f["path"] = json!(p.display().to_string());
    }
    f
}

/// Writes a backup (raw keys included: treat it like keys.toml) and returns its path.
pub fn export(ctx: &Context, room: &Room, path: Option<&str>) -> Result<(PathBuf, Counts), String> {
    let keys: Vec<Value> = ctx
        .keys
        .room_keys(&room.name)
        .iter()
        .map(|(k, e)| json!({"key": k, "name": e.name, "role": e.role}))
        .collect();
    let saved = room.lock().saved.clone();
    let counts = Counts::of(&saved, keys.len());
    let snapshot = json!({"format": "loreweaver-room-backup", "version": 1, "room": room.name,
        "created_at": now_ts(), "keys": keys, "state": saved});
    let path = match path {
        Some(p) => PathBuf::from(p),
        None => ctx.cfg.data_dir.join("room_backups").join(format!(
            "{}-{}.json",
            safe_name(&room.name),
            now_ms()
        )),
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let text = serde_json::to_string_pretty(&snapshot).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    Ok((path, counts))
}

/// Restores a backup into the caller's room (remapped when `room` is given).
pub fn import(ctx: &Context, room: &Arc<Room>, frame: &Value) -> Value {
    let Some(path) = s(frame, "path") else {
        return admin_error("bad_request", "path is required");
    };
    let snapshot: Value = match std::fs::read_to_string(path).map(|t| serde_json::from_str(&t)) {
        Ok(Ok(v)) => v,
        _ => return admin_error("op_failed", "Cannot read that backup."),
    };
    let target = s(frame, "room").or(s(&snapshot, "room")).unwrap_or("");
    if target != room.name {
        return admin_error("forbidden", "Admin actions are confined to your own room.");
    }
    let Ok(saved) = serde_json::from_value::<Saved>(snapshot["state"].clone()) else {
        return admin_error("op_failed", "That backup has no room state.");
    };
    let keys: Vec<(String, KeyEntry)> = snapshot["keys"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|k| {
            Some((
                k["key"].as_str()?.to_string(),
                KeyEntry {
                    room: target.to_string(),
                    name: k["name"].as_str().unwrap_or("").to_string(),
                    role: k["role"].as_str().unwrap_or("player").to_string(),
                },
            ))
        })
        .collect();
    let counts = Counts::of(&saved, keys.len());
    if let Err(e) = ctx.keys.update(move |map| {
        map.extend(keys);
        Ok(())
    }) {
        return admin_error("op_failed", &e.to_string());
    }
    // No state push: the engine answers an import with the op reply alone.
    room.lock().saved = saved;
    room.persist();
    room_op("import", &room.name, Some(&PathBuf::from(path)), counts)
}
