//! Loopback measurements for `cargo xtask bench`: a raw copy of N bytes against Studio's verified
//! GET of the same N bytes (hash while streaming, temp file, rename), over one connection.
//!
//! Made fair on purpose (issue 12.3):
//! - the server sends clones (`Bytes` slices) of one body generated before any clock starts, so
//!   neither path pays for producing bytes, and both streams are identical on the wire (the same
//!   request, the same reply header, the same body, never finished: the client stops reading at
//!   the announced size, as with the engine);
//! - the raw copy reads with the verified GET's own loop (`read_many_chunks` of
//!   `CHUNKS_PER_READ` chunks, the same idle timeout, the same ~256 KiB batches), and lets each
//!   batch go where the GET hands it to its writing thread: the difference between the
//!   two is verification and the cache file, nothing else;
//! - a third path is the reference client's approach: the whole body read into memory, then
//!   hashed (no file); the verified GET, which hashes and writes while it receives, is held to
//!   be at least as fast (#30 item 6);
//! - [`BenchClient::compare`] rotates which path goes first, round by round, and
//!   [`Comparison`] reports the median of the per-round ratios;
//! - the verified GET writes wherever the caller says: `cargo xtask bench` picks a directory on
//!   the real media cache's filesystem.
//!
//! [`BenchClient::dial`] lets a fresh process (the bench's memory child) GET from a
//! [`BenchServer`] in another one.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use iroh::endpoint::{Connection, RecvStream, SendStream};
use iroh::{Endpoint, EndpointAddr};
use iroh_tickets::endpoint::EndpointTicket;
use sha2::{Digest, Sha256};

use crate::endpoint::{addr_for, bind, bind_server, ticket_for, NetworkMode};
use crate::media::{
    hex, parse_get_header, read_line, MediaChannel, BATCH_BYTES, CHUNKS_PER_READ, CHUNK_BYTES, IDLE,
};
use crate::media_cache::MediaCache;

#[derive(Debug, thiserror::Error)]
#[error("bench failed: {0}")]
pub struct BenchError(pub String);

fn err(e: impl std::fmt::Display) -> BenchError {
    BenchError(e.to_string())
}

/// One round's timings for `bytes` bytes.
#[derive(Debug, Clone, Copy)]
pub struct CopyTimes {
    pub bytes: u64,
    pub raw_copy: Duration,
    pub verified_get: Duration,
    /// The reference client's way: read it all into memory, then hash it.
    pub in_memory: Duration,
    /// The process's CPU time (all threads: the server's sending side too) while each path
    /// ran, in the order raw copy, verified GET, in-memory; `None` where it cannot be read.
    pub cpu: [Option<Duration>; 3],
}

impl CopyTimes {
    /// Verified GET throughput as a fraction of raw copy throughput (target ≥ 0.9).
    pub fn ratio(&self) -> f64 {
        self.raw_copy.as_secs_f64() / self.verified_get.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    /// Verified GET throughput as a fraction of the in-memory read-then-hash's.
    pub fn ratio_in_memory(&self) -> f64 {
        self.in_memory.as_secs_f64() / self.verified_get.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    pub fn raw_mb_per_s(&self) -> f64 {
        mb_per_s(self.bytes, self.raw_copy)
    }

    pub fn in_memory_mb_per_s(&self) -> f64 {
        mb_per_s(self.bytes, self.in_memory)
    }

    pub fn verified_mb_per_s(&self) -> f64 {
        mb_per_s(self.bytes, self.verified_get)
    }

    /// The best [`Self::ratio`] this round's CPU work allows on `cores` cores: the raw copy's
    /// time against the verified GET's CPU time spread perfectly over the cores. Sender and
    /// receiver share the machine, so when the raw copy already keeps every core busy, the
    /// hash and the file the GET adds cannot hide behind the transfer.
    pub fn ratio_ceiling(&self, cores: usize) -> Option<f64> {
        let cpu = self.cpu[1]?.as_secs_f64();
        (cpu > 0.0 && cores > 0).then(|| self.raw_copy.as_secs_f64() / (cpu / cores as f64))
    }
}

fn mb_per_s(bytes: u64, took: Duration) -> f64 {
    bytes as f64 / 1e6 / took.as_secs_f64().max(f64::MIN_POSITIVE)
}

/// The rounds of one size. Round `i` ran the paths in the order raw copy, verified GET,
/// in-memory, rotated by `i` places.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub bytes: u64,
    pub rounds: Vec<CopyTimes>,
}

impl Comparison {
    /// The median of the per-round ratios (each round's two paths ran back to back).
    pub fn median_ratio(&self) -> f64 {
        median(self.rounds.iter().map(CopyTimes::ratio).collect())
    }

