//! The real engine hosted for a scenario: `test_support::engine::Engine` (loopback only), which
//! a scenario must own (one at a time), plus the engine's key ids.

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;

use test_support::engine::Engine;

pub struct EngineTable(Engine);

impl EngineTable {
    /// Starts an engine whose keys and data live in `dir`, with one keeper and one player key.
    pub fn start(dir: PathBuf) -> Self {
        crate::assert_in_scenario("an engine");
        EngineTable(Engine::start(dir))
    }

    /// The engine's key id for `key` (what `admin_delete_key` names): sha256, 16 hex digits.
    pub fn key_id(key: &str) -> String {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(key.as_bytes());
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}

impl Deref for EngineTable {
    type Target = Engine;
    fn deref(&self) -> &Engine {
        &self.0
    }
}

impl DerefMut for EngineTable {
    fn deref_mut(&mut self) -> &mut Engine {
        &mut self.0
    }
}
