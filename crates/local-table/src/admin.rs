//! Admin frames. The keystore role, re-read on every frame, is the only gate: anything
//! but a keeper gets `admin_error{forbidden}` before a single field is read.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::keystore::mask;
use crate::room::{Member, Room};
use crate::table::Table;

pub const PROVIDERS: &[&str] = &[
    "deepseek",
    "fireworks",
    "groq",
    "lmstudio",
    "mistral",
    "moonshot",
    "ollama",
    "openai",
    "openrouter",
    "supergrok",
    "together",
    "vllm",
    "xai",
    "zhipu",
    "chatgpt",
    "gpt-subscription",
    "anthropic",
    "gemini",
];

/// The offline model catalog (the table never calls out to list models).
fn catalog(provider: &str) -> Vec<&'static str> {
    match provider {
        "openai" => vec!["gpt-4o", "gpt-4o-mini", "gpt-4.1", "o3-mini"],
        "anthropic" => vec!["claude-sonnet-4", "claude-haiku-4"],
        "gemini" => vec!["gemini-2.5-pro", "gemini-2.5-flash"],
        "deepseek" => vec!["deepseek-chat", "deepseek-reasoner"],
        _ => vec![],
    }
}

#[derive(Clone, Default)]
pub struct Credential {
    pub api_key: String,
    pub base_url: String,
}

/// A provider key is a secret: `Debug` says whether one is set, never what it is.
impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let key = if self.api_key.is_empty() {
            "(none)"
        } else {
            "(set)"
        };
        f.debug_struct("Credential")
            .field("api_key", &format_args!("{key}"))
            .field("base_url", &self.base_url)
            .finish()
    }
}

#[derive(Debug, Clone)]
pub struct AdminState {
    pub provider: String,
    pub chat_model: String,
    pub current: Credential,
    pub book: BTreeMap<String, Credential>,
    pub override_active: bool,
    pub image_provider: String,
    pub image_model: String,
    pub image_size: String,
    pub image: Credential,
    pub image_book: BTreeMap<String, Credential>,
}

impl Default for AdminState {
    fn default() -> Self {
        Self {
            provider: "openai".into(),
            chat_model: "gpt-4o".into(),
            current: Credential::default(),
            book: BTreeMap::new(),
            override_active: false,
            image_provider: String::new(),
            image_model: String::new(),
            image_size: "1024x1024".into(),
            image: Credential::default(),
            image_book: BTreeMap::new(),
        }
    }
}

fn masked(key: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        mask(key)
    }
}

/// The imagegen key as the engine shows it: all but the last four characters starred.
fn starred(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    // A key of four characters or fewer would be shown whole: star all of it.
    if chars.len() <= 4 {
        return "*".repeat(chars.len());
    }
    let keep = chars.len() - 4;
    let tail: String = chars[keep..].iter().collect();
    format!("{}{tail}", "*".repeat(keep))
}

impl AdminState {
    /// Gates the `imagegen` welcome feature for joins after a keeper configured it.
    pub fn imagegen_configured(&self) -> bool {
        !self.image_provider.is_empty() && !self.image_model.is_empty()
    }

    fn imagegen(&self) -> Value {
        json!({
            "provider": self.image_provider, "base_url": self.image.base_url, "model": self.image_model,
            "size": self.image_size, "api_key_masked": starred(&self.image.api_key),
            "has_key": !self.image.api_key.is_empty(),
            "configured": self.imagegen_configured(),
            "saved_providers": self.image_book.keys().collect::<Vec<_>>(),
        })
    }

    pub fn config_frame(&self) -> Value {
        json!({
            "type": "admin_config", "provider": self.provider, "chat_model": self.chat_model,
            "base_url": self.current.base_url, "api_key_masked": masked(&self.current.api_key),
            "providers": PROVIDERS, "saved_providers": self.book.keys().collect::<Vec<_>>(),
            "override_active": self.override_active, "imagegen": self.imagegen(),
            // The scripted Keeper is the table's "demo fallback" until a model is set.
            "using_demo": !self.override_active, "subscription_status": "",
        })
    }
}

/// The endpoint/key isolation rule: an omitted key is reused only while the endpoint
/// is unchanged; a new base_url without a new key clears the key; "" clears a field.
fn resolve_credential(
    saved: Option<&Credential>,
    api_key: Option<&str>,
    base_url: Option<&str>,
) -> Credential {
    let old = saved.cloned().unwrap_or_default();
    let base_url = base_url
        .map(str::to_string)
        .unwrap_or_else(|| old.base_url.clone());
    let api_key = match api_key {
        Some(k) => k.to_string(),
        None if base_url == old.base_url => old.api_key,
        None => String::new(),
    };
    Credential { api_key, base_url }
}

