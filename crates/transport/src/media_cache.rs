//! The verified media cache: `~/.loreweaver/cache/media/<sha256>`, shared with the terminal
//! client.
//!
//! A file is named by the sha256 of its bytes and only ever appears there by an atomic rename of
//! a verified temp file, so a name is a promise about its content. Files are immutable; one found
//! with the wrong size is re-hashed and dropped if it lies. Concurrent requests for one hash
//! share one transfer. A size cap evicts the least recently used files (mtime, touched on hit:
//! atime is often disabled).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tokio::sync::watch;

use crate::media::{check_hash, hash_file, MediaChannel, MediaError};

/// Default LRU cap: 1 GiB.
pub const DEFAULT_CAP_BYTES: u64 = 1 << 30;
/// Our temp files end with this; stale ones (from a crash) are swept on open.
const PART_SUFFIX: &str = ".part";

/// A verified file in the cache. `mime`/`name` are known only when this call fetched it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedMedia {
    pub hash: String,
    pub path: PathBuf,
    pub size: u64,
    pub mime: Option<String>,
    pub name: Option<String>,
}

type Outcome = Option<Result<CachedMedia, MediaError>>;

/// Cheap to clone; clones share the in-flight map.
#[derive(Clone)]
pub struct MediaCache {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    cap_bytes: AtomicU64,
    inflight: Mutex<HashMap<String, watch::Receiver<Outcome>>>,
}

impl std::fmt::Debug for MediaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaCache")
            .field("dir", &self.inner.dir)
            .finish()
    }
}

impl MediaCache {
    /// `~/.loreweaver/cache/media`, the directory the terminal client uses too.
    pub fn default_dir() -> Option<PathBuf> {
        let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"))?;
        Some(
            PathBuf::from(home)
                .join(".loreweaver")
                .join("cache")
                .join("media"),
        )
    }

