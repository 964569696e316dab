//! Media decisions: offers on the control stream, what a PUT may store and what a GET may
//! serve. Blobs are stored by sha256 under `data_dir/media/<room>/`; moving their bytes over
//! extra streams is the wire's part (`wire::media`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::Digest as _;

use crate::model::ids::{hex, new_id, now_ts};
use crate::model::room::{Member, Pending, Room, RoomState};
use crate::model::saved::MediaRecord;
use crate::rules::context::Context;
use crate::rules::reply::error;
use crate::rules::state::broadcast_state;
use crate::rules::{packs, story, svg};

fn limits_for(ctx: &Context, mime: &str) -> (u64, u64) {
    let l = &ctx.cfg.limits;
    if mime.starts_with("audio/") {
        (l.audio_max_bytes, l.audio_room_quota)
    } else {
        (l.image_max_bytes, l.image_room_quota)
    }
}

fn room_bytes(st: &RoomState, audio: bool) -> u64 {
    st.saved
        .media
        .iter()
        .filter(|r| r.mime.starts_with("audio/") == audio)
        .map(|r| r.size)
        .sum()
}

pub fn media_frame(r: &MediaRecord, from: &str) -> Value {
    json!({"type": "media", "id": new_id(), "hash": r.hash, "mime": r.mime, "size": r.size,
           "name": r.name, "from": from, "ts": r.created_at})
}

/// Broadcasts a stored record as `media` (images) or `audio_library_item` (audio),
/// recording it for join replay. Returns the frame.
fn publish(st: &mut RoomState, r: &MediaRecord, from: &str, image_frame: Option<Value>) -> Value {
    if r.mime.starts_with("audio/") {
        let mut frame = story::audio_item(r, new_id());
        frame["from"] = json!(from);
        st.saved
            .audio_items
            .retain(|i| i["hash"] != r.hash.as_str());
        st.saved.audio_items.push(frame.clone());
        st.broadcast(&frame);
        frame
    } else {
        let frame = image_frame.unwrap_or_else(|| media_frame(r, from));
        st.saved.media_history.push(frame.clone());
        st.broadcast(&frame);
        frame
    }
}

pub fn offer(ctx: &Context, room: &Arc<Room>, member: &Member, frame: &Value) {
    let mut st = room.lock();
    if !st.saved.media_enabled {
        return member.send(&error("media_disabled"));
    }
    let now = Instant::now();
    let window = st.live.uploads.entry(member.id.clone()).or_default();
    while window
        .front()
        .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(60))
    {
        window.pop_front();
    }
    if window.len() >= ctx.cfg.limits.uploads_per_minute {
        return member.send(&error("media_rate_limited"));
    }
    window.push_back(now);
    let (Some(size), Some(mime), Some(sha)) = (
        frame.get("size").and_then(Value::as_u64),
        frame.get("mime").and_then(Value::as_str),
        frame.get("sha256").and_then(Value::as_str),
    ) else {
        return member.send(&error("media_bad_offer"));
    };
    let mime = mime.to_lowercase();
    let sha = sha.to_lowercase();
    let name: String = frame["name"]
        .as_str()
        .unwrap_or("media")
        .trim()
        .chars()
        .take(255)
        .collect();
    let name = if name.is_empty() {
        "media".to_string()
    } else {
        name
    };
    if !protocol::media::is_upload_mime(&mime) {
        return member.send(&error("media_bad_mime"));
    }
    let (max, quota) = limits_for(ctx, &mime);
    if size == 0 || size > max {
        return member.send(&error("media_too_large"));
    }
    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return member.send(&error("media_bad_hash"));
    }
    if let Some(existing) = st.saved.media.iter().find(|r| r.hash == sha).cloned() {
        // Same order as the engine: audio is published before the accept, images after it.
        if existing.mime.starts_with("audio/") {
            let audio = publish(&mut st, &existing, &member.name, None);
            return member.send(
                &json!({"type": "media_accept", "upload_id": "", "existing": true, "audio": audio}),
            );
        }
        let frame = media_frame(&existing, &member.name);
        member.send(
            &json!({"type": "media_accept", "upload_id": "", "existing": true, "media": frame}),
        );
        publish(&mut st, &existing, &member.name, Some(frame));
        return;
    }
    if room_bytes(&st, mime.starts_with("audio/")) + size > quota {
        return member.send(&error("media_quota_exceeded"));
    }
    let upload_id = new_id();
    st.live.pending.insert(
        upload_id.clone(),
        Pending {
            conn: member.conn,
            uploader: member.name.clone(),
            name,
            mime,
            size,
            sha256: sha,
        },
    );
    member.send(&json!({"type": "media_accept", "upload_id": upload_id}));
}

