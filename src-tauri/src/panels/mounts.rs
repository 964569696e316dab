//! Live panel mounts. `mount` fetches a panel's entry and assets by hash (verified before
//! caching, each at the size its manifest declares), then mints a random 128-bit token naming
//! that mount. A token lives exactly as long as its page: it is retired when the page unmounts,
//! when a new manifest changes or drops its panel, when the window reloads, and on any join or
//! leave. A retired token answers 404.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use protocol::frame::UiManifestPanel;
use tokio::sync::{Semaphore, SemaphorePermit};

use super::page::{clean_mime, clean_segments, theme_css};
use super::Panels;
use crate::seat::Seat;

/// A panel page brings at most this many files (entry included)…
pub const MAX_FILES: usize = 64;
/// …and at most this many bytes in all: the engine's cap on a pack's tier-2 code.
pub const MAX_BYTES: u64 = 2 * 1024 * 1024;
/// Requests one mount may have served at once; more wait their turn…
pub const MAX_CONCURRENT: usize = 4;
/// …and beyond this many waiting, a request is refused (503) instead of queued.
pub const MAX_WAITING: usize = 32;

/// One mounted panel page.
pub(super) struct Mount {
    pub panel: String,
    /// The manifest entry it was mounted from: a new manifest that changes it retires the mount.
    pub spec: UiManifestPanel,
    pub nonce: String,
    pub entry: Served,
    /// Declared asset path (decoded, `/`-joined) → file.
    pub assets: HashMap<String, Served>,
    pub theme_css: String,
    pub gate: Gate,
}

#[derive(Clone)]
pub(super) struct Served {
    pub hash: String,
    pub size: u64,
    pub mime: String,
}

/// Bounds the requests one mount can have in flight.
pub(super) struct Gate {
    permits: Semaphore,
    waiting: AtomicUsize,
}

impl Gate {
    pub fn new() -> Self {
        Gate {
            permits: Semaphore::new(MAX_CONCURRENT),
            waiting: AtomicUsize::new(0),
        }
    }

    /// A turn to be served, or `None` when too many already wait.
    pub async fn enter(&self) -> Option<SemaphorePermit<'_>> {
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        let permit = self.permits.acquire().await.ok();
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        permit
    }
}

/// Live mounts by token. A panel's new mount retires its old one.
#[derive(Default)]
pub struct Mounts {
    by_token: Mutex<HashMap<String, Arc<Mount>>>,
    /// Told when a page mounts: the stall watchdog, idle while no page is live, wakes at once.
    mounted: std::sync::Condvar,
}

impl Mounts {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mount>>> {
        self.by_token.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Retires every mount (leave, join, window reload).
    pub fn clear(&self) {
        self.map().clear();
    }

    /// Retires the mount `token` (its page unmounted). True if it was live.
    pub fn unmount(&self, token: &str) -> bool {
        self.map().remove(token).is_some()
    }

