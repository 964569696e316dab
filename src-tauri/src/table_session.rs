//! The one table Studio sits at: its session, the event pump to the UI, the demo table.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use local_table::{LocalTable, RunningTable};
use protocol::{ClientFrame, ServerFrame};
use serde::Serialize;
use tauri::async_runtime::Mutex;
use tauri::ipc::Channel;
use tokio::sync::mpsc;
use transport::endpoint::{bind, NetworkMode};
use transport::media_cache::MediaCache;
use transport::session::{ConnectionStatus, JoinParams, Session, SessionEvent, SessionHandle};
use transport::ticket::parse_ticket;

use crate::saved_tables::SavedTables;

/// At most one emit per frame interval: a replay burst becomes a few IPC calls, not thousands.
const PUMP_INTERVAL: Duration = Duration::from_millis(16);

/// What the UI receives, in arrival order, batched.
// Nearly every event is a frame: boxing it would add an allocation per frame for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PumpEvent {
    Frame(ServerFrame),
    Status(ConnectionStatus),
    DecodeError(String),
    Oversize(usize),
    Upload(crate::media::share::UploadView),
    /// The pack bench reloaded (or refused) the pack.
    Bench(crate::bench::BenchStatus),
}

pub type PumpBatch = Vec<PumpEvent>;

/// The answer to a join: what the connect screen needs to hand over to the play view.
#[derive(Debug, Clone, Serialize)]
pub struct Joined {
    pub demo: bool,
    /// Set when this is the pack bench.
    pub bench: Option<crate::bench::BenchStatus>,
}

/// What to remember once the table's welcome names the room and role.
pub struct Remember {
    pub ticket: String,
    pub key: String,
    pub saved: std::sync::Arc<SavedTables>,
}

/// A pump's ticket to shared state: valid while no newer session has started.
struct Current {
    generation: u64,
    latest: std::sync::Arc<AtomicU64>,
}

impl Current {
    fn is_current(&self) -> bool {
        self.latest.load(Ordering::SeqCst) == self.generation
    }
}

#[derive(Default)]
struct Inner {
    session: Option<SessionHandle>,
    demo: Option<RunningTable>,
    /// The page's channel for the current table (upload progress rides it too).
    channel: Option<Channel<PumpBatch>>,
    /// The ticket dialed, for a keeper's "copy as invite".
    ticket: Option<String>,
    /// The pack bench's keys and watcher, while the bench is open (its table is `demo`).
    bench: Option<crate::bench::Bench>,
    /// How the table in play was joined, for a rejoin after the window was reloaded.
    last: Option<LastJoin>,
}

/// How to join the table in play again (no `Debug`: it holds the invite key).
#[derive(Clone)]
enum LastJoin {
    Table {
        ticket: iroh_tickets::endpoint::EndpointTicket,
        key: String,
        name: Option<String>,
        local_only: bool,
    },
    Bench {
        viewer: String,
    },
}

pub struct Tables {
    inner: Mutex<Inner>,
    cache: std::sync::OnceLock<MediaCache>,
    /// The latest `ui_manifest` the table sent (the backend's own copy, for `mount_panel`).
    manifest: Manifest,
    pub saved: std::sync::Arc<SavedTables>,
    /// Music, ambience and effects: started on first use, kept for the app's life.
    audio: std::sync::OnceLock<crate::audio::AudioMixer>,
    /// Bumped on every join: which session's pump may still update shared state.
    generation: std::sync::Arc<AtomicU64>,
    /// Live tier-2 panel mounts: they end with their pages, their manifest and their table.
    pub mounts: std::sync::Arc<crate::panels::Mounts>,
    /// Whether each room's panel code may run: the person's answers, and the room in play's.
    pub consent: crate::panels::Consent,
}

/// This viewer's panel list, as last received.
pub type Manifest = std::sync::Arc<std::sync::Mutex<Vec<protocol::frame::UiManifestPanel>>>;

