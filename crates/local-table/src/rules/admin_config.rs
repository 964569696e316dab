//! The keeper's model and image provider settings (`admin_config`): what is set, how keys
//! are masked, and the rule that keeps one endpoint's key away from another endpoint.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::rules::keystore::mask;

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
pub fn catalog(provider: &str) -> Vec<&'static str> {
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

    pub fn imagegen(&self) -> Value {
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
pub fn resolve_credential(
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