    /// A new manifest: mounts whose panel it drops or changes are retired.
    pub fn keep_only(&self, panels: &[UiManifestPanel]) {
        self.map()
            .retain(|_, m| panels.iter().any(|p| p.id == m.panel && *p == m.spec));
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// How many pages are live.
    pub fn count(&self) -> usize {
        self.map().len()
    }

    /// Returns when a page is live, or after `timeout` (at once if one is live already).
    pub fn wait_for_a_page(&self, timeout: std::time::Duration) {
        let map = self.map();
        if map.is_empty() {
            let _ = self.mounted.wait_timeout(map, timeout);
        }
    }

    /// The live pages' titles (for the notice after a stall).
    pub fn titles(&self) -> Vec<protocol::frame::Localized> {
        self.map().values().map(|m| m.spec.title.clone()).collect()
    }

    pub(super) fn get(&self, token: &str) -> Option<Arc<Mount>> {
        self.map().get(token).cloned()
    }

    #[cfg(test)]
    pub(super) fn insert_for_test(&self, token: String, mount: Mount) {
        self.insert(token, mount)
    }

    fn insert(&self, token: String, mount: Mount) {
        let mut map = self.map();
        map.retain(|_, m| m.panel != mount.panel);
        map.insert(token, Arc::new(mount));
        self.mounted.notify_all();
    }
}

pub use ipc::Mounted;

fn random_hex128() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// The panel's files within the caps, or the sentence the panel's notice shows.
pub fn check_limits(files: usize, bytes: u64) -> Result<(), String> {
    if files > MAX_FILES {
        return Err(format!(
            "This panel page brings {files} files; a page may bring at most {MAX_FILES}."
        ));
    }
    if bytes > MAX_BYTES {
        return Err(format!(
            "This panel page's files come to {:.1} MiB; a page may bring at most {} MiB.",
            bytes as f64 / (1024.0 * 1024.0),
            MAX_BYTES / (1024 * 1024)
        ));
    }
    Ok(())
}

/// Resolves `panel` from the backend's own manifest, fetches + verifies its files, mounts it.
pub async fn mount(
    panels: &Panels,
    seat: &Seat,
    panel: &str,
    theme: &serde_json::Value,
) -> Result<Mounted, String> {
    // The person's answer for this room, held by the backend: no answer, no page.
    if !panels.consent.allowed() {
        return Err("This room's panel code is off.".into());
    }
    let p: UiManifestPanel = panels
        .panel(panel)
        .filter(|p| p.tier == 2)
        .ok_or("no such panel page in this table's manifest")?;
    let entry = p.entry.clone().ok_or("the panel has no entry")?;
    let declared = p.assets.clone().unwrap_or_default();
    check_limits(
        declared.len() + 1,
        declared
            .iter()
            .fold(entry.size, |sum, a| sum.saturating_add(a.size)),
    )?;
    let mut assets = HashMap::new();
    for a in declared {
        let segs = clean_segments(&a.path).ok_or("a panel asset has an unsafe path")?;
        if segs.iter().any(|s| s.starts_with("__")) {
            return Err("a panel asset uses a reserved path".into());
        }
        let mime = clean_mime(&a.mime).ok_or("a panel asset has an unusable mime")?;
        assets.insert(
            segs.join("/"),
            Served {
                hash: a.hash.clone(),
                size: a.size,
                mime,
            },
        );
    }
    let entry = Served {
        hash: entry.hash,
        size: entry.size,
        mime: "text/html".into(),
    };
    // Everything into the verified cache, each at its declared size, before anything is served.
    let cache = panels.cache.get()?;
    for f in std::iter::once(&entry).chain(assets.values()) {
        if cache.cached(&f.hash, Some(f.size)).await.is_some() {
            continue;
        }
        let session = seat.session().await.ok_or("not at a table")?;
        let channel = session.media().ok_or("offline")?;
        cache
            .get(&channel, &f.hash, Some(f.size))
            .await
            .map_err(|e| format!("A panel file could not be fetched: {e}."))?;
    }
    let token = random_hex128();
    let nonce = random_hex128();
    panels.mounts.insert(
        token.clone(),
        Mount {
            panel: p.id.clone(),
            spec: p,
            nonce: nonce.clone(),
            entry,
            assets,
            theme_css: theme_css(theme),
            gate: Gate::new(),
        },
    );
    Ok(Mounted {
        url: super::origin::mount_url(&token),
        nonce,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_on_files_and_bytes() {
        assert!(check_limits(MAX_FILES, MAX_BYTES).is_ok());
        let many = check_limits(MAX_FILES + 1, 10).unwrap_err();
        assert!(many.contains("65 files"), "{many}");
        let big = check_limits(2, MAX_BYTES + 1).unwrap_err();
        assert!(big.contains("at most 2 MiB"), "{big}");
    }

    #[tokio::test]
    async fn a_mount_serves_a_bounded_number_of_requests_at_once() {
        let gate = Arc::new(Gate::new());
        // Every turn taken and held…
        let mut held = Vec::new();
        for _ in 0..MAX_CONCURRENT {
            held.push(gate.permits.try_acquire().expect("a free turn"));
        }
        // …so the next requests wait, up to the limit…
        let mut waiters = Vec::new();
        for _ in 0..MAX_WAITING {
            let g = gate.clone();
            waiters.push(tokio::spawn(async move { g.enter().await.is_some() }));
        }
        while gate.waiting.load(Ordering::SeqCst) < MAX_WAITING {
            tokio::task::yield_now().await;
        }
        // …and one more is refused at once.
        assert!(gate.enter().await.is_none(), "an unbounded queue");
        assert_eq!(gate.waiting.load(Ordering::SeqCst), MAX_WAITING);
        drop(held);
        for w in waiters {
            assert!(w.await.unwrap(), "a waiting request was dropped");
        }
    }

    fn panel(id: &str, entry_hash: &str) -> UiManifestPanel {
        serde_json::from_value(serde_json::json!({
            "id": id, "slot": "sidebar", "tier": 2, "title": "T",
            "entry": {"path": "index.html", "hash": entry_hash, "size": 10, "mime": "text/html"}
        }))
        .unwrap()
    }

    #[test]
    fn tokens_end_with_their_pages() {
        let mounts = Mounts::default();
        let put = |token: &str, p: UiManifestPanel| {
            mounts.insert(
                token.into(),
                Mount {
                    panel: p.id.clone(),
                    spec: p,
                    nonce: "n".into(),
                    entry: Served {
                        hash: "h".into(),
                        size: 10,
                        mime: "text/html".into(),
                    },
                    assets: HashMap::new(),
                    theme_css: String::new(),
                    gate: Gate::new(),
                },
            )
        };
        put("a", panel("p/a", "h1"));
        put("b", panel("p/b", "h2"));
        put("c", panel("p/c", "h3"));
        // A new manifest: p/a unchanged stays, p/b changed and p/c dropped go.
        mounts.keep_only(&[panel("p/a", "h1"), panel("p/b", "h2-new")]);
        assert!(mounts.get("a").is_some());
        assert!(mounts.get("b").is_none() && mounts.get("c").is_none());
        // The page unmounts: its token goes.
        assert!(mounts.unmount("a"));
        assert!(mounts.get("a").is_none());
        assert!(!mounts.unmount("a"));
        // A second mount of one panel retires the first.
        put("d", panel("p/d", "h4"));
        put("e", panel("p/d", "h4"));
        assert!(mounts.get("d").is_none() && mounts.get("e").is_some());
        mounts.clear();
        assert_eq!(mounts.len(), 0);
    }
}