impl Tables {
    pub fn new() -> Self {
        Tables {
            inner: Mutex::new(Inner::default()),
            cache: std::sync::OnceLock::new(),
            manifest: Manifest::default(),
            saved: std::sync::Arc::new(SavedTables::new(studio_dir())),
            generation: std::sync::Arc::new(AtomicU64::new(0)),
            audio: std::sync::OnceLock::new(),
            mounts: Default::default(),
            consent: crate::panels::Consent::new(studio_dir()),
        }
    }

    /// The room in play as panel-code answers name it: a saved table's id (ticket + room),
    /// or the demo table, or the bench.
    pub async fn room_key(&self, room: &str) -> String {
        let inner = self.inner.lock().await;
        if inner.bench.is_some() {
            crate::panels::consent::BENCH_ROOM.to_string()
        } else if inner.demo.is_some() {
            crate::panels::consent::DEMO_ROOM.to_string()
        } else {
            crate::saved_tables::table_id(inner.ticket.as_deref().unwrap_or_default(), room)
        }
    }

    /// Joins the table in play again on a fresh page channel (after the window was reloaded):
    /// a demo or bench table keeps running and keeps its room.
    pub async fn rejoin(&self, on_event: Channel<PumpBatch>) -> Result<Joined, String> {
        let last = self
            .inner
            .lock()
            .await
            .last
            .clone()
            .ok_or("there is no table to rejoin")?;
        match last {
            LastJoin::Bench { viewer } => self.bench_view(&viewer, on_event).await,
            LastJoin::Table {
                ticket,
                key,
                name,
                local_only,
            } => {
                let mode = if local_only {
                    NetworkMode::LocalOnly
                } else {
                    NetworkMode::from_env()
                };
                let endpoint = bind(mode).await.map_err(|e| e.to_string())?;
                self.connect(
                    endpoint,
                    ticket.clone(),
                    key.clone(),
                    name.clone(),
                    on_event,
                    None,
                )
                .await?;
                let mut inner = self.inner.lock().await;
                inner.last = Some(LastJoin::Table {
                    ticket,
                    key,
                    name,
                    local_only,
                });
                Ok(Joined {
                    demo: inner.demo.is_some(),
                    bench: None,
                })
            }
        }
    }

    /// A cache chosen by a test instead of the user's.
    #[cfg(test)]
    pub fn use_cache(&self, cache: MediaCache) {
        let _ = self.cache.set(cache);
    }

    /// The mixer (headless where there is no sound device, or with `STUDIO_AUDIO=headless`).
    pub fn audio(&self) -> &crate::audio::AudioMixer {
        self.audio
            .get_or_init(|| crate::audio::AudioMixer::start(self.audio_headless()))
    }

    /// Whether sound goes to the headless output (tests, machines without a device).
    pub fn audio_headless(&self) -> bool {
        std::env::var("STUDIO_AUDIO").as_deref() == Ok("headless")
    }

    /// The verified media cache (`~/.loreweaver/cache/media`, shared with the terminal client).
    pub fn cache(&self) -> Result<&MediaCache, String> {
        if let Some(c) = self.cache.get() {
            return Ok(c);
        }
        let dir = std::env::var_os("STUDIO_MEDIA_CACHE")
            .map(PathBuf::from)
            .or_else(MediaCache::default_dir)
            .ok_or("no home directory for the media cache")?;
        let cache = MediaCache::open(dir, transport::media_cache::DEFAULT_CAP_BYTES)
            .map_err(|e| format!("opening the media cache: {e}"))?;
        Ok(self.cache.get_or_init(|| cache))
    }

