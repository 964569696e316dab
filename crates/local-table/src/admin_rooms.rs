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

const SKILLS: &[(&str, &str, &str, &str)] = &[
    (
        "image-gen",
        "Image generation",
        "Let the Keeper generate occasional player-visible handouts.",
        "",
    ),
    (
        "mature-mode",
        "Mature mode",
        "For a private, invite-only adult campaign whose players opted in.",
        "explicit",
    ),
    (
        "module-forge",
        "Module forge",
        "Let the Keeper author and install a new module from a description.",
        "",
    ),
    (
        "rule-forge",
        "Rule forge",
        "Let the Keeper author a new rule system from a description.",
        "",
    ),
    (
        "skill-forge",
        "Skill forge",
        "Let the Keeper author a new KP skill from a description.",
        "",
    ),
    (
        "svg-mapmaker",
        "SVG mapmaker",
        "Let the Keeper draw simple player-visible SVG handout maps.",
        "",
    ),
];

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

fn skills(room: &Room) -> Value {
    let enabled = room.lock().saved.skills.clone();
    let list: Vec<Value> = SKILLS
        .iter()
        .map(|(id, name, desc, rating)| {
            json!({"id": id, "name": name, "description": desc,
            "content_rating": rating, "enabled": enabled.iter().any(|e| e == id)})
        })
        .collect();
    json!({"type": "admin_skills", "skills": list})
}

/// Refuses a change that would leave `room` without a keeper join key.
fn keeps_a_keeper(keys: &std::collections::BTreeMap<String, KeyEntry>, room: &str) -> bool {
    keys.values().any(|e| e.room == room && e.role == "keeper")
}

fn room_op(
    action: &str,
    room: &str,
    path: Option<&PathBuf>,
    keys: usize,
    rows: usize,
    media: usize,
) -> Value {
    let mut f = json!({"type": "admin_room_op", "action": action, "room": room, "keys": keys,
        "store_rows": rows, "vector_points": 0, "media_files": media});
    if let Some(p) = path {
        f["path"] = json!(p.display().to_string());
    }
    f
}

/// Writes a backup (raw keys included: treat it like keys.toml) and returns its path.
fn export(
    table: &Table,
    room: &Room,
    path: Option<&str>,
) -> Result<(PathBuf, usize, usize), String> {
    let keys: Vec<Value> = table
        .keys
        .room_keys(&room.name)
        .iter()
        .map(|(k, e)| json!({"key": k, "name": e.name, "role": e.role}))
        .collect();
    let saved = room.lock().saved.clone();
    let media = saved.media.len();
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
    Ok((path, keys.len(), media))
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
                    admin_error("last_keeper", "Mint a second keeper key first.")
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
                Ok(n) => room_op("delete", own, None, n, 0, 0),
                Err(e) => admin_error("op_failed", &e.to_string()),
            }
        }
        "admin_export_room" => match export(table, room, s(frame, "path")) {
            Ok((path, keys, media)) => room_op("export", own, Some(&path), keys, 1, media),
            Err(e) => admin_error("op_failed", &e),
        },
        "admin_import_room" => import(table, room, frame),
        "admin_delete_room_data" => {
            let _turn = room.turn.lock().await;
            let backup = if frame.get("backup").and_then(Value::as_bool).unwrap_or(true) {
                // Deletion only proceeds once the backup is safely written.
                match export(table, room, s(frame, "path")) {
                    Ok((p, _, _)) => Some(p),
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
            let media = st.saved.media.len();
            st.saved = Saved::default();
            drop(st);
            let _ = std::fs::remove_dir_all(table.media_dir(own));
            let _ = std::fs::remove_file(&room.file);
            table.forget_room(own);
            room_op("delete", own, backup.as_ref(), keys.unwrap_or(0), 1, media)
        }
        "admin_reset_room" => {
            let scope = s(frame, "scope").unwrap_or("story");
            if !matches!(scope, "story" | "chars" | "all") {
                return admin_error("bad_request", "scope must be story, chars or all");
            }
            let _turn = room.turn.lock().await;
            let mut st = room.lock();
            crate::commands::reset_room(table, room, &mut st, scope);
            broadcast_state(&st, true);
            let media = st.saved.media.len();
            drop(st);
            room.persist();
            let mut op = room_op(
                "reset",
                own,
                None,
                table.keys.room_keys(own).len(),
                1,
                media,
            );
            op["scope"] = json!(scope);
            op
        }
        "admin_list_skills" => skills(room),
        "admin_enable_skill" => {
            let id = s(frame, "id").unwrap_or("");
            if !SKILLS.iter().any(|(sid, ..)| *sid == id) {
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
            skills(room)
        }
        "admin_list_rules" => json!({"type": "admin_rules", "systems": [
            {"id": "coc7", "built_in": true}, {"id": "dnd5e", "built_in": true}]}),
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
    let n = keys.len();
    if let Err(e) = table.keys.update(move |map| {
        map.extend(keys);
        Ok(())
    }) {
        return admin_error("op_failed", &e.to_string());
    }
    let mut st = room.lock();
    let media = saved.media.len();
    st.saved = saved;
    broadcast_state(&st, true);
    drop(st);
    room.persist();
    room_op(
        "import",
        &room.name,
        Some(&PathBuf::from(path)),
        n,
        1,
        media,
    )
}
