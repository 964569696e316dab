//! The media byte channel: one new bidirectional stream per GET or PUT on the table connection.
//!
//! Bytes are verified, never trusted: a GET body is hashed while it streams to a temp file and
//! only a body whose sha256 matches the requested hash is ever renamed into the cache (see
//! [`crate::media_cache`]). The engine never finishes a GET stream, so we read exactly the size
//! the header announced and stop; waiting for EOF would hang.

use std::io::{IoSlice, Write};
use std::path::Path;
use std::time::Duration;

use bytes::Bytes;
use iroh::endpoint::{Connection, RecvStream, SendStream};
use protocol::codec::decode_media_reply;
use protocol::frame::{MediaGetHeader, MediaReply};
use sha2::{Digest, Sha256};
use tokio::io::AsyncReadExt;

pub use protocol::media::{AUDIO_MAX_BYTES, IMAGE_MAX_BYTES};
/// The protocol's body chunk size.
pub const CHUNK_BYTES: usize = 64 * 1024;
/// A header line longer than this is not a header.
const MAX_HEADER_BYTES: usize = 16 * 1024;
/// A media stream that delivers no reply line (or no body bytes) for this long is dead.
pub(crate) const IDLE: Duration = Duration::from_secs(30);
/// Bytes the network reader hands to the writing thread at a time.
pub(crate) const BATCH_BYTES: usize = 256 * 1024;
/// Batches in flight between the reader and that thread: memory stays under 2 MiB.
const PIPELINE_DEPTH: usize = 8;
/// Chunks taken from QUIC per read call (one lock of the connection state each).
pub(crate) const CHUNKS_PER_READ: usize = 64;

/// Why a media transfer failed. Cloneable: concurrent requests for one hash share the outcome.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MediaError {
    #[error("\"{0}\" is not a media hash (expected 64 lowercase hex digits of a sha256)")]
    InvalidHash(String),
    #[error("the table has no media {hash} in this room (media_not_found)")]
    NotFound { hash: String },
    #[error("the table refused the media request ({code}): {message}")]
    Refused { code: String, message: String },
    #[error("media {hash} failed verification: the bytes hash to {got}; nothing was cached")]
    HashMismatch { hash: String, got: String },
    #[error(
        "media {hash} was cut short: {received} of {expected} bytes arrived; nothing was cached"
    )]
    Truncated {
        hash: String,
        expected: u64,
        received: u64,
    },
    #[error("{what} is {size} bytes; {kind} is limited to {limit_mib} MiB per file")]
    TooLarge {
        what: String,
        kind: &'static str,
        size: u64,
        limit_mib: u64,
    },
    #[error(
        "{mime} is not a supported upload type: supported upload MIME types are image/png, \
         image/jpeg, image/webp, image/gif, image/svg+xml, audio/mpeg, audio/ogg, audio/wav, \
         audio/flac, audio/mp4, and audio/aac"
    )]
    UnsupportedMime { mime: String },
    #[error(
        "media {hash} is {announced} bytes by the table's reply, not the {expected} bytes it was \
         declared as; nothing was fetched"
    )]
    SizeMismatch {
        hash: String,
        expected: u64,
        announced: u64,
    },
    #[error("the table sent an unreadable media reply: {0}")]
    BadReply(String),
    #[error("the media transfer stalled (no bytes for {0} s)")]
    Stalled(u64),
    #[error("media stream failed: {0}")]
    Stream(String),
    #[error("media file error: {0}")]
    Io(String),
    #[error("not connected to the table right now")]
    Offline,
}

impl From<std::io::Error> for MediaError {
    fn from(e: std::io::Error) -> Self {
        MediaError::Io(e.to_string())
    }
}

fn stream_err(e: impl std::fmt::Display) -> MediaError {
    MediaError::Stream(e.to_string())
}

