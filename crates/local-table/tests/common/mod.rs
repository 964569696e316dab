//! A minimal in-test iroh client on loopback (Local-only endpoint), real connections.
//! Every frame it reads must decode with `protocol` to a known variant.

#![allow(dead_code)]

pub mod capture;
pub mod shape;

use std::path::{Path, PathBuf};
use std::time::Duration;

use iroh::endpoint::{Connection, SendStream};
use iroh_tickets::endpoint::EndpointTicket;
use local_table::carrier::LineReader;
use local_table::{KeyEntry, KeySource, LocalTable, Pacing, RunningTable, TableConfig};
use serde_json::{json, Value};

pub const KEEPER: &str = "keeper-key-0123456789";
pub const PLAYER: &str = "player-key-0123456789";
pub const PLAYER2: &str = "player2-key-0123456789";

pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lt-{tag}-{}", local_table::ids::new_id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn entry(room: &str, name: &str, role: &str) -> KeyEntry {
    KeyEntry {
        room: room.into(),
        name: name.into(),
        role: role.into(),
    }
}

pub fn fixture_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test-pack")
}

/// A config with a keeper and two players in room `demo`, fast pacing.
pub fn config(tag: &str) -> TableConfig {
    let keys = KeySource::Memory(vec![
        (KEEPER.into(), entry("demo", "Keeper", "keeper")),
        (PLAYER.into(), entry("demo", "Player", "player")),
        (PLAYER2.into(), entry("demo", "Bea", "player")),
    ]);
    let mut cfg = TableConfig::new(keys, temp_dir(tag));
    cfg.pacing = Pacing::fast();
    cfg.packs = vec![fixture_pack()];
    cfg
}

pub async fn start(cfg: TableConfig) -> RunningTable {
    LocalTable::start(cfg).await.expect("table starts")
}

pub struct Client {
    /// Kept alive for as long as the connection is used.
    pub endpoint: iroh::Endpoint,
    pub conn: Connection,
    send: SendStream,
    lines: LineReader,
    pub seen: Vec<Value>,
}

/// Decodes with the protocol crate and insists on a known frame type.
pub fn check_decodes(line: &str) -> Value {
    match protocol::codec::decode_server(line) {
        Ok(frame) => assert!(
            !frame.is_unknown(),
            "table emitted an unknown frame: {line}"
        ),
        Err(e) => panic!("table emitted an undecodable frame ({e}): {line}"),
    }
    serde_json::from_str(line).unwrap()
}

pub async fn connect(ticket: &str) -> (iroh::Endpoint, Connection) {
    let endpoint = local_table::carrier::bind(None, 0).await.unwrap();
    let ticket: EndpointTicket = ticket.parse().unwrap();
    let conn = endpoint
        .connect(ticket.endpoint_addr().clone(), protocol::ALPN)
        .await
        .expect("connects over loopback");
    (endpoint, conn)
}

impl Client {
    /// Connects and sends `join`, without reading anything.
    pub async fn open(table: &RunningTable, key: &str) -> Client {
        Client::dial(&table.ticket(), key).await
    }

    /// Like [`Client::open`], for any server's ticket (the real engine's too).
    pub async fn dial(ticket: &str, key: &str) -> Client {
        let (endpoint, conn) = connect(ticket).await;
        let (send, recv) = conn.open_bi().await.unwrap();
        let mut c = Client {
            endpoint,
            conn,
            send,
            lines: LineReader::new(recv),
            seen: vec![],
        };
        c.send(json!({"type": "join", "key": key, "client": {"name": "test", "version": "0"}}))
            .await;
        c
    }

    /// Joins and reads through the join sequence (up to this viewer's ui_manifest).
    pub async fn join(table: &RunningTable, key: &str) -> Client {
        let mut c = Client::open(table, key).await;
        let frames = c.until(|f| f["type"] == "ui_manifest").await;
        assert_eq!(frames[0]["type"], "welcome", "{frames:?}");
        c
    }

