//! Errors of the control connection, in words a player can act on.

/// Why a session could not start, or stopped for good.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TransportError {
    #[error("could not start the network endpoint: {0}")]
    Bind(String),
    #[error(transparent)]
    Ticket(#[from] crate::ticket::TicketError),
    #[error("could not reach the table: {0}")]
    Connect(String),
    #[error(
        "the table did not answer the join within {secs} s (an iroh table sends nothing when its \
         own join timeout fires): check that the table is running and the ticket is current"
    )]
    JoinTimeout { secs: u64 },
    #[error("the table rejected the key: {message}")]
    BadKey { message: String },
    /// A different major version: Studio refuses rather than misreading frames.
    #[error(
        "this table speaks protocol {server}; Studio speaks {ours} — update whichever is behind"
    )]
    VersionRefused { server: String, ours: String },
    #[error("the table refused the join ({code}): {message}")]
    JoinRejected { code: String, message: String },
    /// The table talked instead of answering: more before `welcome` than any table sends.
    #[error(
        "the table sent {frames} frames ({bytes} bytes) without answering the join; Studio \
         stops listening past {max_frames} frames or {max_kib} KiB before a welcome"
    )]
    FloodBeforeWelcome {
        frames: usize,
        bytes: usize,
        max_frames: usize,
        max_kib: usize,
    },
    /// Closed before any answer: a real engine writes `bad_key` best-effort and closes at once,
    /// so the frame is often lost on the way.
    #[error(
        "the table closed the connection without welcoming Studio: most likely it did not admit \
         this invite key (a wrong, mistyped or deleted key)"
    )]
    NotAdmitted,
    #[error("the connection closed during the join: {0}")]
    Closed(String),
    #[error("{field} is {len} characters; the protocol allows at most {max}. Nothing was sent.")]
    TooLong {
        field: &'static str,
        len: usize,
        max: usize,
    },
    #[error("not connected to the table right now; try again once it is back online")]
    Offline,
    #[error("the session has ended")]
    SessionEnded,
}

pub type Result<T, E = TransportError> = std::result::Result<T, E>;
