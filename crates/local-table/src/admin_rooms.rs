//! Keeper admin over keys, rooms, skills and rules — always confined to the caller's room.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::admin::admin_error;
use crate::keystore::{key_id, mask, mint_secret, KeyEntry};
use crate::room::{Member, Room, Saved};
use crate::state::broadcast_state;
use crate::table::{safe_name, Table};
use crate::Error;

const FRAMES: &[&str] = &[
    "admin_get_config",
    "admin_set_model",
    "admin_set_imagegen",
    "admin_list_models",
    "admin_list_keys",
    "admin_mint_key",
    "admin_update_key",
    "admin_delete_key",
    "admin_delete_room",
    "admin_export_room",
    "admin_import_room",
    "admin_delete_room_data",
    "admin_reset_room",
    "admin_list_skills",
    "admin_enable_skill",
    "admin_list_rules",
    "admin_generate",
    "admin_update_server",
];

pub fn is_admin_frame(kind: &str) -> bool {
    FRAMES.contains(&kind)
}

/// The engine's wording, verbatim from the capture.
const LAST_KEEPER: &str = "This is the room's last keeper key and cannot be demoted or deleted \
— mint a second keeper key first if you need to change it.";

fn s<'a>(frame: &'a Value, k: &str) -> Option<&'a str> {
    frame.get(k).and_then(Value::as_str)
}

fn key_row(key: &str, e: &KeyEntry) -> Value {
    json!({"id": key_id(key), "key_masked": mask(key), "room": e.room, "name": e.name, "role": e.role,
           "purpose": "join", "expires_at": null})
}

fn roster(table: &Table, room: &str) -> Vec<Value> {
    table
        .keys
        .room_keys(room)
        .iter()
        .map(|(k, e)| key_row(k, e))
        .collect()
}

pub fn generated(frame: &Value) -> Value {
    let kind = s(frame, "kind").unwrap_or("skill");
    let desc = s(frame, "description").unwrap_or("").trim();
    if !matches!(kind, "skill" | "rule" | "module") || desc.is_empty() {
        return json!({"type": "admin_generated", "kind": kind, "ok": false, "id": "", "name": "",
                      "error": "a kind and a description are required", "detail": ""});
    }
    let slug: String = desc
        .to_lowercase()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join("-");
    let slug: String = slug
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let detail = if kind == "module" {
        "installed into this room (scripted table: nothing was generated)"
    } else {
        ""
    };
    json!({"type": "admin_generated", "kind": kind, "ok": true, "id": format!("generated-{slug}"),
           "name": desc.chars().take(40).collect::<String>(), "error": "", "detail": detail})
}

/// The skill list in the caller's UI locale (absent: the server locale).
fn skills(table: &Table, room: &Room, frame: &Value) -> Value {
    let enabled = room.lock().saved.skills.clone();
    let locale = s(frame, "locale").unwrap_or(&table.cfg.locale);
    crate::skills::frame(locale, &enabled)
}

/// Refuses a change that would leave `room` without a keeper join key.
fn keeps_a_keeper(keys: &std::collections::BTreeMap<String, KeyEntry>, room: &str) -> bool {
    keys.values().any(|e| e.room == room && e.role == "keeper")
}

/// What a room op touched, in the engine's vocabulary mapped onto this table's room:
/// documents = transcript lines, room_state_rows = variables + characters, store_rows =
/// the saved snapshot itself. The table keeps no vector index, so vector_points is 0.
#[derive(Default)]
struct Counts {
    keys: usize,
    documents: usize,
    room_state_rows: usize,
    store_rows: usize,
    media_files: usize,
}

