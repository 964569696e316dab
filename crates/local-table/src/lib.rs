//! The local table: a protocol-2.3 engine double with a scripted Keeper.
//!
//! It speaks the server side of the wire exactly like the engine (see the conformance
//! capture), over a Local-only iroh endpoint bound to 127.0.0.1. Studio starts one
//! in-process for "Play the demo table"; tests start one per case; pack authors run
//! `cargo run -p local-table -- serve --keys keys.toml --data DIR --pack DIR`.
//!
//! Inside, four layers, each importing only the ones below it (`tests/layers.rs` keeps it so):
//! `model` (room state, no I/O) ← `rules` (what a frame or command does) ← `wire` (the QUIC
//! side: carrier, sessions, media streams) ← `table` (start, shutdown, the demo). Outside
//! the crate only this file's re-exports are visible: the small modules below keep the paths
//! the app, the tests and xtask already use, and nothing more.

pub mod demo_story;
mod error;
mod model;
mod rules;
pub mod table;
pub mod watch;
mod wire;

use std::path::PathBuf;

pub use error::Error;
pub use model::saved::Var;
pub use rules::config::{Limits, Pacing, TableConfig};
pub use rules::keystore::{member_id, KeyEntry, KeySource};
pub use table::{DemoKeys, RunningTable};

/// Access keys as tests and tools mint and name them.
pub mod keystore {
    pub use crate::rules::keystore::{key_id, KeyEntry, KeySource};
}

/// Fresh ids (tests name their temporary folders with them).
pub mod ids {
    pub use crate::model::ids::new_id;
}

/// The Local-only endpoint and the line reader, for in-test clients.
pub mod carrier {
    pub use crate::wire::carrier::bind;
    pub use crate::wire::lines::LineReader;
}

/// Loading a pack folder the way the table does (the pack bench's first check).
pub mod packs {
    pub use crate::rules::packs::load;
    pub use pack::Problem;
}

/// The keeper's provider settings (their `Debug` must never print a key).
pub mod admin {
    pub use crate::rules::admin_config::{AdminState, Credential};
}

/// The entry point.
pub struct LocalTable;

impl LocalTable {
    /// Binds the Local-only endpoint and starts serving.
    pub async fn start(config: TableConfig) -> Result<RunningTable, Error> {
        table::start(config).await
    }

    /// Starts the demo table: a keeper key and a player key for room `demo`, kept in
    /// `data_dir/keys.toml` (reused on the next start, so the ticket's keys stay valid).
    pub async fn demo(data_dir: impl Into<PathBuf>) -> Result<(RunningTable, DemoKeys), Error> {
        let (config, keys) = table::demo_config(data_dir.into())?;
        Ok((table::start(config).await?, keys))
    }
}
