//! Frame ids, timestamps and hex, shaped like the engine's (uuid4 hex, float seconds).

use rand::Rng;

/// 32 lowercase hex characters, like Python's `uuid.uuid4().hex`.
pub fn new_id() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    hex(bytes)
}

/// Lowercase hex, as the engine prints digests and ids.
pub use hex::encode as hex;

/// Seconds since the epoch as a float, like `time.time()`.
pub fn now_ts() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Milliseconds since the epoch, for `server_ts` / `started_at`.
pub fn now_ms() -> u64 {
    (now_ts() * 1000.0) as u64
}