impl Counts {
    fn of(saved: &Saved, keys: usize) -> Self {
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
fn room_op(action: &str, room: &str, path: Option<&PathBuf>, c: Counts) -> Value {
    let mut f = json!({"type": "admin_room_op", "action": action, "room": room, "keys": c.keys,
        "documents": c.documents, "room_state_rows": c.room_state_rows, "store_rows": c.store_rows,
        "vector_points": 0, "media_files": c.media_files});
    if let Some(p) = path {
        f["path"] = json!(p.display().to_string());
    }
    f
}

/// Writes a backup (raw keys included: treat it like keys.toml) and returns its path.
fn export(table: &Table, room: &Room, path: Option<&str>) -> Result<(PathBuf, Counts), String> {
    let keys: Vec<Value> = table
        .keys
        .room_keys(&room.name)
        .iter()
        .map(|(k, e)| json!({"key": k, "name": e.name, "role": e.role}))
        .collect();
    let saved = room.lock().saved.clone();
    let counts = Counts::of(&saved, keys.len());
    let snapshot = json!({"format": "loreweaver-room-backup", "version": 1, "room": room.name,
        "created_at": crate::ids::now_ts(), "keys": keys, "state": saved});
    let path = match path {
        Some(p) => PathBuf::from(p),
        None => table.cfg.data_dir.join("room_backups").join(format!(
            "{}-{}.json",
            safe_name(&room.name),
            crate::ids::now_ms()
        )),
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let text = serde_json::to_string_pretty(&snapshot).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    Ok((path, counts))
}

pub async fn dispatch(
    table: &Arc<Table>,
    room: &Arc<Room>,
    member: &Member,
    frame: &Value,
) -> Value {
    let kind = s(frame, "type").unwrap_or("");
    let own = room.name.as_str();
    // Room-scoped ops name a room; it must be the caller's own.
    if let Some(target) = s(frame, "room") {
        if target != own && kind != "admin_import_room" {
            return admin_error("forbidden", "Admin actions are confined to your own room.");
        }
    }
    match kind {
        "admin_list_keys" => json!({"type": "admin_keys", "keys": roster(table, own)}),
        "admin_mint_key" => {
            let role = s(frame, "role").unwrap_or("player");
            if !matches!(role, "player" | "keeper") {
                return admin_error("bad_request", "role must be player or keeper");
            }
            let entry = KeyEntry {
                room: own.into(),
                name: s(frame, "name").unwrap_or("Player").into(),
                role: role.into(),
            };
            let secret = mint_secret();
            let (k, e) = (secret.clone(), entry.clone());
            if let Err(err) = table.keys.update(move |keys| Ok(keys.insert(k, e))) {
                return admin_error("set_failed", &err.to_string());
            }
            json!({"type": "admin_keys", "keys": roster(table, own),
                   "minted": {"key": secret, "room": own, "name": entry.name, "role": entry.role,
                              "purpose": "join", "expires_at": null}})
        }
        "admin_update_key" | "admin_delete_key" => {
            let id = s(frame, "id").unwrap_or("").to_string();
            let (name, role) = (
                s(frame, "name").map(str::to_string),
                s(frame, "role").map(str::to_string),
            );
            if role
                .as_deref()
                .is_some_and(|r| !matches!(r, "player" | "keeper"))
            {
                return admin_error("bad_request", "role must be player or keeper");
            }
            let delete = kind == "admin_delete_key";
            let room_name = own.to_string();
            let result = table.keys.update(|keys| {
                let Some(key) = keys
                    .iter()
                    .find(|(k, e)| e.room == room_name && key_id(k) == id)
                    .map(|(k, _)| k.clone())
                else {
                    return Ok(Some("not_found"));
                };
                if delete {
                    keys.remove(&key);
                } else if let Some(e) = keys.get_mut(&key) {
                    if let Some(n) = name {
                        e.name = n;
                    }
                    if let Some(r) = role {
                        e.role = r;
                    }
                }
                // Anti-lockout: the room must keep at least one keeper join key.
                if !keeps_a_keeper(keys, &room_name) {
                    return Err(Error::Keys("last_keeper".into()));
                }
                Ok(None)
            });
            match result {
                Ok(None) => json!({"type": "admin_keys", "keys": roster(table, own)}),
                Ok(Some(code)) => admin_error(code, "No such key in this room."),
                Err(Error::Keys(m)) if m == "last_keeper" => {
                    admin_error("last_keeper", LAST_KEEPER)
                }
                Err(e) => admin_error("set_failed", &e.to_string()),
            }
        }
        "admin_delete_room" => {
            let room_name = own.to_string();
            match table.keys.update(|keys| {
                let before = keys.len();
                keys.retain(|_, e| e.room != room_name);
                Ok(before - keys.len())
            }) {
                Ok(keys) => room_op(
                    "delete",
                    own,
                    None,
                    Counts {
                        keys,
                        ..Counts::default()
                    },
                ),
                Err(e) => admin_error("op_failed", &e.to_string()),
            }
        }
        "admin_export_room" => match export(table, room, s(frame, "path")) {
            Ok((path, counts)) => room_op("export", own, Some(&path), counts),
            Err(e) => admin_error("op_failed", &e),
        },
        "admin_import_room" => import(table, room, frame),
        "admin_delete_room_data" => {
            let _turn = room.turn.lock().await;
            let backup = if frame.get("backup").and_then(Value::as_bool).unwrap_or(true) {
                // Deletion only proceeds once the backup is safely written.
                match export(table, room, s(frame, "path")) {
                    Ok((p, _)) => Some(p),
                    Err(e) => {
                        return admin_error(
                            "op_failed",
                            &format!("backup failed, nothing deleted: {e}"),
                        )
                    }
                }
            } else {
                None
            };
            let room_name = own.to_string();
            let keys = table.keys.update(|keys| {
                let before = keys.len();
                keys.retain(|_, e| e.room != room_name);
                Ok(before - keys.len())
            });
            let mut st = room.lock();
            let counts = Counts::of(&st.saved, keys.unwrap_or(0));
            st.saved = Saved::default();
            // The room's connections stay open but are cut off from it: like the
            // engine's, they hear no further room traffic (not even each other leaving).
            st.live = Default::default();
            room.deleted
                .store(true, std::sync::atomic::Ordering::Relaxed);
            drop(st);
            let _ = std::fs::remove_dir_all(table.media_dir(own));
            let _ = std::fs::remove_file(&room.file);
            table.forget_room(own);
            room_op("delete", own, backup.as_ref(), counts)
        }
        "admin_reset_room" => {
            let scope = s(frame, "scope").unwrap_or("story");
            if !matches!(scope, "story" | "chars" | "all") {
                return admin_error("bad_request", "scope must be story, chars or all");
            }
            let _turn = room.turn.lock().await;
            let mut st = room.lock();
            let media_before = st.saved.media.len();
            crate::commands::reset_room(table, room, &mut st, scope);
            // The reset snapshot reaches every member before the keeper's op reply.
            broadcast_state(&st, true);
            // Like the engine, a reset reports what it deleted: no keys, no rows it
            // keeps; only an "all" reset drops stored media.
            let media_files = media_before.saturating_sub(st.saved.media.len());
            drop(st);
            room.persist();
            let counts = Counts {
                media_files,
                ..Counts::default()
            };
            let mut op = room_op("reset", own, None, counts);
            op["scope"] = json!(scope);
            op
        }
        "admin_list_skills" => skills(table, room, frame),
        "admin_enable_skill" => {
            let id = s(frame, "id").unwrap_or("");
            if !crate::skills::exists(id) {
                return admin_error("not_found", &format!("Unknown skill: {id}"));
            }
            let on = frame.get("on").and_then(Value::as_bool).unwrap_or(false);
            {
                let mut st = room.lock();
                st.saved.skills.retain(|s| s != id);
                if on {
                    st.saved.skills.push(id.to_string());
                }
            }
            room.persist();
            skills(table, room, frame)
        }
        "admin_list_rules" => {
            // Every system the table knows is shipped with it, hence built_in.
            let systems: Vec<Value> = crate::systems::systems_list()
                .as_array()
                .into_iter()
                .flatten()
                .map(|sys| json!({"id": sys["id"], "built_in": true}))
                .collect();
            json!({"type": "admin_rules", "systems": systems})
        }
        _ => {
            let _ = member;
            crate::session::error("bad_frame")
        }
    }
}

/// Restores a backup into the caller's room (remapped when `room` is given).
fn import(table: &Table, room: &Arc<Room>, frame: &Value) -> Value {
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
    if let Err(e) = table.keys.update(move |map| {
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