    /// Opens (creating) a cache at `dir` with an LRU cap of `cap_bytes`.
    pub fn open(dir: impl Into<PathBuf>, cap_bytes: u64) -> std::io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        sweep_stale_parts(&dir);
        Ok(Self {
            inner: Arc::new(Inner {
                dir,
                cap_bytes: AtomicU64::new(cap_bytes),
                inflight: Mutex::new(HashMap::new()),
            }),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    pub fn cap_bytes(&self) -> u64 {
        self.inner.cap_bytes.load(Ordering::Relaxed)
    }

    /// Changes the cap; takes effect on the next insert or [`MediaCache::evict_to_cap`].
    pub fn set_cap_bytes(&self, cap: u64) {
        self.inner.cap_bytes.store(cap, Ordering::Relaxed);
    }

    /// Where `hash` lives (whether or not it is cached). Refuses anything but a sha256 hex name.
    pub fn path_for(&self, hash: &str) -> Result<PathBuf, MediaError> {
        check_hash(hash)?;
        Ok(self.inner.dir.join(hash))
    }

    /// A cached, trusted file for `hash`, or `None`. When `expected_size` is known and the file
    /// disagrees, the file is re-hashed: kept if it is right, removed if it lies.
    pub async fn cached(&self, hash: &str, expected_size: Option<u64>) -> Option<CachedMedia> {
        let path = self.path_for(hash).ok()?;
        let meta = tokio::fs::metadata(&path).await.ok()?;
        let mut size = meta.len();
        if expected_size.is_some_and(|s| s != size) {
            match hash_file(&path).await {
                Ok((got, n)) if got == hash => size = n,
                _ => {
                    tracing::warn!(hash, "cached media failed re-verification; removing it");
                    let _ = tokio::fs::remove_file(&path).await;
                    return None;
                }
            }
        }
        touch(&path);
        Some(CachedMedia {
            hash: hash.to_string(),
            path,
            size,
            mime: None,
            name: None,
        })
    }

    /// The verified file for `hash`, fetched over `channel` if it is not cached. Concurrent
    /// calls for one hash share one transfer, which runs to completion even if callers go away.
    pub async fn get(
        &self,
        channel: &MediaChannel,
        hash: &str,
        expected_size: Option<u64>,
    ) -> Result<CachedMedia, MediaError> {
        check_hash(hash)?;
        if let Some(hit) = self.cached(hash, expected_size).await {
            return Ok(hit);
        }
        let joined = {
            let mut inflight = self.inner.inflight.lock().expect("inflight lock");
            if let Some(rx) = inflight.get(hash) {
                Some(rx.clone())
            } else if self.inner.dir.join(hash).exists() {
                None // a transfer finished between our lookup and the lock
            } else {
                let (tx, rx) = watch::channel(None);
                inflight.insert(hash.to_string(), rx.clone());
                let (this, channel, hash) = (self.clone(), channel.clone(), hash.to_string());
                tokio::spawn(async move {
                    let outcome = this.fetch(&channel, &hash).await;
                    // Leave the map only after the rename, so a later caller finds the file.
                    this.inner
                        .inflight
                        .lock()
                        .expect("inflight lock")
                        .remove(&hash);
                    let _ = tx.send(Some(outcome));
                });
                Some(rx)
            }
        };
        let Some(mut rx) = joined else {
            return self
                .cached(hash, None)
                .await
                .ok_or(MediaError::Io("cached file vanished".into()));
        };
        let outcome = rx
            .wait_for(Option::is_some)
            .await
            .map_err(|_| MediaError::Io("the media transfer task ended unexpectedly".into()))?;
        outcome.clone().expect("waited for Some")
    }

    async fn fetch(&self, channel: &MediaChannel, hash: &str) -> Result<CachedMedia, MediaError> {
        let path = self.path_for(hash)?;
        let temp = self.inner.dir.join(format!(
            ".{hash}.{:016x}{PART_SUFFIX}",
            rand::random::<u64>()
        ));
        let result = channel.get_to_file(hash, &temp).await;
        let header = match result {
            Ok(h) => h,
            Err(e) => {
                let _ = tokio::fs::remove_file(&temp).await;
                return Err(e);
            }
        };
        if let Err(e) = tokio::fs::rename(&temp, &path).await {
            let _ = tokio::fs::remove_file(&temp).await;
            return Err(e.into());
        }
        let _ = self.evict_keeping(Some(hash)).await;
        Ok(CachedMedia {
            hash: hash.to_string(),
            path,
            size: header.size,
            mime: Some(header.mime),
            name: Some(header.name),
        })
    }

    /// Adds a local file (e.g. one the player just uploaded) under its verified hash.
    pub async fn insert_file(&self, src: &Path, hash: &str) -> Result<CachedMedia, MediaError> {
        let path = self.path_for(hash)?;
        if let Some(hit) = self.cached(hash, None).await {
            return Ok(hit);
        }
        let temp = self.inner.dir.join(format!(
            ".{hash}.{:016x}{PART_SUFFIX}",
            rand::random::<u64>()
        ));
        tokio::fs::copy(src, &temp).await?;
        match hash_file(&temp).await {
            Ok((got, size)) if got == hash => {
                tokio::fs::rename(&temp, &path).await?;
                let _ = self.evict_keeping(Some(hash)).await;
                Ok(CachedMedia {
                    hash: hash.to_string(),
                    path,
                    size,
                    mime: None,
                    name: None,
                })
            }
            other => {
                let _ = tokio::fs::remove_file(&temp).await;
                match other {
                    Ok((got, _)) => Err(MediaError::HashMismatch {
                        hash: hash.to_string(),
                        got,
                    }),
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// Evicts least recently used files until the cache fits its cap; returns bytes freed.
    pub async fn evict_to_cap(&self) -> std::io::Result<u64> {
        self.evict_keeping(None).await
    }

    async fn evict_keeping(&self, keep: Option<&str>) -> std::io::Result<u64> {
        let (dir, cap, keep) = (
            self.inner.dir.clone(),
            self.cap_bytes(),
            keep.map(str::to_string),
        );
        tokio::task::spawn_blocking(move || evict(&dir, cap, keep.as_deref()))
            .await
            .map_err(std::io::Error::other)?
    }
}

fn evict(dir: &Path, cap: u64, keep: Option<&str>) -> std::io::Result<u64> {
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !crate::media::is_valid_hash(&name) {
            continue; // only ever touch files that are ours by construction
        }
        let meta = entry.metadata()?;
        total += meta.len();
        let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        files.push((used, meta.len(), name));
    }
    files.sort();
    let mut freed = 0u64;
    for (_, len, name) in files {
        if total <= cap {
            break;
        }
        if Some(name.as_str()) == keep {
            continue;
        }
        if std::fs::remove_file(dir.join(&name)).is_ok() {
            total -= len;
            freed += len;
        }
    }
    Ok(freed)
}

/// Marks a file as recently used for the LRU.
fn touch(path: &Path) {
    if let Ok(f) = std::fs::File::options().append(true).open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

fn sweep_stale_parts(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if name.starts_with('.') && name.ends_with(PART_SUFFIX) && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    fn put(cache: &MediaCache, body: &[u8]) -> String {
        let hash = crate::media::hex(&Sha256::digest(body));
        std::fs::write(cache.dir().join(&hash), body).unwrap();
        hash
    }

    #[tokio::test]
    async fn lru_evicts_oldest_and_reverifies_wrong_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = MediaCache::open(dir.path(), 25).unwrap();
        let a = put(&cache, &[1u8; 10]);
        let old = SystemTime::now() - Duration::from_secs(100);
        std::fs::File::options()
            .append(true)
            .open(cache.dir().join(&a))
            .unwrap()
            .set_modified(old)
            .unwrap();
        let b = put(&cache, &[2u8; 10]);
        let c = put(&cache, &[3u8; 10]);
        assert_eq!(cache.evict_to_cap().await.unwrap(), 10);
        assert!(cache.cached(&a, None).await.is_none());
        assert!(cache.cached(&b, None).await.is_some());
        // A right file with a wrong expected size survives re-verification; a lying one does not.
        assert_eq!(cache.cached(&c, Some(99)).await.unwrap().size, 10);
        std::fs::write(cache.dir().join(&b), b"tampered").unwrap();
        assert!(cache.cached(&b, Some(10)).await.is_none());
        assert!(!cache.dir().join(&b).exists());
        assert!(cache.path_for("../x").is_err());
    }
}