pub fn admin_error(code: &str, message: &str) -> Value {
    json!({"type": "admin_error", "code": code, "message": message})
}

fn s<'a>(frame: &'a Value, k: &str) -> Option<&'a str> {
    frame.get(k).and_then(Value::as_str)
}

pub async fn dispatch(table: &Arc<Table>, room: &Arc<Room>, member: &Member, frame: &Value) {
    let kind = s(frame, "type").unwrap_or("");
    if !crate::admin_rooms::is_admin_frame(kind) {
        return member.send(&crate::session::error("bad_frame"));
    }
    // Re-read the role from the keystore: a demoted key is no longer a keeper. A key
    // that is gone altogether (its room deleted) gets the engine's plain `error` frame.
    match crate::session::current_role(table, room, member).as_deref() {
        Some("keeper") => {}
        Some(_) => {
            return member.send(&admin_error(
                "forbidden",
                "Admin actions require a keeper key.",
            ))
        }
        None => return member.send(&crate::session::error("forbidden")),
    }
    let reply = match kind {
        "admin_get_config" => lock(table).config_frame(),
        "admin_list_models" => {
            let st = lock(table);
            let provider = s(frame, "provider").unwrap_or(&st.provider).to_string();
            if !PROVIDERS.contains(&provider.as_str()) {
                admin_error("unknown_provider", &format!("Unknown provider: {provider}"))
            } else {
                json!({"type": "admin_models", "provider": provider, "models": catalog(&provider), "imagegen": st.imagegen()})
            }
        }
        "admin_set_model" => set_model(table, room, member, frame),
        "admin_set_imagegen" => set_imagegen(table, frame),
        "admin_update_server" => update_server(table).await,
        // The table cannot reach a real model: once one is configured, generation fails
        // at once, as the engine's does against an unreachable endpoint.
        "admin_generate" if lock(table).override_active => llm_failed(frame),
        "admin_generate" => {
            let (table, member, frame) = (table.clone(), member.clone(), frame.clone());
            // A slow "LLM" call: answered later, without blocking this connection's reads.
            tokio::spawn(async move {
                tokio::time::sleep(table.cfg.pacing.generate).await;
                member.send(&crate::admin_rooms::generated(&frame));
            });
            return;
        }
        _ => crate::admin_rooms::dispatch(table, room, member, frame).await,
    };
    member.send(&reply);
}

fn llm_failed(frame: &Value) -> Value {
    json!({"type": "admin_generated", "kind": s(frame, "kind").unwrap_or("skill"), "ok": false,
           "id": "", "name": "", "error": "llm_failed: Connection error.", "detail": ""})
}

fn lock(table: &Table) -> std::sync::MutexGuard<'_, AdminState> {
    table.admin.lock().unwrap_or_else(|e| e.into_inner())
}

fn set_model(table: &Table, room: &Room, member: &Member, frame: &Value) -> Value {
    let Some(provider) = s(frame, "provider") else {
        return admin_error("bad_request", "provider is required");
    };
    if !PROVIDERS.contains(&provider) {
        return admin_error("unknown_provider", &format!("Unknown provider: {provider}"));
    }
    let reply = {
        let mut st = lock(table);
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

fn set_imagegen(table: &Table, frame: &Value) -> Value {
    let (Some(provider), Some(model)) = (s(frame, "provider"), s(frame, "model")) else {
        return admin_error("bad_request", "provider and model are required");
    };
    let mut st = lock(table);
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
async fn update_server(table: &Table) -> Value {
    let Some(cmd) = table.cfg.update_command.clone() else {
        return admin_error("not_configured", "No update command is configured.");
    };
    let out = tokio::process::Command::new("sh")
        .arg("-c")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imagegen_key_mask() {
        assert_eq!(starred("sk-img-not-real"), "***********real");
        assert_eq!(starred("abcd"), "****");
        assert_eq!(starred(""), "");
    }

    #[test]
    fn isolation_rule() {
        let saved = Credential {
            api_key: "sk-old".into(),
            base_url: "https://a".into(),
        };
        assert_eq!(
            resolve_credential(Some(&saved), None, None).api_key,
            "sk-old"
        );
        assert_eq!(
            resolve_credential(Some(&saved), None, Some("https://a")).api_key,
            "sk-old"
        );
        assert_eq!(
            resolve_credential(Some(&saved), None, Some("https://b")).api_key,
            ""
        );
        assert_eq!(resolve_credential(Some(&saved), Some(""), None).api_key, "");
        assert_eq!(
            resolve_credential(Some(&saved), Some("sk-new"), Some("https://b")).api_key,
            "sk-new"
        );
    }
}