    /// The panel `id` of the latest manifest, if this viewer has it.
    pub fn panel(&self, id: &str) -> Option<protocol::frame::UiManifestPanel> {
        self.manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|p| p.id == id)
            .cloned()
    }

    /// The current table's ticket, as others would dial it.
    pub async fn ticket(&self) -> Option<String> {
        self.inner.lock().await.ticket.clone()
    }

    pub async fn session(&self) -> Option<SessionHandle> {
        self.inner.lock().await.session.clone()
    }

    pub async fn join(
        &self,
        ticket: &str,
        key: String,
        name: Option<String>,
        remember: bool,
        on_event: Channel<PumpBatch>,
    ) -> Result<Joined, String> {
        let parsed = parse_ticket(ticket).map_err(|e| e.to_string())?;
        self.leave().await;
        let endpoint = bind(NetworkMode::from_env())
            .await
            .map_err(|e| e.to_string())?;
        // Only when the person chose to: the key is saved once the welcome names the room.
        let remember = remember.then(|| Remember {
            ticket: parsed.to_string(),
            key: key.clone(),
            saved: self.saved.clone(),
        });
        self.connect(
            endpoint,
            parsed.clone(),
            key.clone(),
            name.clone(),
            on_event,
            remember,
        )
        .await?;
        self.inner.lock().await.last = Some(LastJoin::Table {
            ticket: parsed,
            key,
            name,
            local_only: false,
        });
        Ok(Joined {
            demo: false,
            bench: None,
        })
    }

    /// Rejoins a saved table with its stored key.
    pub async fn join_saved(
        &self,
        id: &str,
        on_event: Channel<PumpBatch>,
    ) -> Result<Joined, String> {
        let (table, key) = self
            .saved
            .get(id)
            .ok_or("that saved table has no key any more: join it again with its invite key")?;
        self.join(&table.ticket, key, None, true, on_event).await
    }

    pub async fn play_demo(&self, on_event: Channel<PumpBatch>) -> Result<Joined, String> {
        self.leave().await;
        let (mut config, keys) = local_table::table::demo_config(demo_dir())
            .map_err(|e| format!("the demo table could not start: {e}"))?;
        // Tests and pack authors iterating want the Keeper to type fast.
        if std::env::var("STUDIO_DEMO_PACING").as_deref() == Ok("fast") {
            config.pacing = local_table::Pacing::fast();
        }
        let table = LocalTable::start(config)
            .await
            .map_err(|e| format!("the demo table could not start: {e}"))?;
        let ticket = table.endpoint_ticket();
        self.inner.lock().await.demo = Some(table);
        // The demo never leaves the machine, whatever the user's network setting.
        let joined = match bind(NetworkMode::LocalOnly).await {
            Ok(endpoint) => {
                let joined = self
                    .connect(
                        endpoint,
                        ticket.clone(),
                        keys.keeper.clone(),
                        None,
                        on_event,
                        None,
                    )
                    .await;
                if joined.is_ok() {
                    self.inner.lock().await.last = Some(LastJoin::Table {
                        ticket,
                        key: keys.keeper.clone(),
                        name: None,
                        local_only: true,
                    });
                }
                joined
            }
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = joined {
            // A demo table nobody sits at must not keep running.
            self.leave().await;
            return Err(e);
        }
        Ok(Joined {
            demo: true,
            bench: None,
        })
    }

    /// Opens the pack bench on `dir`, viewing as `viewer` (`keeper` or `player`).
    pub async fn open_pack(
        &self,
        dir: PathBuf,
        viewer: &str,
        on_event: Channel<PumpBatch>,
    ) -> Result<Joined, String> {
        self.leave().await;
        let data = std::env::temp_dir().join(format!(
            "loreweaver-bench-{}-{}",
            std::process::id(),
            self.generation.load(Ordering::SeqCst)
        ));
        let (table, bench) = crate::bench::start_table(&dir, data).await?;
        {
            let mut inner = self.inner.lock().await;
            inner.demo = Some(table);
            inner.bench = Some(bench);
        }
        self.bench_view(viewer, on_event).await
    }

    /// Runs `f` on the open bench's table.
    pub async fn with_bench_table<R>(
        &self,
        f: impl FnOnce(&RunningTable) -> R,
    ) -> Result<R, String> {
        let inner = self.inner.lock().await;
        match (&inner.demo, &inner.bench) {
            (Some(table), Some(_)) => Ok(f(table)),
            _ => Err("no pack is open on the bench".into()),
        }
    }

    /// Joins the open bench's table as `viewer`, on a fresh page channel; the table, its room
    /// and its variables stay as they are.
    pub async fn bench_view(
        &self,
        viewer: &str,
        on_event: Channel<PumpBatch>,
    ) -> Result<Joined, String> {
        let (ticket, key, status) = {
            let mut inner = self.inner.lock().await;
            let Inner { demo, bench, .. } = &mut *inner;
            let (Some(table), Some(bench)) = (demo.as_ref(), bench.as_mut()) else {
                return Err("no pack is open on the bench".into());
            };
            crate::bench::watch(table, bench, viewer.to_string(), on_event.clone())?;
            let key = if viewer == "player" {
                bench.player_key.clone()
            } else {
                bench.keeper_key.clone()
            };
            (
                table.endpoint_ticket(),
                key,
                crate::bench::status(table, bench, viewer),
            )
        };
        let endpoint = bind(NetworkMode::LocalOnly)
            .await
            .map_err(|e| e.to_string())?;
        self.connect(endpoint, ticket, key, None, on_event, None)
            .await?;
        self.inner.lock().await.last = Some(LastJoin::Bench {
            viewer: viewer.to_string(),
        });
        Ok(Joined {
            demo: false,
            bench: Some(status),
        })
    }

    async fn connect(
        &self,
        endpoint: iroh::Endpoint,
        ticket: iroh_tickets::endpoint::EndpointTicket,
        key: String,
        name: Option<String>,
        on_event: Channel<PumpBatch>,
        remember: Option<Remember>,
    ) -> Result<(), String> {
        let params = JoinParams {
            key,
            name: name.filter(|n| !n.trim().is_empty()),
            client_version: env!("CARGO_PKG_VERSION").into(),
        };
        let ticket_text = ticket.to_string();
        let (handle, events) = Session::connect(endpoint, ticket, params)
            .await
            .map_err(|e| e.to_string())?;
        let director = self.cache().ok().map(|cache| {
            crate::audio::director::AudioDirector::new(
                cache.clone(),
                handle.clone(),
                self.audio().clone(),
            )
        });
        // One table at a time: a join racing another closes the older session.
        {
            let mut inner = self.inner.lock().await;
            if let Some(old) = inner.session.replace(handle) {
                old.close();
            }
            inner.channel = Some(on_event.clone());
            inner.ticket = Some(ticket_text);
        }
        // A pump of an older session may still hold frames: only the current one may write.
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        self.manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        // A join without a leave: the last table's pages are gone, so are their tokens, and
        // nothing mounts until the new room's answer is asked for.
        self.mounts.clear();
        self.consent.leave();
        let current = Current {
            generation,
            latest: self.generation.clone(),
        };
        tauri::async_runtime::spawn(pump(
            events,
            on_event,
            self.manifest.clone(),
            self.mounts.clone(),
            remember,
            current,
            director,
        ));
        Ok(())
    }

    /// The session and the page's channel an upload reports to.
    pub async fn upload_context(&self) -> (Option<SessionHandle>, Option<Channel<PumpBatch>>) {
        let inner = self.inner.lock().await;
        (inner.session.clone(), inner.channel.clone())
    }

    pub async fn send(&self, frame: ClientFrame) -> Result<(), String> {
        let session = self.session().await.ok_or("not at a table")?;
        session.send(frame).await.map_err(|e| e.to_string())
    }

    pub async fn leave(&self) {
        let (session, demo) = {
            let mut inner = self.inner.lock().await;
            inner.channel = None;
            inner.ticket = None;
            inner.bench = None;
            inner.last = None;
            (inner.session.take(), inner.demo.take())
        };
        // Leaving the table silences it.
        if let Some(audio) = self.audio.get() {
            for layer in ["bgm", "ambience", "sfx"] {
                audio.send(crate::audio::AudioCommand::Layer(
                    sound::plan::Action::Stop {
                        layer: layer.into(),
                        fade_ms: 0,
                    },
                ));
            }
        }
        if let Some(s) = session {
            s.close();
        }
        self.manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.mounts.clear();
        self.consent.leave();
        if let Some(t) = demo {
            t.shutdown().await;
        }
    }
}