    /// The median of the per-round verified GET / in-memory read-then-hash ratios.
    pub fn median_ratio_in_memory(&self) -> f64 {
        median(self.rounds.iter().map(CopyTimes::ratio_in_memory).collect())
    }

    /// The median in-memory read-then-hash throughput over the rounds.
    pub fn in_memory_mb_per_s(&self) -> f64 {
        median(
            self.rounds
                .iter()
                .map(CopyTimes::in_memory_mb_per_s)
                .collect(),
        )
    }

    /// The median raw copy throughput over the rounds.
    pub fn raw_mb_per_s(&self) -> f64 {
        median(self.rounds.iter().map(CopyTimes::raw_mb_per_s).collect())
    }

    /// The median verified GET throughput over the rounds.
    pub fn verified_mb_per_s(&self) -> f64 {
        median(
            self.rounds
                .iter()
                .map(CopyTimes::verified_mb_per_s)
                .collect(),
        )
    }

    /// The lowest and highest per-round ratio.
    pub fn ratio_range(&self) -> (f64, f64) {
        self.range(CopyTimes::ratio)
    }

    /// The lowest and highest per-round ratio against the in-memory read-then-hash.
    pub fn ratio_in_memory_range(&self) -> (f64, f64) {
        self.range(CopyTimes::ratio_in_memory)
    }

    /// The median CPU time of path `i` (0 raw copy, 1 verified GET, 2 in-memory) over the
    /// rounds, and how many cores it kept busy on average (CPU time / wall time).
    pub fn median_cpu(&self, i: usize) -> Option<(Duration, f64)> {
        let cpu: Option<Vec<f64>> = self
            .rounds
            .iter()
            .map(|r| r.cpu[i].map(|c| c.as_secs_f64()))
            .collect();
        let cpu = median(cpu?);
        let wall = median(
            self.rounds
                .iter()
                .map(|r| [r.raw_copy, r.verified_get, r.in_memory][i].as_secs_f64())
                .collect(),
        );
        (cpu.is_finite() && wall > 0.0).then(|| (Duration::from_secs_f64(cpu), cpu / wall))
    }

    /// The median of the rounds' [`CopyTimes::ratio_ceiling`].
    pub fn median_ratio_ceiling(&self, cores: usize) -> Option<f64> {
        let ceilings: Option<Vec<f64>> =
            self.rounds.iter().map(|r| r.ratio_ceiling(cores)).collect();
        Some(median(ceilings?)).filter(|c| c.is_finite())
    }

    fn range(&self, ratio: fn(&CopyTimes) -> f64) -> (f64, f64) {
        self.rounds
            .iter()
            .map(ratio)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| {
                (lo.min(r), hi.max(r))
            })
    }
}

/// The middle value (the mean of the two middle ones for an even count); NaN for none.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n.is_multiple_of(2) => (values[n / 2 - 1] + values[n / 2]) / 2.0,
        _ => values[n / 2],
    }
}

/// The body every request is served from: deterministic, not all zeros (so nothing is
/// accidentally cheap), generated once before anything is timed.
fn pregenerate(len: usize) -> Bytes {
    let mut body = vec![0u8; len];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in body.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.copy_from_slice(&x.to_le_bytes()[..b.len()]);
    }
    Bytes::from(body)
}

