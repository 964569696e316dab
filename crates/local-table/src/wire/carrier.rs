//! The iroh carrier: a Local-only endpoint (loopback, no relay, no lookup, no port
//! mapper), the newline-delimited control stream, and the per-connection lifecycle.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use iroh::endpoint::{presets, Connection, NetReportConfig, PortmapperConfig, SendStream};
use iroh::{Endpoint, EndpointAddr, RelayMode, SecretKey, TransportAddr};
use iroh_tickets::endpoint::EndpointTicket;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;

use crate::error::Error;
use crate::model::room::{Member, Out};
use crate::rules::context::Context;
use crate::rules::keystore::member_id;
use crate::rules::reply::error;
use crate::wire::lines::LineReader;
use crate::wire::{media, session};

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

/// Waits until each of `sockets` can be bound again, at most `within`. iroh lets go of a
/// closed endpoint's socket on a thread of its own a few milliseconds after `close`
/// returns; a table restarted on the same port must not race it.
pub async fn released(sockets: &[SocketAddr], within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    for addr in sockets {
        while std::net::UdpSocket::bind(addr).is_err() {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    true
}

/// A ticket naming the endpoint and its loopback sockets (there is no relay to name).
pub fn ticket_for(endpoint: &Endpoint) -> EndpointTicket {
    let addrs = endpoint.bound_sockets().into_iter().map(TransportAddr::Ip);
    EndpointTicket::new(EndpointAddr::from_parts(endpoint.id(), addrs))
}

/// Accepts connections until the endpoint closes; each one is served on its own task.
/// Every task that holds a connection is spawned on `tasks`: a live connection keeps the
/// socket open, so waiting on `tasks` is what tells shutdown the port is free again.
pub async fn accept_loop(endpoint: Endpoint, ctx: Arc<Context>, tasks: TaskTracker) {
    // Connection numbers, unique per table, counted from 1 as members join.
    let next_conn = Arc::new(AtomicU64::new(1));
    while let Some(incoming) = endpoint.accept().await {
        let (ctx, next_conn, inner) = (ctx.clone(), next_conn.clone(), tasks.clone());
        tasks.spawn(async move {
            let Ok(accepting) = incoming.accept() else {
                return;
            };
            let Ok(conn) = accepting.await else { return };
            if conn.alpn() != protocol::ALPN {
                conn.close(0u32.into(), b"bad alpn");
                return;
            }
            serve_connection(ctx, &next_conn, conn, &inner).await;
        });
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

async fn serve_connection(
    ctx: Arc<Context>,
    next_conn: &AtomicU64,
    conn: Connection,
    tasks: &TaskTracker,
) {
    let timeout = ctx.cfg.limits.join_timeout;
    let deadline = tokio::time::Instant::now() + timeout;
    let Ok(Ok((send, recv))) = tokio::time::timeout_at(deadline, conn.accept_bi()).await else {
        // No stream was ever opened, so there is nowhere to write join_timeout.
        conn.close(0u32.into(), b"join_timeout");
        return;
    };
    let (tx, rx) = mpsc::unbounded_channel();
    let writer_task = tasks.spawn(writer(send, rx, conn.clone()));
    let mut lines = LineReader::new(recv);
    let first = match tokio::time::timeout_at(deadline, lines.next_line()).await {
        Ok(Some(line)) => line,
        Ok(None) => {
            let _ = tx.send(Out::Close);
            let _ = writer_task.await;
            return;
        }
        Err(_) => {
            let _ = tx.send(Out::Line(error("join_timeout").to_string()));
            let _ = tx.send(Out::Close);
            let _ = writer_task.await;
            return;
        }
    };
    let join: Value = serde_json::from_str(&first).unwrap_or(Value::Null);
    let key = join.get("key").and_then(Value::as_str).unwrap_or("");
    let entry = if join.get("type").and_then(Value::as_str) == Some("join") && !key.is_empty() {
        ctx.keys.lookup(key)
    } else {
        None
    };
    let Some(entry) = entry else {
        let _ = tx.send(Out::Line(error("bad_key").to_string()));
        let _ = tx.send(Out::Close);
        let _ = writer_task.await;
        return;
    };
    let member = Member {
        conn: next_conn.fetch_add(1, Ordering::Relaxed),
        id: member_id(key),
        name: if entry.name.is_empty() {
            member_id(key)
        } else {
            entry.name.clone()
        },
        role: entry.role.clone(),
        tx: tx.clone(),
    };
    let room = ctx.room(&entry.room);
    session::join(&ctx, &room, &member);

    let media_task = tasks.spawn(media::accept_streams(
        ctx.clone(),
        room.clone(),
        member.clone(),
        conn.clone(),
        tasks.clone(),
    ));
    let inputs = session::input_queue(ctx.clone(), room.clone(), member.clone());
    while let Some(line) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        session::on_line(&ctx, &room, &member, &inputs, &line).await;
    }
    media_task.abort();
    session::leave(&room, &member);
    let _ = tx.send(Out::Close);
    drop(tx);
    let _ = tokio::time::timeout(Duration::from_secs(3), writer_task).await;
}
