//! Tauri commands: thin shells over the transport and the pure protocol crate.

use serde::Serialize;

/// What the connect screen shows about this build.
#[derive(Debug, Clone, Serialize)]
pub struct StudioInfo {
    pub studio_version: &'static str,
    pub protocol_version: &'static str,
}

#[tauri::command]
pub fn studio_info() -> StudioInfo {
    StudioInfo {
        studio_version: env!("CARGO_PKG_VERSION"),
        protocol_version: protocol::PROTOCOL_VERSION,
    }
}
