//! Admin frames. The keystore role, re-read on every frame, is the only gate: anything
//! but a keeper gets `admin_error{forbidden}` before a single field is read.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::model::room::{Member, Room};
use crate::rules::admin_config::{catalog, resolve_credential, AdminState, PROVIDERS};
use crate::rules::admin_rooms;
use crate::rules::context::Context;
use crate::rules::reply::{admin_error, error};

fn s<'a>(frame: &'a Value, k: &str) -> Option<&'a str> {
    frame.get(k).and_then(Value::as_str)
}

pub async fn dispatch(ctx: &Arc<Context>, room: &Arc<Room>, member: &Member, frame: &Value) {
    let kind = s(frame, "type").unwrap_or("");
    if !admin_rooms::is_admin_frame(kind) {
        return member.send(&error("bad_frame"));
    }
    // Re-read the role from the keystore: a demoted key is no longer a keeper. A key
    // that is gone altogether (its room deleted) gets the engine's plain `error` frame.
    match current_role(ctx, room, member).as_deref() {
        Some("keeper") => {}
        Some(_) => {
            return member.send(&admin_error(
                "forbidden",
                "Admin actions require a keeper key.",
            ))
        }
        None => return member.send(&error("forbidden")),
    }
    let reply = match kind {
        "admin_get_config" => lock(ctx).config_frame(),
        "admin_list_models" => {
            let st = lock(ctx);
            let provider = s(frame, "provider").unwrap_or(&st.provider).to_string();
            if !PROVIDERS.contains(&provider.as_str()) {
                admin_error("unknown_provider", &format!("Unknown provider: {provider}"))
            } else {
                json!({"type": "admin_models", "provider": provider, "models": catalog(&provider), "imagegen": st.imagegen()})
            }
        }
        "admin_set_model" => set_model(ctx, room, member, frame),
        "admin_set_imagegen" => set_imagegen(ctx, frame),
        "admin_update_server" => update_server(ctx).await,
        // The table cannot reach a real model: once one is configured, generation fails
        // at once, as the engine's does against an unreachable endpoint.
        "admin_generate" if lock(ctx).override_active => llm_failed(frame),
        "admin_generate" => {
            let (ctx, member, frame) = (ctx.clone(), member.clone(), frame.clone());
            // A slow "LLM" call: answered later, without blocking this connection's reads.
            tokio::spawn(async move {
                tokio::time::sleep(ctx.cfg.pacing.generate).await;
                member.send(&admin_rooms::generated(&frame));
            });
            return;
        }
        _ => admin_rooms::dispatch(ctx, room, member, frame).await,
    };
    member.send(&reply);
}

/// The member's current role per the keystore (a demoted or deleted key loses its
/// powers mid-connection, as the engine re-authorizes each frame). `None`: revoked.
fn current_role(ctx: &Context, room: &Room, member: &Member) -> Option<String> {
    ctx.keys.by_member(&member.id, &room.name).map(|e| e.role)
}

fn llm_failed(frame: &Value) -> Value {
    json!({"type": "admin_generated", "kind": s(frame, "kind").unwrap_or("skill"), "ok": false,
           "id": "", "name": "", "error": "llm_failed: Connection error.", "detail": ""})
}

fn lock(ctx: &Context) -> std::sync::MutexGuard<'_, AdminState> {
    ctx.admin.lock().unwrap_or_else(|e| e.into_inner())
}

fn set_model(ctx: &Context, room: &Room, member: &Member, frame: &Value) -> Value {
    let Some(provider) = s(frame, "provider") else {
        return admin_error("bad_request", "provider is required");
    };
    if !PROVIDERS.contains(&provider) {
        return admin_error("unknown_provider", &format!("Unknown provider: {provider}"));
    }
    let reply = {
        let mut st = lock(ctx);
        let cred = resolve_credential(
            st.book.get(provider),
            s(frame, "api_key"),
            s(frame, "base_url"),
        );
        let model = s(frame, "chat_model")
            .map(str::to_string)
            .or_else(|| (st.provider == provider).then(|| st.chat_model.clone()))
            .or_else(|| catalog(provider).first().map(|m| m.to_string()))
            .unwrap_or_default();
        st.provider = provider.to_string();
        st.chat_model = model;
        st.current = cred.clone();
        st.book.insert(provider.to_string(), cred);
        st.override_active = true;
        st.config_frame()
    };
    // Other keepers in the room refresh too (never players: it names endpoints).
    let rs = room.lock();
    for m in rs
        .live
        .members
        .iter()
        .filter(|m| m.is_keeper() && m.conn != member.conn)
    {
        m.send(&reply);
    }
    reply
}

fn set_imagegen(ctx: &Context, frame: &Value) -> Value {
    let (Some(provider), Some(model)) = (s(frame, "provider"), s(frame, "model")) else {
        return admin_error("bad_request", "provider and model are required");
    };
    let mut st = lock(ctx);
    let cred = resolve_credential(
        st.image_book.get(provider),
        s(frame, "api_key"),
        s(frame, "base_url"),
    );
    st.image_provider = provider.to_string();
    st.image_model = model.to_string();
    if let Some(size) = s(frame, "size") {
        st.image_size = size.to_string();
    }
    st.image = cred.clone();
    st.image_book.insert(provider.to_string(), cred);
    st.config_frame()
}

/// Runs the operator's configured command (never anything from the client).
async fn update_server(ctx: &Context) -> Value {
    let Some(cmd) = ctx.cfg.update_command.clone() else {
        return admin_error("not_configured", "No update command is configured.");
    };
    // The system's shell, as an operator writes the command for it.
    #[cfg(windows)]
    let shell = ["cmd", "/C"];
    #[cfg(not(windows))]
    let shell = ["sh", "-c"];
    let out = tokio::process::Command::new(shell[0])
        .arg(shell[1])
        .arg(&cmd)
        .output()
        .await;
    match out {
        Ok(o) if o.status.success() => json!({"type": "admin_update", "status": "restarting"}),
        Ok(o) => {
            let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&o.stderr));
            let tail: String = text
                .chars()
                .rev()
                .take(2000)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            json!({"type": "admin_update", "status": "failed", "output": tail})
        }
        Err(e) => json!({"type": "admin_update", "status": "failed", "output": e.to_string()}),
    }
}