/// True for a 64-digit lowercase hex sha256, the only names the cache will ever create.
pub fn is_valid_hash(hash: &str) -> bool {
    hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

pub(crate) fn check_hash(hash: &str) -> Result<(), MediaError> {
    if is_valid_hash(hash) {
        Ok(())
    } else {
        Err(MediaError::InvalidHash(hash.chars().take(80).collect()))
    }
}

/// The per-file limit for a MIME type, and the word for it in messages.
pub fn size_limit(mime: &str) -> (u64, &'static str) {
    if mime.trim().to_ascii_lowercase().starts_with("audio/") {
        (AUDIO_MAX_BYTES, "audio")
    } else {
        (IMAGE_MAX_BYTES, "an image")
    }
}

fn check_size(what: &str, mime: &str, size: u64) -> Result<(), MediaError> {
    let (limit, kind) = size_limit(mime);
    if size > limit {
        return Err(MediaError::TooLarge {
            what: what.to_string(),
            kind,
            size,
            limit_mib: limit >> 20,
        });
    }
    Ok(())
}

/// Checks an upload against the allow-list and per-file limits before anything is offered.
pub fn check_upload(name: &str, mime: &str, size: u64) -> Result<(), MediaError> {
    if !protocol::media::is_upload_mime(mime) {
        return Err(MediaError::UnsupportedMime {
            mime: mime.to_string(),
        });
    }
    check_size(name, mime, size)
}

/// The media channel of one live connection to the table.
#[derive(Debug, Clone)]
pub struct MediaChannel {
    conn: Connection,
}

/// What a GET reply header announced.
pub type GetHeader = MediaGetHeader;

impl MediaChannel {
    pub fn new(conn: Connection) -> Self {
        Self { conn }
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    async fn open(
        &self,
        header: &serde_json::Value,
    ) -> Result<(SendStream, RecvStream), MediaError> {
        let (mut send, recv) = self.conn.open_bi().await.map_err(stream_err)?;
        let mut line = serde_json::to_vec(header).map_err(stream_err)?;
        line.push(b'\n');
        send.write_all(&line).await.map_err(stream_err)?;
        Ok((send, recv))
    }

    /// GET `hash` into `temp`: exactly the announced size, hashed while it streams. `temp` holds
    /// the verified body on success; on error its content is garbage for the caller to remove.
    /// When the caller knows the size (a manifest, a block), a reply announcing another size is
    /// refused before any body is read: a wrong size is an error, never a bigger download.
    pub async fn get_to_file(
        &self,
        hash: &str,
        temp: &Path,
        expected_size: Option<u64>,
    ) -> Result<GetHeader, MediaError> {
        check_hash(hash)?;
        let (mut send, mut recv) = self
            .open(&serde_json::json!({"op": "get", "hash": hash}))
            .await?;
        let (line, leftover) = read_line(&mut recv).await?;
        let header = parse_get_header(hash, &line)?;
        check_size(&format!("media {hash}"), &header.mime, header.size)?;
        if let Some(expected) = expected_size.filter(|s| *s != header.size) {
            let _ = recv.stop(0u32.into());
            return Err(MediaError::SizeMismatch {
                hash: hash.to_string(),
                expected,
                announced: header.size,
            });
        }

        // Disk writes run on a blocking thread, overlapped with network reads. The reader hashes
        // each chunk as it takes it, while it is still in cache: on the 2-core loopback bench
        // that spends ~7% less CPU per GET than hashing on the writer's thread (#30 item 6).
        let (tx, rx) = tokio::sync::mpsc::channel::<Vec<Bytes>>(PIPELINE_DEPTH);
        let file = crate::cache_files::create_private(temp)?;
        let sink = tokio::task::spawn_blocking(move || write_to_file(file, rx));
        let mut hasher = Sha256::new();
        let mut leftover = leftover;
        // Bytes past the announced size are as wrong as missing ones; the hash check catches them.
        leftover.truncate(header.size.min(leftover.len() as u64) as usize);
        let mut received = leftover.len() as u64;
        let mut result = Ok(());
        hasher.update(&leftover);
        if !leftover.is_empty() && tx.send(vec![Bytes::from(leftover)]).await.is_err() {
            result = Err(MediaError::Io("the cache writer stopped".into()));
        }
        // QUIC hands out ~1 KiB chunks. Taking them as zero-copy `Bytes`, several per call, and
        // handing them over in ~256 KiB batches costs less CPU than copying into a buffer: on a
        // 2-core loopback bench that is +1–3% verified-GET throughput (see `cargo xtask bench`).
        // The bench's raw copy reads with this same loop (`bench::read_discarding`): change both.
        let mut chunks = vec![Bytes::new(); CHUNKS_PER_READ];
        let (mut batch, mut batch_bytes) = (Vec::new(), 0usize);
        while result.is_ok() && received < header.size {
            let read = tokio::time::timeout(IDLE, recv.read_many_chunks(&mut chunks)).await;
            let n = match read {
                Err(_) => {
                    result = Err(MediaError::Stalled(IDLE.as_secs()));
                    break;
                }
                Ok(Err(e)) => {
                    result = Err(stream_err(e));
                    break;
                }
                Ok(Ok(None)) => break, // finished early: reported as truncated below
                Ok(Ok(Some(n))) => n,
            };
            for chunk in &mut chunks[..n] {
                let mut chunk = std::mem::take(chunk);
                chunk.truncate((header.size - received).min(chunk.len() as u64) as usize);
                received += chunk.len() as u64;
                batch_bytes += chunk.len();
                hasher.update(&chunk);
                batch.push(chunk);
            }
            if batch_bytes >= BATCH_BYTES || received >= header.size {
                batch_bytes = 0;
                if tx.send(std::mem::take(&mut batch)).await.is_err() {
                    break; // the writer failed; its error is reported below
                }
            }
        }
        if !batch.is_empty() {
            let _ = tx.send(batch).await;
        }
        drop(tx);
        let _ = recv.stop(0u32.into());
        let _ = send.finish();
        sink.await.map_err(|e| MediaError::Io(e.to_string()))??;
        let digest = hex(hasher.finalize());
        result?;
        if received < header.size {
            return Err(MediaError::Truncated {
                hash: hash.to_string(),
                expected: header.size,
                received,
            });
        }
        if digest != hash {
            return Err(MediaError::HashMismatch {
                hash: hash.to_string(),
                got: digest,
            });
        }
        Ok(header)
    }

    /// PUT the file at `path` (already offered and accepted as `upload_id`), in 64 KiB chunks,
    /// then read `put_ok`. `progress(sent, total)` is called after every chunk.
    pub async fn put_file(
        &self,
        upload_id: &str,
        path: &Path,
        sha256: &str,
        progress: &mut (dyn FnMut(u64, u64) + Send),
    ) -> Result<(), MediaError> {
        let mut file = tokio::fs::File::from_std(open_plain(path)?);
        let total = file.metadata().await?.len();
        let header = serde_json::json!({"op": "put", "upload_id": upload_id});
        let (mut send, mut recv) = self.open(&header).await?;
        let mut buf = vec![0u8; CHUNK_BYTES];
        let mut sent = 0u64;
        loop {
            let n = file.read(&mut buf).await?;
            if n == 0 {
                break;
            }
            send.write_all(&buf[..n]).await.map_err(stream_err)?;
            sent += n as u64;
            progress(sent, total);
        }
        send.finish().map_err(stream_err)?;
        let (line, _) = read_line(&mut recv).await?;
        match decode_reply(sha256, &line)? {
            MediaReply::PutOk { hash } if hash == sha256 => Ok(()),
            other => Err(MediaError::BadReply(format!(
                "expected put_ok for {sha256}, got {other:?}"
            ))),
        }
    }
}

fn write_to_file(
    mut file: std::fs::File,
    mut rx: tokio::sync::mpsc::Receiver<Vec<Bytes>>,
) -> Result<(), MediaError> {
    while let Some(batch) = rx.blocking_recv() {
        write_batch(&mut file, &batch)?;
    }
    Ok(())
}

/// One vectored write per batch where the kernel takes it all: no copy into a user buffer.
fn write_batch(file: &mut std::fs::File, batch: &[Bytes]) -> std::io::Result<()> {
    let mut slices: Vec<IoSlice> = batch.iter().map(|c| IoSlice::new(c)).collect();
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        // 1024 = IOV_MAX on Linux; the kernel refuses longer vectors.
        let n = file.write_vectored(&rest[..rest.len().min(1024)])?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    Ok(())
}

/// Lowercase hex (digests on the wire are sha256 in lowercase hex).
pub(crate) use hex::encode as hex;

/// The reply line of a media stream, as our error type.
fn decode_reply(hash: &str, line: &[u8]) -> Result<MediaReply, MediaError> {
    let text = std::str::from_utf8(line).map_err(|e| MediaError::BadReply(e.to_string()))?;
    match decode_media_reply(text).map_err(|e| MediaError::BadReply(e.to_string()))? {
        MediaReply::Error(err) if err.code.as_str() == "media_not_found" => {
            Err(MediaError::NotFound {
                hash: hash.to_string(),
            })
        }
        MediaReply::Error(err) => Err(MediaError::Refused {
            code: err.code.as_str().to_string(),
            message: err.message,
        }),
        reply => Ok(reply),
    }
}

pub(crate) fn parse_get_header(hash: &str, line: &[u8]) -> Result<GetHeader, MediaError> {
    match decode_reply(hash, line)? {
        MediaReply::Get(h) if h.hash == hash => Ok(h),
        other => Err(MediaError::BadReply(format!(
            "expected a get header for {hash}, got {other:?}"
        ))),
    }
}

/// Reads one newline-terminated line; returns it (without `\n`) and any bytes read past it.
pub(crate) async fn read_line(recv: &mut RecvStream) -> Result<(Vec<u8>, Vec<u8>), MediaError> {
    let mut buf = Vec::new();
    loop {
        if let Some(pos) = buf.iter().position(|&b| b == b'\n') {
            let rest = buf.split_off(pos + 1);
            buf.pop();
            return Ok((buf, rest));
        }
        if buf.len() > MAX_HEADER_BYTES {
            return Err(MediaError::BadReply("header line over 16 KiB".into()));
        }
        match tokio::time::timeout(IDLE, recv.read_chunk(CHUNK_BYTES)).await {
            Err(_) => return Err(MediaError::Stalled(IDLE.as_secs())),
            Ok(Err(e)) => return Err(stream_err(e)),
            Ok(Ok(None)) => {
                return Err(MediaError::BadReply(
                    "stream ended before a reply line".into(),
                ))
            }
            Ok(Ok(Some(b))) => buf.extend_from_slice(&b),
        }
    }
}

/// Opens a file to share: never through a link (`O_NOFOLLOW`, at the open itself, so a link
/// swapped in after a check is refused too), never waiting on a FIFO, regular files only.
pub fn open_plain(path: &Path) -> std::io::Result<std::fs::File> {
    let file = platform::open_no_follow(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// sha256 and size of a file, streamed.
pub async fn hash_file(path: &Path) -> Result<(String, u64), MediaError> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let mut file = open_plain(&path)?;
        let mut hasher = Sha256::new();
        let size = std::io::copy(&mut file, &mut hasher)?;
        Ok((hex(hasher.finalize()), size))
    })
    .await
    .map_err(|e| MediaError::Io(e.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_file_to_share_is_never_read_through_a_link_or_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("id_ed25519");
        std::fs::write(&secret, b"KEY").unwrap();
        let link = dir.path().join("a.png");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        assert!(open_plain(&link).is_err(), "a link was opened");
        let fifo = dir.path().join("pipe.png");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(open_plain(&fifo).is_err(), "a FIFO was opened");
        assert!(open_plain(&secret).is_ok());
    }

    #[test]
    fn upload_checks_use_the_spec_words() {
        assert!(check_upload("a.png", "image/png", 10).is_ok());
        let e = check_upload("a.txt", "text/plain", 10)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("supported upload MIME types are image/png"),
            "{e}"
        );
        let e = check_upload("big.png", "image/png", IMAGE_MAX_BYTES + 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("limited to 8 MiB per file"), "{e}");
        assert!(check_upload("song.ogg", "audio/ogg", IMAGE_MAX_BYTES + 1).is_ok());
        let e = check_upload("s.ogg", "audio/ogg", AUDIO_MAX_BYTES + 1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("audio is limited to 128 MiB per file"), "{e}");
    }

    #[test]
    fn hashes_are_strict() {
        assert!(is_valid_hash(&"a".repeat(64)));
        assert!(!is_valid_hash(&"A".repeat(64)));
        assert!(!is_valid_hash("../../etc/passwd"));
    }
}
