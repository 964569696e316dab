//! A tiny engine double on loopback: just enough of the server side of protocol 2.3 to test the
//! transport (join, ping, media GET/PUT) and to serve the bench. Not a table: see `local-table`.
//!
//! Misbehaviour is opt-in per blob ([`Serve`]) or per peer ([`PeerConfig`]), so each test names
//! the one thing the peer does wrong.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use iroh::endpoint::{Connection, RecvStream, SendStream};
use iroh::{Endpoint, SecretKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::endpoint::{bind_server_with, ticket_for, NetworkMode, ServerOptions};
use crate::media::hex;

/// How the peer serves one blob's GET.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Serve {
    Honest,
    /// One byte flipped: the hash will not match.
    Tampered,
    /// Only this many bytes, then the stream is finished.
    Truncated(usize),
    /// The header announces this size (e.g. over the limit); the body is the real one.
    AnnounceSize(u64),
}

#[derive(Debug, Clone)]
pub struct Blob {
    pub bytes: Arc<Vec<u8>>,
    pub mime: String,
    pub name: String,
    pub serve: Serve,
}

/// What the peer accepts and how it misbehaves.
#[derive(Debug, Clone)]
pub struct PeerConfig {
    /// Accepted keys → member name.
    pub keys: HashMap<String, String>,
    /// `welcome.protocol`.
    pub protocol: String,
    /// Never answer a join (an iroh engine sends nothing when its join timeout fires).
    pub silent_join: bool,
    /// Close on an unknown key without a word (the real engine's `bad_key` is often lost).
    pub silent_bad_key: bool,
    /// Take `input` lines without echoing them (a table that died before it got to them).
    pub mute_inputs: bool,
    /// Raw lines written before `welcome` (a table that talks instead of answering).
    pub before_welcome: Vec<String>,
    /// Raw lines written right after `welcome` (e.g. an oversize line).
    pub after_welcome: Vec<String>,
    /// Lines written after those, one per `paced_every` on average (a steady stream of deltas),
    /// while the peer goes on answering.
    pub paced: Vec<String>,
    pub paced_every: Duration,
    /// How long after the welcome the paced lines begin.
    pub paced_from: Duration,
    /// Delay before each GET body, so concurrent requests overlap.
    pub get_delay: Duration,
    /// Flip a byte of every PUT body before verifying it (→ `media_hash_mismatch`).
    pub mangle_puts: bool,
    pub secret_key: SecretKey,
    pub port: u16,
}

impl Default for PeerConfig {
    fn default() -> Self {
        Self {
            keys: HashMap::from([("good-key".to_string(), "Alice".to_string())]),
            protocol: protocol::PROTOCOL_VERSION.to_string(),
            silent_join: false,
            silent_bad_key: false,
            mute_inputs: false,
            before_welcome: Vec::new(),
            after_welcome: Vec::new(),
            paced: Vec::new(),
            paced_every: Duration::from_millis(1),
            paced_from: Duration::ZERO,
            get_delay: Duration::ZERO,
            mangle_puts: false,
            secret_key: SecretKey::from_bytes(&rand::random::<[u8; 32]>()),
            port: 0,
        }
    }
}

/// Counters and state shared by the peer's tasks, readable from tests.
#[derive(Debug, Default)]
pub struct PeerState {
    pub blobs: Mutex<HashMap<String, Blob>>,
    /// upload_id → (sha256, size, mime, name)
    uploads: Mutex<HashMap<String, (String, u64, String, String)>>,
    pub gets: AtomicUsize,
    pub joins: AtomicUsize,
    pub puts: AtomicUsize,
    /// When the last `welcome` was handed to the control stream: milliseconds since the Unix
    /// epoch (the bench's join paint starts here, where the frame leaves the table).
    pub welcome_sent_ms: Mutex<Option<f64>>,
}

impl PeerState {
    pub fn get_count(&self) -> usize {
        self.gets.load(Ordering::SeqCst)
    }
}

