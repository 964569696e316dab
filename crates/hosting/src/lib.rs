//! Hosting the real engine, the part with no window and no socket: where Studio finds an engine
//! ([`engine`]), what its `--version` probe means ([`probe`]), the hosting state machine
//! ([`state`]), the engine's log, kept as its last lines with secrets redacted ([`log`]), and the
//! hosted tables a profile keeps ([`tables`]), and the engine as Studio's child, tied to its life
//! in each platform's way ([`process`]).
//! The backend (`src-tauri/src/hosting/`) starts, watches and stops the process with these.

pub mod engine;
pub mod log;
pub mod probe;
pub mod process;
pub mod state;
pub mod tables;