    /// Leaves like a real client: closes the connection, then the endpoint.
    pub async fn close(self) {
        self.conn.close(0u32.into(), b"bye");
        self.endpoint.close().await;
    }

    pub async fn send(&mut self, frame: Value) {
        let mut line = frame.to_string();
        line.push('\n');
        self.send.write_all(line.as_bytes()).await.unwrap();
    }

    pub async fn input(&mut self, text: &str) {
        self.send(json!({"type": "input", "text": text})).await;
    }

    /// The next frame, or `None` if the stream ended.
    pub async fn try_next(&mut self, wait: Duration) -> Option<Value> {
        let line = tokio::time::timeout(wait, self.lines.next_line())
            .await
            .ok()??;
        let v = check_decodes(&line);
        self.seen.push(v.clone());
        Some(v)
    }

    pub async fn next(&mut self) -> Value {
        self.try_next(Duration::from_secs(15))
            .await
            .expect("a frame arrives")
    }

    /// Frames up to and including the first one matching `pred`.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut out = vec![];
        loop {
            let f = self.next().await;
            let done = pred(&f);
            out.push(f);
            if done {
                return out;
            }
        }
    }

    /// Frames up to the next `state` (commands end with one).
    pub async fn until_state(&mut self) -> Vec<Value> {
        self.until(|f| f["type"] == "state").await
    }

    /// Frames of a whole Keeper turn: up to the state after `turn_status idle`.
    pub async fn until_turn_end(&mut self) -> Vec<Value> {
        let mut out = self
            .until(|f| f["type"] == "turn_status" && f["status"] == "idle")
            .await;
        out.extend(self.until_state().await);
        out
    }

    /// Asserts nothing arrives for a short while.
    pub async fn quiet(&mut self, ms: u64) {
        if let Some(f) = self.try_next(Duration::from_millis(ms)).await {
            panic!("unexpected frame {f}");
        }
    }

    /// One media stream: header + optional body; returns the raw reply bytes.
    pub async fn media(&self, header: Value, body: &[u8]) -> Vec<u8> {
        let (mut send, mut recv) = self.conn.open_bi().await.unwrap();
        let mut line = header.to_string();
        line.push('\n');
        send.write_all(line.as_bytes()).await.unwrap();
        for chunk in body.chunks(64 * 1024) {
            send.write_all(chunk).await.unwrap();
        }
        send.finish().unwrap();
        tokio::time::timeout(Duration::from_secs(15), recv.read_to_end(64 << 20))
            .await
            .expect("media reply in time")
            .unwrap()
    }

    /// A GET: `Ok((header, body))` or `Err(error frame)`.
    pub async fn get(&self, hash: &str) -> Result<(Value, Vec<u8>), Value> {
        let raw = self.media(json!({"op": "get", "hash": hash}), &[]).await;
        let nl = raw.iter().position(|b| *b == b'\n').expect("a header line");
        let header: Value = serde_json::from_slice(&raw[..nl]).unwrap();
        protocol::codec::decode_media_reply(std::str::from_utf8(&raw[..nl]).unwrap())
            .expect("media reply decodes");
        if header.get("type").is_some() {
            return Err(header);
        }
        Ok((header, raw[nl + 1..].to_vec()))
    }

    /// A PUT; returns the reply line as JSON.
    pub async fn put(&self, upload_id: &str, body: &[u8]) -> Value {
        let raw = self
            .media(json!({"op": "put", "upload_id": upload_id}), body)
            .await;
        let text = String::from_utf8(raw).unwrap();
        protocol::codec::decode_media_reply(text.trim_end()).expect("media reply decodes");
        serde_json::from_str(text.trim_end()).unwrap()
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn types(frames: &[Value]) -> Vec<String> {
    frames
        .iter()
        .map(|f| f["type"].as_str().unwrap_or("").to_string())
        .collect()
}
