//! Media streams: each extra bidirectional stream carries one PUT or GET. This side only
//! moves bytes; what may be stored or served is decided in `rules::media`.

use std::sync::Arc;
use std::time::Duration;

use iroh::endpoint::{Connection, RecvStream, SendStream};
use serde_json::{json, Value};
use tokio_util::task::TaskTracker;

use crate::model::room::{Member, Room};
use crate::rules::context::Context;
use crate::rules::media;
use crate::rules::reply::error;
use crate::wire::lines::LineReader;

const CHUNK: usize = 64 * 1024;

/// Serves the connection's extra bidirectional streams (one PUT or GET each).
pub async fn accept_streams(
    ctx: Arc<Context>,
    room: Arc<Room>,
    member: Member,
    conn: Connection,
    tasks: TaskTracker,
) {
    while let Ok((send, recv)) = conn.accept_bi().await {
        let (ctx, room, member) = (ctx.clone(), room.clone(), member.clone());
        tasks.spawn(async move { media_stream(&ctx, &room, &member, send, recv).await });
    }
}

async fn reply_line(send: &mut SendStream, frame: &Value) {
    let mut line = frame.to_string();
    line.push('\n');
    let _ = send.write_all(line.as_bytes()).await;
}

async fn media_stream(
    ctx: &Context,
    room: &Arc<Room>,
    member: &Member,
    mut send: SendStream,
    recv: RecvStream,
) {
    let mut lines = LineReader::new(recv);
    let header: Value = match lines.next_line().await {
        Some(line) => serde_json::from_str(&line).unwrap_or(Value::Null),
        None => return,
    };
    let result = match header["op"].as_str() {
        Some("put") => put(ctx, room, member, &header, lines, &mut send).await,
        Some("get") => get(ctx, room, &header, &mut send).await,
        _ => Err("bad_frame"),
    };
    if let Err(code) = result {
        reply_line(&mut send, &error(code)).await;
    }
    let _ = send.finish();
    // Keep the stream alive until the peer has read the reply.
    let _ = tokio::time::timeout(Duration::from_secs(5), send.stopped()).await;
}

async fn put(
    ctx: &Context,
    room: &Arc<Room>,
    member: &Member,
    header: &Value,
    lines: LineReader,
    send: &mut SendStream,
) -> Result<(), &'static str> {
    let upload_id = header["upload_id"].as_str().unwrap_or("");
    let pending = media::take_pending(room, member, upload_id).ok_or("media_bad_upload")?;
    let (mut data, mut recv) = lines.into_parts();
    let mut buf = vec![0u8; CHUNK];
    while (data.len() as u64) < pending.size {
        match recv.read(&mut buf).await {
            Ok(Some(n)) => data.extend_from_slice(&buf[..n]),
            _ => break,
        }
        if data.len() as u64 > pending.size {
            break;
        }
    }
    // A body longer than offered shows up as extra bytes before the peer finishes.
    if data.len() as u64 == pending.size {
        if let Ok(Ok(Some(n))) =
            tokio::time::timeout(Duration::from_millis(300), recv.read(&mut buf)).await
        {
            data.extend_from_slice(&buf[..n]);
        }
    }
    if (data.len() as u64) < pending.size {
        // The uploader stopped (a Cancel): nothing is stored or published. Said in the log, so
        // that an upload that really stopped can be told from one that only looks stopped.
        tracing::info!(
            name = %pending.name,
            received = data.len(),
            size = pending.size,
            "a media upload ended before its last byte: dropped"
        );
    }
    let hash = media::store(ctx, room, pending, &data)?;
    reply_line(send, &json!({"op": "put_ok", "hash": hash})).await;
    Ok(())
}

/// Room media first, then assets of packs enabled in this room, else media_not_found.
async fn get(
    ctx: &Context,
    room: &Arc<Room>,
    header: &Value,
    send: &mut SendStream,
) -> Result<(), &'static str> {
    let hash = header["hash"].as_str().unwrap_or("").to_lowercase();
    let (bytes, mime, name) = media::blob(ctx, room, &hash)?;
    reply_line(
        send,
        &json!({"op": "get", "hash": hash, "size": bytes.len(), "mime": mime, "name": name}),
    )
    .await;
    for chunk in bytes.chunks(CHUNK) {
        if send.write_all(chunk).await.is_err() {
            break;
        }
    }
    Ok(())
}