/// A running peer. Dropping it (or [`TestPeer::shutdown`]) stops it.
pub struct TestPeer {
    pub endpoint: Endpoint,
    pub state: Arc<PeerState>,
    tasks: JoinSet<()>,
}

/// sha256 hex of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes))
}

impl TestPeer {
    /// Binds Local-only on 127.0.0.1 and starts accepting. `state` is reused across restarts.
    pub async fn start(config: PeerConfig, state: Arc<PeerState>) -> crate::error::Result<Self> {
        let options = ServerOptions {
            secret_key: Some(config.secret_key.clone()),
            port: config.port,
        };
        // A restart may race the old socket's release for a moment.
        let mut attempt = 0;
        let endpoint = loop {
            match bind_server_with(
                NetworkMode::LocalOnly,
                vec![protocol::ALPN.to_vec()],
                options.clone(),
            )
            .await
            {
                Ok(ep) => break ep,
                Err(e) if attempt < 20 => {
                    attempt += 1;
                    tracing::debug!("test peer bind retry: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => return Err(e),
            }
        };
        let mut tasks = JoinSet::new();
        let (ep, st, cfg) = (endpoint.clone(), state.clone(), Arc::new(config));
        tasks.spawn(async move {
            let mut conns = JoinSet::new();
            while let Some(incoming) = ep.accept().await {
                let (st, cfg) = (st.clone(), cfg.clone());
                conns.spawn(async move {
                    let Ok(accepting) = incoming.accept() else {
                        return;
                    };
                    if let Ok(conn) = accepting.await {
                        serve_connection(conn, st, cfg).await;
                    }
                });
            }
        });
        Ok(Self {
            endpoint,
            state,
            tasks,
        })
    }

    pub fn ticket(&self) -> String {
        ticket_for(&self.endpoint)
    }

    pub fn port(&self) -> u16 {
        self.endpoint
            .bound_sockets()
            .first()
            .map(|s| s.port())
            .unwrap_or(0)
    }

    /// Adds a blob the peer will serve; returns its hash.
    pub fn add_blob(&self, bytes: Vec<u8>, mime: &str, name: &str, serve: Serve) -> String {
        let hash = sha256_hex(&bytes);
        let blob = Blob {
            bytes: Arc::new(bytes),
            mime: mime.into(),
            name: name.into(),
            serve,
        };
        self.state.blobs.lock().unwrap().insert(hash.clone(), blob);
        hash
    }

    /// Closes every connection and the endpoint, releasing the port.
    pub async fn shutdown(mut self) {
        self.endpoint.close().await;
        self.tasks.shutdown().await;
    }
}

async fn serve_connection(conn: Connection, state: Arc<PeerState>, cfg: Arc<PeerConfig>) {
    let Ok((send, recv)) = conn.accept_bi().await else {
        return;
    };
    let (out_tx, out_rx) = mpsc::channel::<String>(256);
    let mut tasks = JoinSet::new();
    tasks.spawn(write_lines(send, out_rx));
    let joined = control(recv, out_tx.clone(), &state, &cfg);
    tokio::pin!(joined);
    // Media streams are accepted only alongside the control stream.
    loop {
        tokio::select! {
            _ = &mut joined => break,
            bi = conn.accept_bi() => match bi {
                Ok((s, r)) => { tasks.spawn(media_stream(s, r, state.clone(), cfg.clone(), out_tx.clone())); }
                Err(_) => break,
            },
        }
    }
    drop(out_tx);
    conn.close(0u32.into(), b"bye");
}

async fn write_lines(mut send: SendStream, mut rx: mpsc::Receiver<String>) {
    while let Some(mut line) = rx.recv().await {
        line.push('\n');
        if send.write_all(line.as_bytes()).await.is_err() {
            break;
        }
    }
}

async fn read_line(recv: &mut RecvStream, buf: &mut Vec<u8>) -> Option<Vec<u8>> {
    loop {
        if let Some(pos) = buf.iter().position(|&b| b == b'\n') {
            let mut line: Vec<u8> = buf.drain(..=pos).collect();
            line.pop();
            return Some(line);
        }
        let chunk = recv.read_chunk(64 * 1024).await.ok()??;
        buf.extend_from_slice(&chunk);
    }
}

async fn control(
    mut recv: RecvStream,
    out: mpsc::Sender<String>,
    state: &PeerState,
    cfg: &PeerConfig,
) {
    let mut buf = Vec::new();
    let Some(line) = read_line(&mut recv, &mut buf).await else {
        return;
    };
    let join: Value = serde_json::from_slice(&line).unwrap_or_default();
    state.joins.fetch_add(1, Ordering::SeqCst);
    if cfg.silent_join || join["type"] != "join" {
        let _ = read_line(&mut recv, &mut buf).await;
        return;
    }
    let Some(name) = join["key"].as_str().and_then(|k| cfg.keys.get(k)) else {
        if cfg.silent_bad_key {
            return;
        }
        let _ = out
            .send(
                json!({"type": "error", "code": "bad_key", "message": "Unknown key."}).to_string(),
            )
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        return;
    };
    let welcome = json!({"type": "welcome", "protocol": cfg.protocol, "features": ["media", "audio"],
        "room": "test", "you": {"id": "tui:00000001", "name": name, "role": "keeper"},
        "locale": "en", "server": "testpeer/1", "version": "0.0.0"});
    for line in &cfg.before_welcome {
        let _ = out.send(line.clone()).await;
    }
    let sent = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    *state.welcome_sent_ms.lock().expect("peer state") = Some(sent);
    let _ = out.send(welcome.to_string()).await;
    for line in &cfg.after_welcome {
        let _ = out.send(line.clone()).await;
    }
    if !cfg.paced.is_empty() {
        let (lines, every, out) = (cfg.paced.clone(), cfg.paced_every, out.clone());
        let from = cfg.paced_from;
        tokio::spawn(async move {
            tokio::time::sleep(from).await;
            // A late tick is made up at once (the default), so the rate holds on average.
            let mut tick = tokio::time::interval(every);
            for line in lines {
                tick.tick().await;
                if out.send(line).await.is_err() {
                    return;
                }
            }
        });
    }
    while let Some(line) = read_line(&mut recv, &mut buf).await {
        let frame: Value = serde_json::from_slice(&line).unwrap_or_default();
        let reply = match frame["type"].as_str() {
            Some("ping") => json!({"type": "pong", "t": frame["t"]}),
            Some("input") if cfg.mute_inputs => continue,
            Some("input") => json!({"type": "narrative", "id": rand::random::<u64>().to_string(),
                "speaker": "player", "name": name, "text": frame["text"], "format": "plain"}),
            Some("media_offer") => offer(&frame, state),
            _ => json!({"type": "error", "code": "bad_frame", "message": "Malformed message."}),
        };
        let _ = out.send(reply.to_string()).await;
    }
}

fn offer(frame: &Value, state: &PeerState) -> Value {
    let sha = frame["sha256"].as_str().unwrap_or_default().to_string();
    if state.blobs.lock().unwrap().contains_key(&sha) {
        return json!({"type": "media_accept", "upload_id": "", "existing": true});
    }
    let id = format!("{:032x}", rand::random::<u128>());
    let entry = (
        sha,
        frame["size"].as_u64().unwrap_or(0),
        frame["mime"].as_str().unwrap_or_default().to_string(),
        frame["name"].as_str().unwrap_or_default().to_string(),
    );
    state.uploads.lock().unwrap().insert(id.clone(), entry);
    json!({"type": "media_accept", "upload_id": id})
}

async fn media_stream(
    mut send: SendStream,
    mut recv: RecvStream,
    state: Arc<PeerState>,
    cfg: Arc<PeerConfig>,
    control: mpsc::Sender<String>,
) {
    let mut buf = Vec::new();
    let Some(line) = read_line(&mut recv, &mut buf).await else {
        return;
    };
    let header: Value = serde_json::from_slice(&line).unwrap_or_default();
    let reply = match header["op"].as_str() {
        Some("get") => return serve_get(send, header, &state, &cfg).await,
        Some("put") => receive_put(&mut recv, buf, &header, &state, &cfg, &control).await,
        _ => json!({"type": "error", "code": "bad_frame", "message": "Malformed media header."}),
    };
    let _ = send.write_all(format!("{reply}\n").as_bytes()).await;
    let _ = send.finish();
    let _ = send.stopped().await;
}

async fn serve_get(mut send: SendStream, header: Value, state: &PeerState, cfg: &PeerConfig) {
    state.gets.fetch_add(1, Ordering::SeqCst);
    let hash = header["hash"].as_str().unwrap_or_default().to_string();
    let blob = state.blobs.lock().unwrap().get(&hash).cloned();
    let Some(blob) = blob else {
        let err = json!({"type": "error", "code": "media_not_found", "message": "No such media."});
        let _ = send.write_all(format!("{err}\n").as_bytes()).await;
        let _ = send.stopped().await;
        return;
    };
    let size = match blob.serve {
        Serve::AnnounceSize(n) => n,
        _ => blob.bytes.len() as u64,
    };
    // The engine's own header is not compact: parse, never compare bytes.
    let head = format!(
        "{{\"op\": \"get\", \"hash\": \"{hash}\", \"size\": {size}, \"mime\": {}, \"name\": {}}}\n",
        json!(blob.mime),
        json!(blob.name)
    );
    if send.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    tokio::time::sleep(cfg.get_delay).await;
    let body: &[u8] = match blob.serve {
        Serve::Truncated(n) => &blob.bytes[..n.min(blob.bytes.len())],
        _ => &blob.bytes,
    };
    for (i, chunk) in body.chunks(64 * 1024).enumerate() {
        let mut chunk = chunk.to_vec();
        if blob.serve == Serve::Tampered && i == 0 && !chunk.is_empty() {
            chunk[0] ^= 0xff;
        }
        if send.write_all(&chunk).await.is_err() {
            return;
        }
    }
    if matches!(blob.serve, Serve::Truncated(_)) {
        let _ = send.finish();
    }
    // Like the engine: never finish an honest GET; wait for the client to stop reading.
    let _ = send.stopped().await;
}

async fn receive_put(
    recv: &mut RecvStream,
    mut body: Vec<u8>,
    header: &Value,
    state: &PeerState,
    cfg: &PeerConfig,
    control: &mpsc::Sender<String>,
) -> Value {
    state.puts.fetch_add(1, Ordering::SeqCst);
    let id = header["upload_id"].as_str().unwrap_or_default();
    let Some((sha, size, mime, name)) = state.uploads.lock().unwrap().remove(id) else {
        return json!({"type": "error", "code": "media_bad_upload", "message": "Unknown upload."});
    };
    while let Ok(Some(chunk)) = recv.read_chunk(64 * 1024).await {
        body.extend_from_slice(&chunk);
    }
    if cfg.mangle_puts && !body.is_empty() {
        body[0] ^= 0xff;
    }
    if body.len() as u64 != size {
        return json!({"type": "error", "code": "media_size_mismatch", "message": "Size mismatch."});
    }
    if sha256_hex(&body) != sha {
        return json!({"type": "error", "code": "media_hash_mismatch", "message": "Hash mismatch."});
    }
    let blob = Blob {
        bytes: Arc::new(body),
        mime: mime.clone(),
        name: name.clone(),
        serve: Serve::Honest,
    };
    state.blobs.lock().unwrap().insert(sha.clone(), blob);
    // The engine broadcasts before it answers put_ok; clients must not depend on the order.
    let media = json!({"type": "media", "id": "m1", "hash": sha, "mime": mime, "size": size,
        "name": name, "from": "Alice", "ts": 0});
    let _ = control.send(media.to_string()).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    json!({"op": "put_ok", "hash": sha})
}