/// A Local-only endpoint serving the prefixes of one pre-generated body, one per size, by hash
/// (`{"op":"get","hash"}` → the engine's header line, then the bytes, the stream left open).
pub struct BenchServer {
    endpoint: Endpoint,
    hashes: HashMap<u64, String>,
    accept: tokio::task::JoinHandle<()>,
}

impl BenchServer {
    /// Generates one body of the largest size and hashes each size's prefix (all before any
    /// measurement), then starts accepting connections.
    pub async fn start(sizes: &[u64]) -> Result<Self, BenchError> {
        let mut sizes = sizes.to_vec();
        sizes.sort_unstable();
        sizes.dedup();
        let largest = *sizes
            .last()
            .ok_or_else(|| BenchError("no sizes to serve".into()))?;
        let body = pregenerate(usize::try_from(largest).map_err(err)?);
        let (mut blobs, mut hashes) = (HashMap::new(), HashMap::new());
        let (mut hasher, mut hashed) = (Sha256::new(), 0usize);
        for size in sizes {
            let size_usize = size as usize;
            hasher.update(&body[hashed..size_usize]);
            hashed = size_usize;
            let hash = hex(hasher.clone().finalize());
            blobs.insert(hash.clone(), body.slice(..size_usize));
            hashes.insert(size, hash);
        }
        let blobs = Arc::new(blobs);
        let endpoint = bind_server(NetworkMode::LocalOnly, vec![protocol::ALPN.to_vec()])
            .await
            .map_err(err)?;
        let accept = {
            let endpoint = endpoint.clone();
            tokio::spawn(async move {
                while let Some(incoming) = endpoint.accept().await {
                    let blobs = blobs.clone();
                    tokio::spawn(async move {
                        if let Ok(conn) =
                            async { incoming.accept()?.await.map_err(std::io::Error::other) }.await
                        {
                            serve(conn, blobs).await;
                        }
                    });
                }
            })
        };
        Ok(Self {
            endpoint,
            hashes,
            accept,
        })
    }

    /// The sha256 of the `bytes`-long body this server serves.
    pub fn hash(&self, bytes: u64) -> Result<String, BenchError> {
        self.hashes
            .get(&bytes)
            .cloned()
            .ok_or_else(|| BenchError(format!("the bench server has no {bytes}-byte body")))
    }

    /// A ticket another process can [`BenchClient::dial`].
    pub fn ticket(&self) -> String {
        ticket_for(&self.endpoint)
    }

    pub async fn close(self) {
        self.accept.abort();
        self.endpoint.close().await;
    }
}

