//! A tier-1 panel template (`{"blocks": [...], "variables": [...], "locale": "…"}`) instantiated
//! against a viewer's variables, as every client does on every `state`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::template::resolve_panel_blocks;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let list = |key: &str| match input.get(key) {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    let locale = input.get("locale").and_then(Value::as_str).unwrap_or("en");
    let _ = resolve_panel_blocks(&list("blocks"), &list("variables"), locale);
});
