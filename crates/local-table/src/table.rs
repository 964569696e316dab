//! The running table: shared state, room registry, start/shutdown, the demo setup.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use iroh_tickets::endpoint::EndpointTicket;
use iroh_tickets::Ticket as _;

use crate::admin::AdminState;
use crate::keystore::{KeyEntry, KeySource, Keystore};
use crate::packs::{self, Pack};
use crate::room::{Room, Saved};
use crate::story::Story;
use crate::{Error, TableConfig};

pub struct Table {
    pub cfg: TableConfig,
    pub keys: Keystore,
    /// Swapped whole on a hot reload; readers take a snapshot.
    packs: std::sync::RwLock<Vec<Arc<Pack>>>,
    pub story: Option<Story>,
    pub admin: Mutex<AdminState>,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    next_conn: AtomicU64,
}

impl Table {
    pub fn new(cfg: TableConfig) -> Result<Self, Error> {
        let keys = Keystore::open(&cfg.keys)?;
        let packs = cfg
            .packs
            .iter()
            .map(|p| packs::load(p).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        let story_dir = cfg.story.clone().or_else(default_story_dir);
        let story = match story_dir {
            Some(dir) => Some(Story::load(&dir)?),
            None => None,
        };
        std::fs::create_dir_all(&cfg.data_dir)?;
        Ok(Self {
            cfg,
            keys,
            packs: std::sync::RwLock::new(packs),
            story,
            admin: Mutex::new(AdminState::default()),
            rooms: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
        })
    }

    pub fn next_conn(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    pub fn room_file(&self, room: &str) -> PathBuf {
        self.cfg
            .data_dir
            .join("rooms")
            .join(format!("{}.json", safe_name(room)))
    }

    pub fn media_dir(&self, room: &str) -> PathBuf {
        self.cfg.data_dir.join("media").join(safe_name(room))
    }

    /// The live room, loading its snapshot (or seeding it from the story) on first use.
    pub fn room(&self, name: &str) -> Arc<Room> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(room) = rooms.get(name) {
            return room.clone();
        }
        let file = self.room_file(name);
        let saved = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str::<Saved>(&t).ok())
            .unwrap_or_else(|| self.fresh_saved(name));
        let room = Room::new(name, file, saved);
        rooms.insert(name.to_string(), room.clone());
        room
    }

    /// A brand-new room: the story's variables, cast and media.
    pub fn fresh_saved(&self, room: &str) -> Saved {
        let mut saved = Saved::default();
        if let Some(story) = &self.story {
            story.seed(&mut saved, &self.media_dir(room));
        }
        if self.cfg.enable_packs {
            saved.packs = self.packs().iter().map(|p| p.id.clone()).collect();
        }
        // Rooms with a pack enabled start from its world cards' variables.
        for id in &saved.packs {
            if let Some(pack) = self.pack(id) {
                packs::seed_vars(&pack, "en", &mut saved.vars);
            }
        }
        saved
    }

    /// Drops a room from memory (its members stay connected to the old object until they leave).
    pub fn forget_room(&self, name: &str) {
        self.rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(name);
    }

    pub fn pack(&self, id: &str) -> Option<Arc<Pack>> {
        self.packs().into_iter().find(|p| p.id == id)
    }

