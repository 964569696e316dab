//! The verified media cache: `~/.loreweaver/cache/media/<sha256>`, shared with the terminal
//! client.
//!
//! A file is named by the sha256 of its bytes, but the directory is shared, so a name is only a
//! claim: Studio serves a file after it has hashed it once, remembers what it verified (by a
//! stamp `fstat` gives: device, inode, size, mtime and the kernel-kept change time) and hashes
//! again only when the stamp changes. Files are opened without following symlinks (a link is
//! removed, its target never read), the directory is 0700 and every file Studio writes is 0600
//! from its first byte. Studio's own files only appear by an atomic rename of a verified temp
//! file. An unverified file of the wrong size is removed. Concurrent requests for one hash share
//! one transfer. A size cap evicts the least recently used files (mtime, touched on use at most
//! hourly: atime is often disabled).

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::cache_files::{self, Stamp};
use crate::media::{check_hash, hex, MediaChannel, MediaError};

/// Default LRU cap: 1 GiB.
pub const DEFAULT_CAP_BYTES: u64 = 1 << 30;
/// Our temp files end with this; stale ones (from a crash) are swept on open.
const PART_SUFFIX: &str = ".part";
/// A used file's mtime is moved forward at most this often (each touch is a write).
const TOUCH_EVERY: Duration = Duration::from_secs(3600);

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

