//! The running table, on top of every layer: start (context, endpoint, accept loop),
//! shutdown, the pack bench's hot reload and the demo setup.

use std::path::PathBuf;
use std::sync::Arc;

use iroh_tickets::endpoint::EndpointTicket;
use iroh_tickets::Ticket as _;
use tokio_util::task::TaskTracker;

use crate::error::Error;
use crate::model::saved::Var;
use crate::rules::config::TableConfig;
use crate::rules::context::Context;
use crate::rules::keystore::{KeyEntry, KeySource, Keystore};
use crate::rules::packs;
use crate::rules::state::broadcast_state;
use crate::rules::vars;
use crate::wire::carrier;

/// Re-reads the pack folder `dir` and, if it loads cleanly, swaps it in and pushes every
/// room that has it enabled a fresh manifest (and any variable its world cards newly
/// define; values already there survive). On an error the old pack stays served.
fn reload_pack(ctx: &Context, dir: &std::path::Path) -> Result<String, Error> {
    let fresh = Arc::new(packs::load(dir)?);
    let id = fresh.id.clone();
    ctx.packs.put(fresh.clone());
    for room in ctx.rooms() {
        let mut st = room.lock();
        // A bench pack that did not load at start is enabled once it does.
        if ctx.cfg.enable_packs && !st.saved.packs.contains(&id) {
            st.saved.packs.push(id.clone());
        }
        if st.saved.packs.contains(&id) {
            let enabled = st.saved.packs.clone();
            st.broadcast_with(|m| Some(packs::manifest_frame(&ctx.packs, &enabled, m.is_keeper())));
            let before = st.saved.vars.len();
            packs::seed_vars(&fresh, "en", &mut st.saved.vars);
            if st.saved.vars.len() != before {
                broadcast_state(&st, false);
            }
        }
    }
    Ok(id)
}

/// Reload and inspect a running table's packs (the pack author's bench).
#[derive(Clone)]
pub struct PacksHandle(Arc<Context>);

impl PacksHandle {
    /// See [`RunningTable::reload_pack`].
    pub fn reload(&self, dir: &std::path::Path) -> Result<String, Error> {
        reload_pack(&self.0, dir)
    }

    /// The pack served from `dir`, as last loaded well.
    pub fn pack(&self, dir: &std::path::Path) -> Option<Arc<pack::Pack>> {
        self.0.packs.all().into_iter().find(|p| p.dir == dir)
    }

    /// Every variable of `room`, hidden ones included.
    pub fn room_vars(&self, room: &str) -> Vec<Var> {
        self.0.room(room).lock().saved.vars.clone()
    }

    /// Every panel of the served packs with its audience (`all`, `keeper`, `players`): what
    /// the bench lists, including the panels one viewer does not receive.
    pub fn audiences(&self) -> Vec<(String, &'static str)> {
        self.0
            .packs
            .all()
            .iter()
            .flat_map(|p| p.panels.clone())
            .map(|p| (p.id, p.audience.as_str()))
            .collect()
    }

    /// The card files of the served packs, relative to their folders.
    pub fn card_paths(&self) -> Vec<String> {
        self.0
            .packs
            .all()
            .iter()
            .flat_map(|p| p.cards.iter().map(|c| c.path.clone()))
            .collect()
    }

    /// What the served packs' lint warns of (the engine accepts it but skips, ignores or never
    /// fires it), in file order.
    pub fn warnings(&self) -> Vec<pack::Problem> {
        self.0
            .packs
            .all()
            .iter()
            .flat_map(|p| p.warnings.clone())
            .collect()
    }
}

/// A started table.
pub struct RunningTable {
    ctx: Arc<Context>,
    endpoint: iroh::Endpoint,
    ticket: EndpointTicket,
    accept: tokio::task::JoinHandle<()>,
    /// Every task holding a connection (see `carrier::accept_loop`).
    connections: TaskTracker,
}

impl RunningTable {
    /// Re-reads a pack folder and republishes the manifests of every room using it; on an
    /// error (a YAML typo mid-edit, say) the last good pack stays served. Returns the pack id.
    pub fn reload_pack(&self, dir: &std::path::Path) -> Result<String, Error> {
        reload_pack(&self.ctx, dir)
    }

    /// The table's packs, as a handle a file watcher's thread can own.
    pub fn packs_handle(&self) -> PacksHandle {
        PacksHandle(self.ctx.clone())
    }

    /// Every panel of the served packs with its audience; see [`PacksHandle::audiences`].
    pub fn panel_audiences(&self) -> Vec<(String, &'static str)> {
        self.packs_handle().audiences()
    }

    /// Every variable of `room`, hidden ones included (the bench's editor lists them all).
    pub fn room_vars(&self, room: &str) -> Vec<Var> {
        self.ctx.room(room).lock().saved.vars.clone()
    }

    /// Sets (or adds) a variable as the bench's editor does; every member gets a fresh `state`.
    pub fn set_var(&self, room: &str, id: &str, kind: &str, raw: &str) -> Result<(), String> {
        let room = self.ctx.room(room);
        let mut st = room.lock();
        vars::set_from_bench(&mut st, id, kind, raw)
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
        self.ctx.cfg.data_dir.clone()
    }

    /// Stops accepting, closes every connection and releases the port: when it returns, a
    /// table started on the same port binds it.
    pub async fn shutdown(self) {
        for room in self.ctx.rooms() {
            room.persist();
        }
        let RunningTable {
            ctx,
            endpoint,
            accept,
            connections,
            ..
        } = self;
        let sockets = endpoint.bound_sockets();
        // Closing makes `accept` return None and errors every stream, so each connection
        // task ends and drops its connection (a live one keeps the socket open).
        endpoint.close().await;
        connections.close();
        let settled = tokio::time::timeout(SHUTDOWN_GRACE, async move {
            let _ = accept.await;
            connections.wait().await;
        })
        .await;
        if settled.is_err() {
            tracing::warn!("connection tasks still running {SHUTDOWN_GRACE:?} after close");
        }
        drop(endpoint);
        if ctx.cfg.port != 0 && !carrier::released(&sockets, SHUTDOWN_GRACE).await {
            tracing::warn!(?sockets, "the table's port is still taken after shutdown");
        }
    }
}

/// How long shutdown waits for connection tasks after the endpoint closed (the writer's
/// own goodbye wait is 2 s; the longest task ends within it).
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

pub(crate) async fn start(cfg: TableConfig) -> Result<RunningTable, Error> {
    let story_dir = if cfg.without_story {
        None
    } else {
        cfg.story.clone().or_else(crate::demo_story::on_disk)
    };
    let ctx = Arc::new(Context::new(cfg, story_dir)?);
    let endpoint = carrier::bind(ctx.cfg.secret_key.clone(), ctx.cfg.port).await?;
    let ticket = carrier::ticket_for(&endpoint);
    tracing::info!(id = %endpoint.id(), "local table listening on loopback");
    let connections = TaskTracker::new();
    let accept = tokio::spawn(carrier::accept_loop(
        endpoint.clone(),
        ctx.clone(),
        connections.clone(),
    ));
    Ok(RunningTable {
        ctx,
        endpoint,
        ticket,
        accept,
        connections,
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
    let story = crate::demo_story::locate(&data_dir)?;
    let mut config = TableConfig::new(KeySource::File(path), data_dir);
    let pack = story.join("pack");
    if pack.join("pack.yaml").exists() {
        config.packs.push(pack);
    }
    config.story = Some(story);
    Ok((
        config,
        DemoKeys {
            room: "demo".into(),
            keeper,
            player,
        },
    ))
}
