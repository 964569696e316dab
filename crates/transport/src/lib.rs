//! Studio's carrier: the iroh endpoint (Internet or Local-only), the control stream with its
//! join handshake, version gate and reconnects, and the verified media channel and cache.
//!
//! Nothing here knows about Tauri: the app, `cargo xtask dial`/`bench` and the tests all drive
//! the same code. `testpeer` (feature `test-peer`) is a tiny engine double for tests, and `bench`
//! (feature `bench`) the loopback measurements of `cargo xtask bench`: test code the shipped app
//! does not compile.

#[cfg(feature = "bench")]
pub mod bench;
mod cache_files;
pub mod endpoint;
pub mod error;
mod events;
mod join;
pub mod media;
pub mod media_cache;
pub mod session;
mod supervisor;
#[cfg(feature = "test-peer")]
pub mod testpeer;
/// Reading a pasted ticket lives in its own pure crate (fuzzed there); re-exported here.
pub use ::ticket;

pub use endpoint::{
    addr_for, bind, bind_server, bind_server_with, online_ticket, ticket_for, NetworkMode,
    ServerOptions,
};
pub use error::TransportError;
pub use join::{backoff, CLIENT_NAME, JOIN_TIMEOUT};
pub use media::{MediaChannel, MediaError};
pub use media_cache::{CachedMedia, MediaCache};
pub use session::{
    ConnectionStatus, JoinParams, Session, SessionEvent, SessionHandle, UploadOutcome,
    UploadRequest,
};
pub use ticket::{parse_ticket, TicketError};