pub fn set_enabled(room: &Arc<Room>, member: &Member, frame: &Value) {
    if !member.is_keeper() {
        return member.send(&error("forbidden"));
    }
    let Some(enabled) = frame.get("enabled").and_then(Value::as_bool) else {
        return member.send(&error("bad_frame"));
    };
    let mut st = room.lock();
    st.saved.media_enabled = enabled;
    st.broadcast(&json!({"type": "media_enabled", "enabled": enabled}));
    drop(st);
    room.persist();
}

pub fn avatar_set(room: &Arc<Room>, member: &Member, frame: &Value) {
    // Only the caller's own character may be bound: naming anyone else is refused outright.
    if ["character", "target", "name", "user_id"]
        .iter()
        .any(|k| frame.get(*k).is_some())
    {
        return member.send(&error("forbidden"));
    }
    let hash = frame["hash"].as_str().unwrap_or("").to_lowercase();
    let mut st = room.lock();
    let Some(rec) = st.saved.media.iter().find(|r| r.hash == hash).cloned() else {
        return member.send(&error("media_not_found"));
    };
    if !rec.mime.starts_with("image/") {
        return member.send(&error("media_bad_mime"));
    }
    let Some(ch) = st.character_mut(&member.id) else {
        return member.send(&json!({"type": "error", "code": "avatar_no_character",
            "message": "Create or claim a character before setting an avatar."}));
    };
    ch.avatar =
        Some(json!({"hash": rec.hash, "mime": rec.mime, "size": rec.size, "name": rec.name}));
    member.send(&json!({"type": "system", "level": "info", "text": "Avatar updated."}));
    broadcast_state(&st, false);
    drop(st);
    room.persist();
}

/// The accepted offer `upload_id`, taken, if this connection made it.
pub fn take_pending(room: &Room, member: &Member, upload_id: &str) -> Option<Pending> {
    let mut st = room.lock();
    match st.live.pending.get(upload_id) {
        Some(p) if p.conn == member.conn => st.live.pending.remove(upload_id),
        _ => None,
    }
}

/// Checks a PUT's bytes against its offer, stores them and publishes the record. Returns the
/// hash, or the error code the uploader gets.
pub fn store(
    ctx: &Context,
    room: &Arc<Room>,
    pending: Pending,
    data: &[u8],
) -> Result<String, &'static str> {
    if data.len() as u64 != pending.size {
        return Err("media_size_mismatch");
    }
    let hash = hex(sha2::Sha256::digest(data));
    if hash != pending.sha256 {
        return Err("media_hash_mismatch");
    }
    if pending.mime == "image/svg+xml" && svg::validate(data).is_err() {
        return Err("media_bad_svg");
    }
    let dir = ctx.media_dir(&room.name);
    std::fs::create_dir_all(&dir).map_err(|_| "server_error")?;
    let tmp = dir.join(format!(".{}.tmp", new_id()));
    std::fs::write(&tmp, data)
        .and_then(|_| std::fs::rename(&tmp, dir.join(&hash)))
        .map_err(|_| "server_error")?;
    let record = MediaRecord {
        hash: hash.clone(),
        mime: pending.mime,
        size: pending.size,
        name: pending.name,
        uploader: pending.uploader.clone(),
        created_at: now_ts(),
        title: None,
    };
    {
        let mut st = room.lock();
        let (_, quota) = limits_for(ctx, &record.mime);
        if !st.saved.media.iter().any(|r| r.hash == hash) {
            if room_bytes(&st, record.mime.starts_with("audio/")) + record.size > quota {
                return Err("media_quota_exceeded");
            }
            st.saved.media.push(record.clone());
        }
        publish(&mut st, &record, &pending.uploader, None);
    }
    room.persist();
    Ok(hash)
}

/// `(bytes, mime, name)` a GET of `hash` serves: room media first, then assets of packs
/// enabled in this room, else `media_not_found`.
pub fn blob(
    ctx: &Context,
    room: &Room,
    hash: &str,
) -> Result<(Vec<u8>, String, String), &'static str> {
    let (record, enabled) = {
        let st = room.lock();
        (
            st.saved.media.iter().find(|r| r.hash == hash).cloned(),
            st.saved.packs.clone(),
        )
    };
    let (bytes, mime, name) = match record {
        Some(r) => {
            let bytes = std::fs::read(ctx.media_dir(&room.name).join(&r.hash))
                .map_err(|_| "media_not_found")?;
            (bytes, r.mime, r.name)
        }
        None => packs::asset_bytes(&ctx.packs, &enabled, hash).ok_or("media_not_found")?,
    };
    // Re-verify before serving: a blob changed on disk is not what the hash promised.
    if hex(sha2::Sha256::digest(&bytes)) != hash {
        return Err("media_not_found");
    }
    Ok((bytes, mime, name))
}
