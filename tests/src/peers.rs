//! The peers a test's window joins, run inside the test process on loopback only: a local
//! table (the demo story, fast pacing, a fixed identity and port so it can be restarted under
//! the same ticket) and the transport's misbehaving test peer.

use std::path::PathBuf;
use std::sync::Arc;

use local_table::table::demo_config;
use local_table::{DemoKeys, LocalTable, Pacing, RunningTable, TableConfig};
use transport::testpeer::{PeerConfig, PeerState, TestPeer};

/// A multi-threaded runtime the test owns: the peers' tasks run on it while the test thread
/// drives the window.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// The transport's test peer, started on `rt` with its own fresh counters.
pub fn test_peer(rt: &tokio::runtime::Runtime, config: PeerConfig) -> TestPeer {
    rt.block_on(TestPeer::start(config, Arc::new(PeerState::default())))
        .expect("the peer starts")
}

/// A free UDP port on 127.0.0.1 (iroh binds UDP).
pub use test_support::engine::free_udp_port;

/// A fresh, private directory under the system temp dir.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("studio-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating the test dir");
    dir
}

/// The demo story served by a local table in this process, restartable under the same ticket.
pub struct TestTable {
    rt: tokio::runtime::Runtime,
    config: TableConfig,
    keys: DemoKeys,
    running: Option<RunningTable>,
    ticket: String,
}

impl TestTable {
    /// Starts a table whose keys, rooms and media live in `dir`.
    pub fn start(dir: PathBuf) -> Self {
        let (mut config, keys) = demo_config(dir).expect("the demo config");
        config.secret_key = Some(iroh::SecretKey::from_bytes(&rand_bytes()));
        config.port = free_udp_port();
        config.pacing = Pacing::fast();
        let mut table = TestTable {
            rt: runtime(),
            config,
            keys,
            running: None,
            ticket: String::new(),
        };
        table.restart();
        table.ticket = table.running.as_ref().expect("started").ticket();
        table
    }

    pub fn ticket(&self) -> &str {
        &self.ticket
    }

    pub fn keeper_key(&self) -> &str {
        &self.keys.keeper
    }

    pub fn player_key(&self) -> &str {
        &self.keys.player
    }

    /// Stops accepting, closes every connection (persisting the rooms) and frees the port.
    pub fn shutdown(&mut self) {
        if let Some(t) = self.running.take() {
            self.rt.block_on(t.shutdown());
        }
    }

    /// Starts again with the same identity, port and data dir: the old ticket works again.
    pub fn restart(&mut self) {
        self.shutdown();
        // `RunningTable::shutdown` returns only once the port is free again.
        let running = self
            .rt
            .block_on(LocalTable::start(self.config.clone()))
            .unwrap_or_else(|e| panic!("the local table did not start: {e}"));
        if !self.ticket.is_empty() {
            assert_eq!(running.ticket(), self.ticket, "a restart keeps the ticket");
        }
        self.running = Some(running);
    }
}

impl Drop for TestTable {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn rand_bytes() -> [u8; 32] {
    // Distinct per test process and call; no need for cryptographic quality in a test.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
        ^ ((std::process::id() as u128) << 64);
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = (seed >> ((i % 16) * 8)) as u8 ^ (i as u8).wrapping_mul(37);
    }
    out
}
