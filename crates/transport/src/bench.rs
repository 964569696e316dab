//! Loopback measurements for `cargo xtask bench`: a raw iroh stream copy of N bytes against
//! Studio's verified GET of the same N bytes (hash while streaming, temp file, rename).
//!
//! The serving side generates its bytes on the fly instead of holding a blob, so the process's
//! peak RSS reflects the client's streaming, not the server's copy of the file.

use std::path::Path;
use std::time::{Duration, Instant};

use iroh::endpoint::{Connection, SendStream};
use sha2::{Digest, Sha256};

use crate::endpoint::{addr_for, bind, bind_server, NetworkMode};
use crate::media::{hex, MediaChannel, CHUNK_BYTES};
use crate::media_cache::MediaCache;

#[derive(Debug, thiserror::Error)]
#[error("bench failed: {0}")]
pub struct BenchError(pub String);

fn err(e: impl std::fmt::Display) -> BenchError {
    BenchError(e.to_string())
}

/// One run's timings for `bytes` bytes.
#[derive(Debug, Clone, Copy)]
pub struct CopyTimes {
    pub bytes: u64,
    pub raw_copy: Duration,
    pub verified_get: Duration,
}

impl CopyTimes {
    /// Verified GET throughput as a fraction of raw copy throughput (target ≥ 0.9).
    pub fn ratio(&self) -> f64 {
        self.raw_copy.as_secs_f64() / self.verified_get.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    pub fn raw_mb_per_s(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.raw_copy.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    pub fn verified_mb_per_s(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.verified_get.as_secs_f64().max(f64::MIN_POSITIVE)
    }
}

/// Deterministic body chunk `i` (not all zeros, so nothing is accidentally cheap).
fn chunk(i: u64, len: usize) -> Vec<u8> {
    let mut c = vec![0u8; len];
    let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for b in c.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
    }
    c
}

fn body_hash(bytes: u64) -> String {
    let mut h = Sha256::new();
    let mut sent = 0u64;
    let mut i = 0;
    while sent < bytes {
        let len = (bytes - sent).min(CHUNK_BYTES as u64) as usize;
        h.update(chunk(i, len));
        sent += len as u64;
        i += 1;
    }
    hex(&h.finalize())
}

async fn write_body(send: &mut SendStream, bytes: u64) -> Result<(), BenchError> {
    let mut sent = 0u64;
    let mut i = 0;
    while sent < bytes {
        let len = (bytes - sent).min(CHUNK_BYTES as u64) as usize;
        send.write_all(&chunk(i, len)).await.map_err(err)?;
        sent += len as u64;
        i += 1;
    }
    Ok(())
}

/// Serves `{"op":"raw", size}` (size bytes, then finish) and `{"op":"get",hash}` (header + N bytes).
async fn serve(conn: Connection, bytes: u64, hash: String) {
    while let Ok((mut send, mut recv)) = conn.accept_bi().await {
        let hash = hash.clone();
        tokio::spawn(async move {
            let mut head = Vec::new();
            while !head.ends_with(b"\n") {
                match recv.read_chunk(1024).await {
                    Ok(Some(c)) => head.extend_from_slice(&c),
                    _ => return,
                }
            }
            let header: serde_json::Value = serde_json::from_slice(&head).unwrap_or_default();
            if header["op"] == "get" {
                let line = serde_json::json!({"op": "get", "hash": hash, "size": bytes,
                    "mime": "audio/ogg", "name": "bench.ogg"});
                let _ = send.write_all(format!("{line}\n").as_bytes()).await;
            }
            let size = header["size"].as_u64().unwrap_or(bytes);
            let _ = write_body(&mut send, size).await;
            if header["op"] == "raw" {
                let _ = send.finish();
            }
            let _ = send.stopped().await;
        });
    }
}

/// Reads a `{"op":"raw"}` stream to its end, discarding the bytes (the server sends `bytes`).
async fn raw_copy(conn: &Connection, expected: u64) -> Result<(), BenchError> {
    let (mut send, mut recv) = conn.open_bi().await.map_err(err)?;
    let header = format!("{{\"op\":\"raw\",\"size\":{expected}}}\n");
    send.write_all(header.as_bytes()).await.map_err(err)?;
    let mut got = 0u64;
    while let Some(c) = recv.read_chunk(CHUNK_BYTES).await.map_err(err)? {
        got += c.len() as u64;
    }
    (got == expected)
        .then_some(())
        .ok_or_else(|| BenchError(format!("raw copy got {got} of {expected} bytes")))
}

/// Times a raw stream copy and a verified GET of `bytes` bytes over one Local-only loopback
/// connection. The verified file lands in a fresh cache under `cache_dir` and is removed after.
pub async fn copy_vs_verified_get(bytes: u64, cache_dir: &Path) -> Result<CopyTimes, BenchError> {
    copy_vs_verified_get_probed(bytes, cache_dir, || {}).await
}

/// [`copy_vs_verified_get`], calling `before_get` just before the verified GET starts, so a caller
/// can reset or sample the process's peak RSS for the GET alone (not the raw copy before it).
pub async fn copy_vs_verified_get_probed(
    bytes: u64,
    cache_dir: &Path,
    before_get: impl FnOnce() + Send,
) -> Result<CopyTimes, BenchError> {
    let hash = body_hash(bytes);
    let server = bind_server(NetworkMode::LocalOnly, vec![protocol::ALPN.to_vec()])
        .await
        .map_err(err)?;
    let client = bind(NetworkMode::LocalOnly).await.map_err(err)?;
    let accept = {
        let (server, hash) = (server.clone(), hash.clone());
        tokio::spawn(async move {
            if let Some(incoming) = server.accept().await {
                if let Ok(conn) =
                    async { incoming.accept()?.await.map_err(std::io::Error::other) }.await
                {
                    serve(conn, bytes, hash).await;
                }
            }
        })
    };
    let conn = client
        .connect(addr_for(&server), protocol::ALPN)
        .await
        .map_err(err)?;

    // Warm the path (congestion window, allocator) so the first measurement is not penalized.
    raw_copy(&conn, bytes.min(8 << 20)).await?;
    let start = Instant::now();
    raw_copy(&conn, bytes).await?;
    let raw_copy = start.elapsed();

    let dir = cache_dir.join(format!("bench-{:016x}", rand::random::<u64>()));
    let cache = MediaCache::open(&dir, u64::MAX).map_err(err)?;
    before_get();
    let start = Instant::now();
    let result = cache
        .get(&MediaChannel::new(conn.clone()), &hash, Some(bytes))
        .await;
    let verified_get = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    result.map_err(err)?;

    conn.close(0u32.into(), b"done");
    accept.abort();
    client.close().await;
    server.close().await;
    Ok(CopyTimes {
        bytes,
        raw_copy,
        verified_get,
    })
}