/// Serves every stream of `conn`: a header line, then clones of the pre-generated body, one
/// protocol chunk at a time (no bytes generated or copied here). Never finishes the stream.
async fn serve(conn: Connection, blobs: Arc<HashMap<String, Bytes>>) {
    while let Ok((mut send, mut recv)) = conn.accept_bi().await {
        let blobs = blobs.clone();
        tokio::spawn(async move {
            let mut head = Vec::new();
            while !head.ends_with(b"\n") {
                match recv.read_chunk(1024).await {
                    Ok(Some(c)) => head.extend_from_slice(&c),
                    _ => return,
                }
            }
            let request: serde_json::Value = serde_json::from_slice(&head).unwrap_or_default();
            let hash = request["hash"].as_str().unwrap_or_default();
            let Some(body) = blobs.get(hash).cloned() else {
                let line = serde_json::json!({"type": "error", "code": "media_not_found",
                    "message": "No such media."});
                let _ = send.write_all(format!("{line}\n").as_bytes()).await;
                let _ = send.stopped().await;
                return;
            };
            let line = serde_json::json!({"op": "get", "hash": hash, "size": body.len(),
                "mime": "audio/ogg", "name": "bench.ogg"});
            if send
                .write_all(format!("{line}\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
            let mut offset = 0;
            while offset < body.len() {
                let end = (offset + CHUNK_BYTES).min(body.len());
                if send.write_chunk(body.slice(offset..end)).await.is_err() {
                    return;
                }
                offset = end;
            }
            // Like the engine: the client stops reading at the announced size.
            let _ = send.stopped().await;
        });
    }
}

/// A Local-only client with one connection to a [`BenchServer`]; both paths use it. A clone
/// shares the connection (only [`BenchClient::close`] closes it).
#[derive(Clone)]
pub struct BenchClient {
    endpoint: Endpoint,
    conn: Connection,
}

impl BenchClient {
    /// Connects to a server in this process.
    pub async fn connect(server: &BenchServer) -> Result<Self, BenchError> {
        Self::connect_to(addr_for(&server.endpoint)).await
    }

    /// Connects to a server in another process, by its [`BenchServer::ticket`].
    pub async fn dial(ticket: &str) -> Result<Self, BenchError> {
        let ticket: EndpointTicket = ticket.trim().parse().map_err(err)?;
        Self::connect_to(EndpointAddr::from(ticket)).await
    }

    async fn connect_to(addr: EndpointAddr) -> Result<Self, BenchError> {
        let endpoint = bind(NetworkMode::LocalOnly).await.map_err(err)?;
        let conn = endpoint.connect(addr, protocol::ALPN).await.map_err(err)?;
        Ok(Self { endpoint, conn })
    }

    /// The raw copy: the same request and header parsing as a GET, the body read with the GET's
    /// own loop (`read_discarding`) and then let go. Timed from opening the stream to the last
    /// byte, as the verified GET is.
    pub async fn raw_copy(&self, hash: &str, bytes: u64) -> Result<Duration, BenchError> {
        let start = Instant::now();
        let (mut send, mut recv) = open_get(&self.conn, hash).await?;
        let (line, leftover) = read_line(&mut recv).await.map_err(err)?;
        let header = parse_get_header(hash, &line).map_err(err)?;
        if header.size != bytes {
            return Err(BenchError(format!(
                "the server announced {} bytes, not {bytes}",
                header.size
            )));
        }
        let received = read_discarding(&mut recv, leftover, header.size).await;
        let _ = recv.stop(0u32.into());
        let _ = send.finish();
        let took = start.elapsed();
        match received? {
            got if got == bytes => Ok(took),
            got => Err(BenchError(format!("raw copy got {got} of {bytes} bytes"))),
        }
    }

    /// The reference client's approach: the same request, the whole body read into one buffer,
    /// then hashed and checked. Timed from opening the stream to the hash checked.
    pub async fn in_memory(&self, hash: &str, bytes: u64) -> Result<Duration, BenchError> {
        let start = Instant::now();
        let (mut send, mut recv) = open_get(&self.conn, hash).await?;
        let (line, leftover) = read_line(&mut recv).await.map_err(err)?;
        let header = parse_get_header(hash, &line).map_err(err)?;
        let size = header.size.min(bytes) as usize;
        let mut body = leftover;
        body.truncate(size);
        body.reserve(size - body.len());
        while body.len() < size {
            let read = tokio::time::timeout(IDLE, recv.read_chunk(size - body.len())).await;
            match read {
                Err(_) => return Err(BenchError("the in-memory read stalled".into())),
                Ok(Err(e)) => return Err(err(e)),
                Ok(Ok(None)) => break,
                Ok(Ok(Some(chunk))) => body.extend_from_slice(&chunk),
            }
        }
        let _ = recv.stop(0u32.into());
        let _ = send.finish();
        let got = hex(Sha256::digest(&body));
        let took = start.elapsed();
        if body.len() as u64 != bytes || got != hash {
            return Err(BenchError(format!(
                "the in-memory read got {} of {bytes} bytes, hashing to {got}",
                body.len()
            )));
        }
        Ok(took)
    }

    /// Studio's verified GET (`MediaCache::get`, the app's own code) of `hash` into a fresh cache
    /// under `cache_dir`, which is removed afterwards (outside the timing).
    pub async fn verified_get(
        &self,
        hash: &str,
        bytes: u64,
        cache_dir: &Path,
    ) -> Result<Duration, BenchError> {
        let dir = cache_dir.join(format!("bench-{:016x}", rand::random::<u64>()));
        let cache = MediaCache::open(&dir, u64::MAX).map_err(err)?;
        let channel = MediaChannel::new(self.conn.clone());
        let start = Instant::now();
        let result = cache.get(&channel, hash, Some(bytes)).await;
        let took = start.elapsed();
        let _ = std::fs::remove_dir_all(&dir);
        let got = result.map_err(err)?;
        if got.size != bytes {
            return Err(BenchError(format!(
                "the verified GET cached {} of {bytes} bytes",
                got.size
            )));
        }
        Ok(took)
    }

    /// `rounds` rounds of the three paths for the `bytes`-long body `hash`, rotating which goes
    /// first, so none always inherits another's aftermath (a warmer connection, freed memory,
    /// the page cache's work). Each path runs as a task on the runtime's workers, as Studio's
    /// GET does (the media cache spawns its transfer). Read on the thread that blocks on the
    /// runtime instead, a path contends with the workers as a third thread on two cores: the
    /// raw copy read ~20% slower that way, which flattered the ratio (#30).
    pub async fn compare(
        &self,
        hash: &str,
        bytes: u64,
        rounds: usize,
        cache_dir: &Path,
    ) -> Result<Comparison, BenchError> {
        let mut times = Vec::with_capacity(rounds);
        for round in 0..rounds {
            let mut took = [Duration::ZERO; 3];
            let mut cpu = [None; 3];
            for k in 0..3 {
                let path = (round + k) % 3;
                let (client, hash, dir) = (self.clone(), hash.to_string(), cache_dir.to_owned());
                // Read before the task starts: a worker may begin it before `spawn` returns.
                let before = process_cpu();
                let task = tokio::spawn(async move {
                    match path {
                        0 => client.raw_copy(&hash, bytes).await,
                        1 => client.verified_get(&hash, bytes, &dir).await,
                        _ => client.in_memory(&hash, bytes).await,
                    }
                });
                took[path] = task.await.map_err(err)??;
                cpu[path] = process_cpu()
                    .zip(before)
                    .map(|(after, b)| after.saturating_sub(b));
            }
            times.push(CopyTimes {
                bytes,
                raw_copy: took[0],
                verified_get: took[1],
                in_memory: took[2],
                cpu,
            });
        }
        Ok(Comparison {
            bytes,
            rounds: times,
        })
    }

    pub async fn close(self) {
        self.conn.close(0u32.into(), b"done");
        self.endpoint.close().await;
    }
}

/// This process's CPU time so far, every thread's, user and system (`getrusage`).
#[cfg(unix)]
fn process_cpu() -> Option<Duration> {
    // SAFETY: getrusage fills the zeroed struct it is given; RUSAGE_SELF is always valid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Some(time(usage.ru_utime) + time(usage.ru_stime))
}

#[cfg(not(unix))]
fn process_cpu() -> Option<Duration> {
    None
}

/// Opens a media stream and sends a GET request line, as `MediaChannel` does.
async fn open_get(conn: &Connection, hash: &str) -> Result<(SendStream, RecvStream), BenchError> {
    let (mut send, recv) = conn.open_bi().await.map_err(err)?;
    let mut line =
        serde_json::to_vec(&serde_json::json!({"op": "get", "hash": hash})).map_err(err)?;
    line.push(b'\n');
    send.write_all(&line).await.map_err(err)?;
    Ok((send, recv))
}

/// Reads exactly `size` body bytes with the loop of `MediaChannel::get_to_file` (same read call,
/// chunk count, idle timeout, truncation and batching); where that hashes each chunk and hands
/// batches to the writing thread, this drops them. Returns the bytes received (fewer if the
/// stream ended).
async fn read_discarding(
    recv: &mut RecvStream,
    mut leftover: Vec<u8>,
    size: u64,
) -> Result<u64, BenchError> {
    leftover.truncate(size.min(leftover.len() as u64) as usize);
    let mut received = leftover.len() as u64;
    drop(leftover);
    let mut chunks = vec![Bytes::new(); CHUNKS_PER_READ];
    let (mut batch, mut batch_bytes) = (Vec::new(), 0usize);
    while received < size {
        let read = tokio::time::timeout(IDLE, recv.read_many_chunks(&mut chunks)).await;
        let n = match read {
            Err(_) => {
                return Err(BenchError(format!(
                    "the raw copy stalled (no bytes for {} s)",
                    IDLE.as_secs()
                )))
            }
            Ok(Err(e)) => return Err(err(e)),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(n))) => n,
        };
        for chunk in &mut chunks[..n] {
            let mut chunk = std::mem::take(chunk);
            chunk.truncate((size - received).min(chunk.len() as u64) as usize);
            received += chunk.len() as u64;
            batch_bytes += chunk.len();
            batch.push(chunk);
        }
        if batch_bytes >= BATCH_BYTES || received >= size {
            batch_bytes = 0;
            // A fresh Vec per batch, as the GET's (whose batches move to the writer thread).
            drop(std::mem::take(&mut batch));
        }
    }
    Ok(received)
}

