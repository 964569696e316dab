//! Loreweaver wire protocol 2.3, as pure Rust: no I/O, no async, no platform code.
//! Compiled natively (unit tests, the Tauri backend, the local table) and into the wasm UI.

/// The protocol version Studio speaks.
pub const PROTOCOL_VERSION: &str = "2.3";
/// The major version that must match the server's `welcome.protocol`.
pub const PROTOCOL_MAJOR: u32 = 2;
/// ALPN of the iroh carrier.
pub const ALPN: &[u8] = b"loreweaver/tui/1";

pub mod codec;
pub mod frame;
pub mod media;
pub mod version;
pub use frame::{ClientFrame, ServerFrame};
pub mod condexpr;
pub mod conformance;
pub mod intent_gate;
mod jsnum;
pub mod keeper;
pub mod route;
pub mod session;
pub mod template;