/// Cheap to clone; clones share the in-flight map and what was verified.
#[derive(Clone)]
pub struct MediaCache {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    cap_bytes: AtomicU64,
    inflight: Mutex<HashMap<String, watch::Receiver<Outcome>>>,
    /// hash → the stamp of the file Studio hashed and found right.
    verified: Mutex<HashMap<String, Stamp>>,
    /// How many times a cached file was hashed to trust it (tests, bench).
    verifications: AtomicU64,
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
        Some(
            dirs::home_dir()?
                .join(".loreweaver")
                .join("cache")
                .join("media"),
        )
    }

    /// Opens (creating, private) a cache at `dir` with an LRU cap of `cap_bytes`; sweeps what
    /// a crash left behind (temp files, abandoned staged uploads).
    pub fn open(dir: impl Into<PathBuf>, cap_bytes: u64) -> std::io::Result<Self> {
        let dir = dir.into();
        cache_files::private_dir(&dir)?;
        sweep_stale_parts(&dir);
        cache_files::sweep_staging(&dir);
        Ok(Self {
            inner: Arc::new(Inner {
                dir,
                cap_bytes: AtomicU64::new(cap_bytes),
                inflight: Mutex::new(HashMap::new()),
                verified: Mutex::new(HashMap::new()),
                verifications: AtomicU64::new(0),
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

    /// How many times a file found in the cache was hashed before it was trusted.
    pub fn verifications(&self) -> u64 {
        self.inner.verifications.load(Ordering::Relaxed)
    }

    /// A fresh private file for staging an upload: unguessable name, 0600, in a 0700 directory
    /// inside the cache; the caller removes it when done (a crash leaves it for the next start).
    pub fn staging_file(&self) -> std::io::Result<(PathBuf, File)> {
        cache_files::staging_file(&self.inner.dir)
    }

    /// Where `hash` lives (whether or not it is cached). Refuses anything but a sha256 hex name.
    pub fn path_for(&self, hash: &str) -> Result<PathBuf, MediaError> {
        check_hash(hash)?;
        Ok(self.inner.dir.join(hash))
    }

    /// A cached, trusted file for `hash`, or `None`. `expected_size`, when known, must match.
    pub async fn cached(&self, hash: &str, expected_size: Option<u64>) -> Option<CachedMedia> {
        let (_, size) = self.open_verified(hash, expected_size).await?;
        Some(CachedMedia {
            hash: hash.to_string(),
            path: self.path_for(hash).ok()?,
            size,
            mime: None,
            name: None,
        })
    }

    /// The trusted file for `hash`, opened (never through a symlink), and its size; `None` when
    /// it is not cached, is not what its name says, or is not `expected_size` bytes.
    pub async fn open_verified(
        &self,
        hash: &str,
        expected_size: Option<u64>,
    ) -> Option<(File, u64)> {
        check_hash(hash).ok()?;
        let (this, hash) = (self.clone(), hash.to_string());
        tokio::task::spawn_blocking(move || this.trust(&hash, expected_size))
            .await
            .ok()
            .flatten()
    }

    /// The trusted bytes of `hash`, read only up to the size that was verified and at most
    /// `max_bytes` (a larger file is an error, never a bigger read).
    pub async fn read(
        &self,
        hash: &str,
        expected_size: Option<u64>,
        max_bytes: u64,
    ) -> Result<Vec<u8>, MediaError> {
        let (file, size) = self
            .open_verified(hash, expected_size)
            .await
            .ok_or_else(|| MediaError::NotFound {
                hash: hash.to_string(),
            })?;
        if size > max_bytes {
            return Err(MediaError::TooLarge {
                what: format!("media {hash}"),
                kind: "this use",
                size,
                limit_mib: max_bytes.div_ceil(1 << 20),
            });
        }
        tokio::task::spawn_blocking(move || {
            let mut bytes = Vec::with_capacity(size as usize);
            file.take(size).read_to_end(&mut bytes)?;
            Ok(bytes)
        })
        .await
        .map_err(|e| MediaError::Io(e.to_string()))?
    }

    /// The file behind `hash` if Studio can trust it (blocking: may hash the whole file once).
    fn trust(&self, hash: &str, expected_size: Option<u64>) -> Option<(File, u64)> {
        let path = self.inner.dir.join(hash);
        let mut file = match cache_files::open_no_follow(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(_) => {
                // A symlink (or worse) under a media name: never served; the link goes, its
                // target is never touched.
                if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                    tracing::warn!(hash, "a symlink in the media cache; removing it");
                    let _ = std::fs::remove_file(&path);
                }
                self.forget(hash);
                return None;
            }
        };
        let meta = file.metadata().ok()?;
        if !meta.is_file() {
            return None;
        }
        let stamp = Stamp::of(&meta);
        let known = self.lock_verified().get(hash).copied();
        if known != Some(stamp) {
            if expected_size.is_some_and(|s| s != stamp.len()) {
                tracing::warn!(hash, "cached media has the wrong size; removing it");
                self.remove(hash, &path);
                return None;
            }
            // Not (or no longer) the file we verified: hash it once. Made private first, so
            // the stamp we keep is the one after our own chmod.
            let _ = cache_files::make_private(&path);
            let before = Stamp::of(&file.metadata().ok()?);
            self.inner.verifications.fetch_add(1, Ordering::Relaxed);
            let mut hasher = Sha256::new();
            let hashed = std::io::copy(&mut file, &mut hasher).ok()?;
            let after = Stamp::of(&file.metadata().ok()?);
            if hex(hasher.finalize()) != hash || hashed != before.len() {
                tracing::warn!(hash, "cached media failed verification; removing it");
                self.remove(hash, &path);
                return None;
            }
            if after != before {
                return None; // written while we read: trust it another time
            }
            file.rewind().ok()?;
            self.lock_verified().insert(hash.to_string(), after);
        } else if expected_size.is_some_and(|s| s != stamp.len()) {
            return None; // the file is right; whoever named this size is not
        }
        self.touch(hash, &file, &meta);
        Some((file, stamp.len()))
    }

    fn lock_verified(&self) -> std::sync::MutexGuard<'_, HashMap<String, Stamp>> {
        self.inner
            .verified
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn forget(&self, hash: &str) {
        self.lock_verified().remove(hash);
    }

    fn remove(&self, hash: &str, path: &Path) {
        self.forget(hash);
        let _ = std::fs::remove_file(path);
    }

    /// Remembers a file Studio just verified and renamed into place.
    fn verified_now(&self, hash: &str, path: &Path) {
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            self.lock_verified()
                .insert(hash.to_string(), Stamp::of(&meta));
        }
    }

    /// Marks a file as recently used for the LRU (at most hourly), keeping it trusted.
    fn touch(&self, hash: &str, file: &File, meta: &std::fs::Metadata) {
        let recent = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age < TOUCH_EVERY);
        if recent || file.set_modified(SystemTime::now()).is_err() {
            return;
        }
        if let Ok(meta) = file.metadata() {
            self.lock_verified()
                .insert(hash.to_string(), Stamp::of(&meta));
        }
    }

    /// The verified file for `hash`, fetched over `channel` if it is not cached. Concurrent
    /// calls for one hash share one transfer, which runs to completion even if callers go away.
    /// With `expected_size`, a reply announcing another size is refused before any body.
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
            } else if std::fs::symlink_metadata(self.inner.dir.join(hash)).is_ok() {
                None // a transfer finished between our lookup and the lock
            } else {
                let (tx, rx) = watch::channel(None);
                inflight.insert(hash.to_string(), rx.clone());
                let (this, channel, hash) = (self.clone(), channel.clone(), hash.to_string());
                tokio::spawn(async move {
                    let outcome = this.fetch(&channel, &hash, expected_size).await;
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
                .cached(hash, expected_size)
                .await
                .ok_or(MediaError::Io("cached file vanished".into()));
        };
        let outcome = rx
            .wait_for(Option::is_some)
            .await
            .map_err(|_| MediaError::Io("the media transfer task ended unexpectedly".into()))?;
        let got = outcome.clone().expect("waited for Some")?;
        match expected_size {
            Some(expected) if expected != got.size => Err(MediaError::SizeMismatch {
                hash: hash.to_string(),
                expected,
                announced: got.size,
            }),
            _ => Ok(got),
        }
    }

    async fn fetch(
        &self,
        channel: &MediaChannel,
        hash: &str,
        expected_size: Option<u64>,
    ) -> Result<CachedMedia, MediaError> {
        let path = self.path_for(hash)?;
        let temp = self.temp_path(hash);
        let result = channel.get_to_file(hash, &temp, expected_size).await;
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
        self.verified_now(hash, &path);
        let _ = self.evict_keeping(Some(hash)).await;
        Ok(CachedMedia {
            hash: hash.to_string(),
            path,
            size: header.size,
            mime: Some(header.mime),
            name: Some(header.name),
        })
    }

    fn temp_path(&self, hash: &str) -> PathBuf {
        self.inner.dir.join(format!(
            ".{hash}.{:032x}{PART_SUFFIX}",
            rand::random::<u128>()
        ))
    }

    /// Adds a local file (e.g. one the player just uploaded) under its verified hash.
    pub async fn insert_file(&self, src: &Path, hash: &str) -> Result<CachedMedia, MediaError> {
        let path = self.path_for(hash)?;
        if let Some(hit) = self.cached(hash, None).await {
            return Ok(hit);
        }
        let temp = self.temp_path(hash);
        let (src, temp2) = (src.to_path_buf(), temp.clone());
        // A private copy, hashed as it is written: what is renamed is what was hashed.
        let copied = tokio::task::spawn_blocking(move || -> std::io::Result<(String, u64)> {
            let mut from = File::open(src)?;
            let mut to = cache_files::create_private(&temp2)?;
            let mut hasher = Sha256::new();
            let mut buf = vec![0u8; 256 * 1024];
            let mut size = 0u64;
            loop {
                let n = from.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buf[..n]);
                std::io::Write::write_all(&mut to, &buf[..n])?;
                size += n as u64;
            }
            Ok((hex(hasher.finalize()), size))
        })
        .await
        .map_err(|e| MediaError::Io(e.to_string()))?;
        match copied {
            Ok((got, size)) if got == hash => {
                tokio::fs::rename(&temp, &path).await?;
                self.verified_now(hash, &path);
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
                    Err(e) => Err(e.into()),
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
mod tests;