/// One round (raw copy first) of `bytes` bytes over a fresh Local-only loopback connection,
/// after a raw warm-up. The verified file lands in a fresh cache under `cache_dir` and is removed
/// after. [`BenchClient::compare`] is the fair measurement; this is the quick one.
pub async fn copy_vs_verified_get(bytes: u64, cache_dir: &Path) -> Result<CopyTimes, BenchError> {
    let warm = bytes.min(8 << 20);
    let server = BenchServer::start(&[warm, bytes]).await?;
    let result = async {
        let client = BenchClient::connect(&server).await?;
        let measured = async {
            // Warm the path (congestion window, allocator) so the first measurement is not
            // penalized.
            client.raw_copy(&server.hash(warm)?, warm).await?;
            client
                .compare(&server.hash(bytes)?, bytes, 1, cache_dir)
                .await
        }
        .await;
        client.close().await;
        measured
    }
    .await;
    server.close().await;
    Ok(result?.rounds[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(raw_ms: u64, get_ms: u64, get_cpu_ms: Option<u64>) -> CopyTimes {
        CopyTimes {
            bytes: 1 << 20,
            raw_copy: Duration::from_millis(raw_ms),
            verified_get: Duration::from_millis(get_ms),
            in_memory: Duration::from_millis(get_ms),
            cpu: [None, get_cpu_ms.map(Duration::from_millis), None],
        }
    }

    #[test]
    fn the_ceiling_spreads_the_gets_cpu_over_the_cores() {
        // 300 ms of CPU on 2 cores takes at least 150 ms: at best 100/150 of the raw copy.
        let r = round(100, 200, Some(300));
        assert!((r.ratio_ceiling(2).unwrap() - 2.0 / 3.0).abs() < 1e-9);
        assert!((r.ratio_ceiling(4).unwrap() - 4.0 / 3.0).abs() < 1e-9);
        assert_eq!(r.ratio_ceiling(0), None);
        assert_eq!(round(100, 200, None).ratio_ceiling(2), None);
        let c = Comparison {
            bytes: 1 << 20,
            rounds: vec![
                round(100, 200, Some(300)),
                round(100, 200, Some(200)),
                round(90, 200, Some(300)),
            ],
        };
        assert!((c.median_ratio_ceiling(2).unwrap() - 2.0 / 3.0).abs() < 1e-9);
        let (cpu, busy) = c.median_cpu(1).unwrap();
        assert_eq!(cpu, Duration::from_millis(300));
        assert!((busy - 1.5).abs() < 1e-9);
        assert_eq!(
            c.median_cpu(0),
            None,
            "a path whose CPU was not read has no figure"
        );
    }
}
