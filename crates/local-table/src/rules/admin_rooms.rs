//! Keeper admin over keys, rooms, skills and rules — always confined to the caller's room.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::error::Error;
use crate::model::room::{Member, Room};
use crate::model::saved::Saved;
use crate::rules::backup::{export, import, room_op, Counts};
use crate::rules::commands::reset_room;
use crate::rules::context::Context;
use crate::rules::keystore::{key_id, mask, mint_secret, KeyEntry};
use crate::rules::reply::{admin_error, error};
use crate::rules::state::broadcast_state;
use crate::rules::{skills, systems};

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

fn roster(ctx: &Context, room: &str) -> Vec<Value> {
    ctx.keys
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
fn skills(ctx: &Context, room: &Room, frame: &Value) -> Value {
    let enabled = room.lock().saved.skills.clone();
    let locale = s(frame, "locale").unwrap_or(&ctx.cfg.locale);
    skills::frame(locale, &enabled)
}

/// Refuses a change that would leave `room` without a keeper join key.
fn keeps_a_keeper(keys: &std::collections::BTreeMap<String, KeyEntry>, room: &str) -> bool {
    keys.values().any(|e| e.room == room && e.role == "keeper")
}

pub async fn dispatch(
    ctx: &Arc<Context>,
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
        "admin_list_keys" => json!({"type": "admin_keys", "keys": roster(ctx, own)}),
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
            if let Err(err) = ctx.keys.update(move |keys| Ok(keys.insert(k, e))) {
                return admin_error("set_failed", &err.to_string());
            }
            json!({"type": "admin_keys", "keys": roster(ctx, own),
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
            let result = ctx.keys.update(|keys| {
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
                Ok(None) => json!({"type": "admin_keys", "keys": roster(ctx, own)}),
                Ok(Some(code)) => admin_error(code, "No such key in this room."),
                Err(Error::Keys(m)) if m == "last_keeper" => {
                    admin_error("last_keeper", LAST_KEEPER)
                }
                Err(e) => admin_error("set_failed", &e.to_string()),
            }
        }
        "admin_delete_room" => {
            let room_name = own.to_string();
            match ctx.keys.update(|keys| {
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
        "admin_export_room" => match export(ctx, room, s(frame, "path")) {
            Ok((path, counts)) => room_op("export", own, Some(&path), counts),
            Err(e) => admin_error("op_failed", &e),
        },
        "admin_import_room" => import(ctx, room, frame),
        "admin_delete_room_data" => {
            let _turn = room.turn.lock().await;
            let backup = if frame.get("backup").and_then(Value::as_bool).unwrap_or(true) {
                // Deletion only proceeds once the backup is safely written.
                match export(ctx, room, s(frame, "path")) {
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
            let keys = ctx.keys.update(|keys| {
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
            let _ = std::fs::remove_dir_all(ctx.media_dir(own));
            let _ = std::fs::remove_file(&room.file);
            ctx.forget_room(own);
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
            reset_room(ctx, room, &mut st, scope);
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
        "admin_list_skills" => skills(ctx, room, frame),
        "admin_enable_skill" => {
            let id = s(frame, "id").unwrap_or("");
            if !skills::exists(id) {
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
            skills(ctx, room, frame)
        }
        "admin_list_rules" => {
            // Every system the table knows is shipped with it, hence built_in.
            let systems: Vec<Value> = systems::systems_list()
                .as_array()
                .into_iter()
                .flatten()
                .map(|sys| json!({"id": sys["id"], "built_in": true}))
                .collect();
            json!({"type": "admin_rules", "systems": systems})
        }
        _ => {
            let _ = member;
            error("bad_frame")
        }
    }
}