/// Studio's own files: saved tables, the demo table (`STUDIO_DATA_DIR` moves them).
pub(crate) fn studio_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("STUDIO_DATA_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    home.join(".loreweaver/studio")
}

/// Where the demo table keeps its keys, media and room state.
fn demo_dir() -> PathBuf {
    studio_dir().join("demo-table")
}

/// Forwards session events to the UI, at most one batch per [`PUMP_INTERVAL`], keeping the
/// backend's copy of the manifest and saving the table once its welcome names room and role.
async fn pump(
    mut events: mpsc::Receiver<SessionEvent>,
    channel: Channel<PumpBatch>,
    manifest: Manifest,
    mounts: std::sync::Arc<crate::panels::Mounts>,
    mut remember: Option<Remember>,
    current: Current,
    director: Option<crate::audio::director::AudioDirector>,
) {
    let mut saved_as: Option<(std::sync::Arc<SavedTables>, String)> = None;
    let mut track = |event: &SessionEvent| match event {
        SessionEvent::Frame(ServerFrame::AudioControl(c)) if current.is_current() => {
            // In arrival order: the director keeps each layer's frames in sequence.
            if let Some(d) = &director {
                d.control(c);
            }
        }
        SessionEvent::Frame(ServerFrame::AudioState(state)) if current.is_current() => {
            if let Some(d) = &director {
                d.state(state);
            }
        }
        SessionEvent::Frame(ServerFrame::UiManifest(m)) if current.is_current() => {
            *manifest.lock().unwrap_or_else(|e| e.into_inner()) = m.panels.clone();
            mounts.keep_only(&m.panels);
        }
        SessionEvent::Frame(ServerFrame::Welcome(w)) => {
            if let Some(r) = remember.take() {
                if let Err(e) = r
                    .saved
                    .remember(&r.ticket, &w.room, w.you.role.as_str(), &r.key)
                {
                    tracing::warn!("could not save the table: {e}");
                }
                saved_as = Some((
                    r.saved.clone(),
                    crate::saved_tables::table_id(&r.ticket, &w.room),
                ));
            }
        }
        // A key the table refused for good (revoked, deleted): the saved table says so.
        SessionEvent::Status(ConnectionStatus::Refused { reason }) => {
            if let Some((saved, id)) = &saved_as {
                if let Err(e) = saved.mark_refused(id, reason) {
                    tracing::warn!("could not mark the saved table: {e}");
                }
            }
        }
        _ => {}
    };
    while let Some(first) = events.recv().await {
        track(&first);
        let mut batch = vec![to_pump(first)];
        tokio::time::sleep(PUMP_INTERVAL).await;
        while let Ok(more) = events.try_recv() {
            track(&more);
            batch.push(to_pump(more));
        }
        if channel.send(batch).is_err() {
            // The page went away (reload or close): nobody is listening any more.
            break;
        }
    }
}

fn to_pump(event: SessionEvent) -> PumpEvent {
    match event {
        SessionEvent::Frame(f) => PumpEvent::Frame(f),
        SessionEvent::Status(s) => PumpEvent::Status(crate::clean::status(s)),
        SessionEvent::DecodeError(e) => PumpEvent::DecodeError(crate::clean::text(&e)),
        SessionEvent::Oversize { discarded } => PumpEvent::Oversize(discarded),
    }
}