    /// Every pack the table serves, as of now.
    pub fn packs(&self) -> Vec<Arc<Pack>> {
        self.packs.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Re-reads the pack folder `dir` and, if it loads cleanly, swaps it in and pushes every
    /// room that has it enabled a fresh manifest (and any variable its world cards newly
    /// define; values already there survive). On an error the old pack stays served.
    pub fn reload_pack(&self, dir: &std::path::Path) -> Result<String, Error> {
        let fresh = Arc::new(packs::load(dir)?);
        let id = fresh.id.clone();
        {
            let mut packs = self.packs.write().unwrap_or_else(|e| e.into_inner());
            match packs.iter().position(|p| p.dir == dir) {
                Some(i) => packs[i] = fresh.clone(),
                None => packs.push(fresh.clone()),
            }
        }
        let rooms: Vec<Arc<Room>> = self
            .rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        for room in rooms {
            let mut st = room.lock();
            // A bench pack that did not load at start is enabled once it does.
            if self.cfg.enable_packs && !st.saved.packs.contains(&id) {
                st.saved.packs.push(id.clone());
            }
            if st.saved.packs.contains(&id) {
                let enabled = st.saved.packs.clone();
                st.broadcast_with(|m| {
                    Some(crate::packs::manifest_frame(self, &enabled, m.is_keeper()))
                });
                let before = st.saved.vars.len();
                packs::seed_vars(&fresh, "en", &mut st.saved.vars);
                if st.saved.vars.len() != before {
                    crate::state::broadcast_state(&st, false);
                }
            }
        }
        Ok(id)
    }
}

/// The repository's demo module, when running from a checkout.
/// The demo story: beside an installed binary (`<prefix>/share/loreweaver-studio/demo`, where
/// the packages put it), or, in a developer's debug build, in the source tree.
fn default_story_dir() -> Option<PathBuf> {
    let installed = std::env::current_exe().ok().and_then(|exe| {
        exe.parent()
            .map(|bin| bin.join("../share/loreweaver-studio/demo"))
    });
    let source = cfg!(debug_assertions)
        .then(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo"));
    [installed, source]
        .into_iter()
        .flatten()
        .find(|dir| dir.join("story.json").exists())
}

pub fn safe_name(room: &str) -> String {
    room.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Reload and inspect a running table's packs (the pack author's bench).
#[derive(Clone)]
pub struct PacksHandle(Arc<Table>);

impl PacksHandle {
    /// See [`RunningTable::reload_pack`].
    pub fn reload(&self, dir: &std::path::Path) -> Result<String, Error> {
        self.0.reload_pack(dir)
    }

    /// Every panel of the served packs with its audience (`all`, `keeper`, `players`): what
    /// the bench lists, including the panels one viewer does not receive.
    pub fn audiences(&self) -> Vec<(String, &'static str)> {
        self.0
            .packs()
            .iter()
            .flat_map(|p| p.panels.clone())
            .map(|p| (p.id, p.audience.as_str()))
            .collect()
    }
}

/// A started table.
pub struct RunningTable {
    pub(crate) table: Arc<Table>,
    pub(crate) endpoint: iroh::Endpoint,
    pub(crate) ticket: EndpointTicket,
    pub(crate) accept: tokio::task::JoinHandle<()>,
}

impl RunningTable {
    /// Re-reads a pack folder and republishes the manifests of every room using it; on an
    /// error (a YAML typo mid-edit, say) the last good pack stays served. Returns the pack id.
    pub fn reload_pack(&self, dir: &std::path::Path) -> Result<String, Error> {
        self.table.reload_pack(dir)
    }

    /// The table's packs, as a handle a file watcher's thread can own.
    pub fn packs_handle(&self) -> PacksHandle {
        PacksHandle(self.table.clone())
    }

    /// Every panel of the served packs with its audience; see [`PacksHandle::audiences`].
    pub fn panel_audiences(&self) -> Vec<(String, &'static str)> {
        self.packs_handle().audiences()
    }

    /// Every variable of `room`, hidden ones included (the bench's editor lists them all).
    pub fn room_vars(&self, room: &str) -> Vec<crate::room::Var> {
        self.table.room(room).lock().saved.vars.clone()
    }

    /// See [`crate::vars::set_from_bench`].
    pub fn set_var(&self, room: &str, id: &str, kind: &str, raw: &str) -> Result<(), String> {
        let room = self.table.room(room);
        let mut st = room.lock();
        crate::vars::set_from_bench(&mut st, id, kind, raw)
    }

    /// The ticket a client dials (`endpoint…` string form).
    pub fn ticket(&self) -> String {
        self.ticket.encode_string()
    }

    pub fn endpoint_ticket(&self) -> EndpointTicket {
        self.ticket.clone()
    }

    pub fn endpoint_id(&self) -> iroh::EndpointId {
        self.endpoint.id()
    }

    /// The loopback socket the endpoint bound.
    pub fn local_addrs(&self) -> Vec<std::net::SocketAddr> {
        self.endpoint.bound_sockets()
    }

    pub fn data_dir(&self) -> PathBuf {
        self.table.cfg.data_dir.clone()
    }

    /// Stops accepting, closes every connection and releases the port.
    pub async fn shutdown(self) {
        self.accept.abort();
        for room in self
            .table
            .rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
        {
            room.persist();
        }
        self.endpoint.close().await;
    }
}

pub async fn start(cfg: TableConfig) -> Result<RunningTable, Error> {
    let table = Arc::new(Table::new(cfg)?);
    let endpoint = crate::carrier::bind(table.cfg.secret_key.clone(), table.cfg.port).await?;
    let ticket = crate::carrier::ticket_for(&endpoint);
    tracing::info!(id = %endpoint.id(), "local table listening on loopback");
    let accept = tokio::spawn(crate::carrier::accept_loop(endpoint.clone(), table.clone()));
    Ok(RunningTable {
        table,
        endpoint,
        ticket,
        accept,
    })
}

/// Keys handed to Studio for the demo.
#[derive(Clone)]
pub struct DemoKeys {
    pub room: String,
    pub keeper: String,
    pub player: String,
}

impl std::fmt::Debug for DemoKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoKeys")
            .field("room", &self.room)
            .field("keeper", &format_args!("…"))
            .field("player", &format_args!("…"))
            .finish()
    }
}

/// The demo's config: keys in `data_dir/keys.toml`, reused when they already exist.
pub fn demo_config(data_dir: PathBuf) -> Result<(TableConfig, DemoKeys), Error> {
    std::fs::create_dir_all(&data_dir)?;
    let path = data_dir.join("keys.toml");
    let store = Keystore::open(&KeySource::File(path.clone()))?;
    let existing = store.room_keys("demo");
    let find = |role: &str| {
        existing
            .iter()
            .find(|(_, e)| e.role == role)
            .map(|(k, _)| k.clone())
    };
    let entry = |name: &str, role: &str| KeyEntry {
        room: "demo".into(),
        name: name.into(),
        role: role.into(),
    };
    let keeper = match find("keeper") {
        Some(k) => k,
        None => store.add(entry("Keeper", "keeper"))?,
    };
    let player = match find("player") {
        Some(k) => k,
        None => store.add(entry("Player", "player"))?,
    };
    let mut config = TableConfig::new(KeySource::File(path), data_dir);
    if let Some(dir) = default_story_dir() {
        let pack = dir.join("pack");
        if pack.join("pack.yaml").exists() {
            config.packs.push(pack);
        }
    }
    Ok((
        config,
        DemoKeys {
            room: "demo".into(),
            keeper,
            player,
        },
    ))
}
