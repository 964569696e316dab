//! The iroh carrier: a Local-only endpoint (loopback, no relay, no lookup, no port
//! mapper), the newline-delimited control stream, and the per-connection lifecycle.

use std::sync::Arc;
use std::time::Duration;

use iroh::endpoint::{
    presets, Connection, NetReportConfig, PortmapperConfig, RecvStream, SendStream,
};
use iroh::{Endpoint, EndpointAddr, RelayMode, SecretKey, TransportAddr};
use iroh_tickets::endpoint::EndpointTicket;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::room::{Member, Out};
use crate::table::Table;
use crate::Error;

/// Longest control line accepted; a client streaming garbage without newlines is cut off.
const MAX_LINE: usize = 1 << 20;

/// Binds the Local-only endpoint: nothing it does can send a packet off loopback.
pub async fn bind(secret: Option<SecretKey>, port: u16) -> Result<Endpoint, Error> {
    let mut builder = Endpoint::builder(presets::Minimal)
        .relay_mode(RelayMode::Disabled)
        .clear_address_lookup()
        .portmapper_config(PortmapperConfig::Disabled)
        .net_report_config(NetReportConfig::minimal())
        .clear_ip_transports()
        .bind_addr(format!("127.0.0.1:{port}").as_str())
        .map_err(|e| Error::Bind(e.to_string()))?
        .alpns(vec![protocol::ALPN.to_vec()]);
    if let Some(secret) = secret {
        builder = builder.secret_key(secret);
    }
    builder.bind().await.map_err(|e| Error::Bind(e.to_string()))
}

/// A ticket naming the endpoint and its loopback sockets (there is no relay to name).
pub fn ticket_for(endpoint: &Endpoint) -> EndpointTicket {
    let addrs = endpoint.bound_sockets().into_iter().map(TransportAddr::Ip);
    EndpointTicket::new(EndpointAddr::from_parts(endpoint.id(), addrs))
}

pub async fn accept_loop(endpoint: Endpoint, table: Arc<Table>) {
    while let Some(incoming) = endpoint.accept().await {
        let table = table.clone();
        tokio::spawn(async move {
            let Ok(accepting) = incoming.accept() else {
                return;
            };
            let Ok(conn) = accepting.await else { return };
            if conn.alpn() != protocol::ALPN {
                conn.close(0u32.into(), b"bad alpn");
                return;
            }
            serve_connection(table, conn).await;
        });
    }
}

/// Reads newline-delimited lines off a QUIC stream.
pub struct LineReader {
    recv: RecvStream,
    buf: Vec<u8>,
    eof: bool,
}

impl LineReader {
    pub fn new(recv: RecvStream) -> Self {
        Self {
            recv,
            buf: Vec::new(),
            eof: false,
        }
    }

    /// The next line (without `\n`), `None` at end of stream or on error.
    pub async fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(pos) = self.buf.iter().position(|b| *b == b'\n') {
                let rest = self.buf.split_off(pos + 1);
                let mut line = std::mem::replace(&mut self.buf, rest);
                line.pop();
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            if self.eof || self.buf.len() > MAX_LINE {
                return None;
            }
            let mut chunk = [0u8; 16 * 1024];
            match self.recv.read(&mut chunk).await {
                Ok(Some(n)) => self.buf.extend_from_slice(&chunk[..n]),
                _ => self.eof = true,
            }
        }
    }

    /// Bytes already buffered past the last line, then the stream itself.
    pub fn into_parts(self) -> (Vec<u8>, RecvStream) {
        (self.buf, self.recv)
    }
}

/// The writer task: the only place that touches the control stream's send half.
async fn writer(mut send: SendStream, mut rx: mpsc::UnboundedReceiver<Out>, conn: Connection) {
    while let Some(out) = rx.recv().await {
        match out {
            Out::Line(mut line) => {
                line.push('\n');
                if send.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
            }
            Out::Close => {
                let _ = send.finish();
                // Give the peer a moment to read the error before the connection goes.
                let _ = tokio::time::timeout(Duration::from_secs(2), conn.closed()).await;
                conn.close(0u32.into(), b"closed");
                break;
            }
        }
    }
}

fn error_frame(code: &str) -> Value {
    json!({"type": "error", "code": code, "message": crate::session::message(code)})
}

async fn serve_connection(table: Arc<Table>, conn: Connection) {
    let timeout = table.cfg.limits.join_timeout;
    let deadline = tokio::time::Instant::now() + timeout;
    let Ok(Ok((send, recv))) = tokio::time::timeout_at(deadline, conn.accept_bi()).await else {
        // No stream was ever opened, so there is nowhere to write join_timeout.
        conn.close(0u32.into(), b"join_timeout");
        return;
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let writer_task = tokio::spawn(writer(send, rx, conn.clone()));
    let mut lines = LineReader::new(recv);
    let first = match tokio::time::timeout_at(deadline, lines.next_line()).await {
        Ok(Some(line)) => line,
        Ok(None) => {
            let _ = tx.send(Out::Close);
            let _ = writer_task.await;
            return;
        }
        Err(_) => {
            let _ = tx.send(Out::Line(error_frame("join_timeout").to_string()));
            let _ = tx.send(Out::Close);
            let _ = writer_task.await;
            return;
        }
    };
    let join: Value = serde_json::from_str(&first).unwrap_or(Value::Null);
    let key = join.get("key").and_then(Value::as_str).unwrap_or("");
    let entry = if join.get("type").and_then(Value::as_str) == Some("join") && !key.is_empty() {
        table.keys.lookup(key)
    } else {
        None
    };
    let Some(entry) = entry else {
        let _ = tx.send(Out::Line(error_frame("bad_key").to_string()));
        let _ = tx.send(Out::Close);
        let _ = writer_task.await;
        return;
    };
    let member = Member {
        conn: table.next_conn(),
        id: crate::keystore::member_id(key),
        name: if entry.name.is_empty() {
            crate::keystore::member_id(key)
        } else {
            entry.name.clone()
        },
        role: entry.role.clone(),
        tx: tx.clone(),
    };
    let room = table.room(&entry.room);
    crate::session::join(&table, &room, &member);

    let media_task = tokio::spawn(crate::media::accept_streams(
        table.clone(),
        room.clone(),
        member.clone(),
        conn.clone(),
    ));
    let inputs = crate::session::input_queue(table.clone(), room.clone(), member.clone());
    while let Some(line) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        crate::session::on_line(&table, &room, &member, &inputs, &line).await;
    }
    media_task.abort();
    crate::session::leave(&table, &room, &member);
    let _ = tx.send(Out::Close);
    drop(tx);
    let _ = tokio::time::timeout(Duration::from_secs(3), writer_task).await;
}
