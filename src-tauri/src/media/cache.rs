//! The verified media cache (`~/.loreweaver/cache/media`, shared with the terminal client),
//! opened on first use: pictures, sounds and panel pages are only ever served from it.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use transport::media_cache::MediaCache;

#[derive(Clone, Default)]
pub struct Cache(Arc<OnceLock<MediaCache>>);

impl Cache {
    /// The cache (`STUDIO_MEDIA_CACHE` moves it), opened on first use.
    pub fn get(&self) -> Result<&MediaCache, String> {
        if let Some(c) = self.0.get() {
            return Ok(c);
        }
        let dir = std::env::var_os("STUDIO_MEDIA_CACHE")
            .map(PathBuf::from)
            .or_else(MediaCache::default_dir)
            .ok_or("no home directory for the media cache")?;
        let cache = MediaCache::open(dir, transport::media_cache::DEFAULT_CAP_BYTES)
            .map_err(|e| format!("opening the media cache: {e}"))?;
        Ok(self.0.get_or_init(|| cache))
    }

    /// A cache chosen by a test instead of the user's.
    #[cfg(test)]
    pub fn with(cache: MediaCache) -> Self {
        let c = Cache::default();
        let _ = c.0.set(cache);
        c
    }
}
