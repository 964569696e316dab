//! The seat: the one table Studio sits at. It joins, leaves and rejoins, sends what the person
//! does, and runs the [`pump`] that carries the table's events to the window.
//!
//! The seat knows no feature. Features that follow the table in play (sound, panels, saved
//! tables, the demo and the pack bench's own tables) register a [`Follower`] at startup: on each
//! join it may hand the pump a [`Listener`] for that session's events, and on leaving it drops
//! what it held for the table. Commands that need the session, the ticket or the window's
//! channel take `State<Seat>`.

mod pump;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ipc::PumpBatch;
use iroh_tickets::endpoint::EndpointTicket;
use protocol::ClientFrame;
use tauri::async_runtime::Mutex;
use tauri::ipc::Channel;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent, SessionHandle};

/// What kind of table is in play: a room someone hosts, or one Studio runs in-process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A table dialed by its ticket.
    Remote,
    /// The demo table.
    Demo,
    /// The pack bench's table.
    PackBench,
    /// A table Studio hosts with the real engine (joined as its keeper).
    Hosted,
}

/// How to join: everything a rejoin needs to dial the same table again (no `Debug`: it holds
/// the invite key).
#[derive(Clone)]
pub struct Dial {
    pub ticket: EndpointTicket,
    pub key: String,
    pub name: Option<String>,
    /// Loopback only, whatever the person's network setting (Studio's own tables).
    pub local_only: bool,
    pub kind: Kind,
}

/// What followers learn about a new session.
pub struct Joining<'a> {
    pub session: &'a SessionHandle,
    /// The ticket as others would dial it.
    pub ticket: &'a str,
    pub dial: &'a Dial,
    /// The person asked to remember this table and its key.
    pub remember: bool,
}

/// One session's events, in arrival order, as a feature follows them.
pub trait Listener: Send {
    /// `current` is false once a newer session has started: only read, never write shared
    /// state then.
    fn event(&mut self, event: &SessionEvent, current: bool);
}

/// A boxed future, for the followers' async half.
pub type Later<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// A feature that follows the table in play.
pub trait Follower: Send + Sync {
    /// A session starts (join or rejoin): drop the last table's state, and follow this one if
    /// there is anything to follow.
    fn joined(&self, joining: &Joining<'_>) -> Option<Box<dyn Listener>>;
    /// The person left the table.
    fn left(&self) -> Later<'_> {
        Box::pin(async {})
    }
}

/// The window's channel for the table in play, shared with whoever reports on it (uploads, the
/// pack bench's watcher): it always names the latest page's channel.
#[derive(Clone, Default)]
pub struct Outlet(Arc<std::sync::Mutex<Option<Channel<PumpBatch>>>>);

impl Outlet {
    /// The page's channel now, if a page listens.
    pub fn current(&self) -> Option<Channel<PumpBatch>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set(&self, channel: Option<Channel<PumpBatch>>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = channel;
    }
}

#[derive(Default)]
struct Inner {
    session: Option<SessionHandle>,
    /// The ticket dialed, for a keeper's "copy as invite".
    ticket: Option<String>,
    /// How the table in play was joined, for a rejoin after the window was reloaded.
    last: Option<Dial>,
}

/// A saved table's id, from its ticket and room: also how the room's panel-code answer is named.
pub fn table_id(ticket: &str, room: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{}\n{room}", ticket.trim()).as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

pub struct Seat {
    inner: Mutex<Inner>,
    outlet: Outlet,
    /// Bumped on every join: which session's pump may still update shared state.
    generation: Arc<AtomicU64>,
    followers: std::sync::RwLock<Vec<Arc<dyn Follower>>>,
}

impl Default for Seat {
    fn default() -> Self {
        Seat {
            inner: Mutex::new(Inner::default()),
            outlet: Outlet::default(),
            generation: Arc::new(AtomicU64::new(0)),
            followers: Default::default(),
        }
    }
}

impl Seat {
    /// Registers a feature that follows every table from now on.
    pub fn follow(&self, follower: Arc<dyn Follower>) {
        self.followers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(follower);
    }

    fn followers(&self) -> Vec<Arc<dyn Follower>> {
        self.followers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The window's channel for the table in play.
    pub fn outlet(&self) -> Outlet {
        self.outlet.clone()
    }

    /// Joins a table with `dial`; its events flow to `on_event` from now on. A seat already
    /// taken is given up first only by the caller's choice ([`Seat::leave`]): a rejoin or a
    /// viewer switch keeps Studio's own table running.
    pub async fn join(
        &self,
        dial: Dial,
        remember: bool,
        on_event: Channel<PumpBatch>,
    ) -> Result<(), String> {
        let mode = if dial.local_only {
            NetworkMode::LocalOnly
        } else {
            NetworkMode::from_env()
        };
        let endpoint = bind(mode).await.map_err(|e| e.to_string())?;
        let params = JoinParams {
            key: dial.key.clone(),
            name: dial.name.clone().filter(|n| !n.trim().is_empty()),
            client_version: env!("CARGO_PKG_VERSION").into(),
        };
        let ticket = dial.ticket.to_string();
        let (handle, events) = Session::connect(endpoint, dial.ticket.clone(), params)
            .await
            .map_err(|e| e.to_string())?;
        // One table at a time: a join racing another closes the older session.
        {
            let mut inner = self.inner.lock().await;
            if let Some(old) = inner.session.replace(handle.clone()) {
                old.close();
            }
            inner.ticket = Some(ticket.clone());
            inner.last = Some(dial.clone());
        }
        self.outlet.set(Some(on_event.clone()));
        // A pump of an older session may still hold frames: only the current one may write.
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let joining = Joining {
            session: &handle,
            ticket: &ticket,
            dial: &dial,
            remember,
        };
        let listeners = self
            .followers()
            .iter()
            .filter_map(|f| f.joined(&joining))
            .collect();
        let current = pump::Current {
            generation,
            latest: self.generation.clone(),
        };
        tauri::async_runtime::spawn(pump::pump(events, on_event, listeners, current));
        // Which table, never with what key.
        tracing::info!(kind = ?dial.kind, "joined a table");
        Ok(())
    }

    /// Leaves the table in play and dials `ticket` (as pasted) with an invite key.
    pub async fn join_remote(
        &self,
        ticket: &str,
        key: String,
        name: Option<String>,
        remember: bool,
        on_event: Channel<PumpBatch>,
    ) -> Result<(), String> {
        let ticket = transport::ticket::parse_ticket(ticket).map_err(|e| e.to_string())?;
        self.leave().await;
        let dial = Dial {
            ticket,
            key,
            name,
            local_only: false,
            kind: Kind::Remote,
        };
        self.join(dial, remember, on_event).await
    }

    /// Dials the table in play again on a fresh page channel (after the window was reloaded).
    pub async fn rejoin(&self, on_event: Channel<PumpBatch>) -> Result<Kind, String> {
        let dial = self
            .inner
            .lock()
            .await
            .last
            .clone()
            .ok_or("there is no table to rejoin")?;
        let kind = dial.kind;
        self.join(dial, false, on_event).await?;
        Ok(kind)
    }

    /// What kind of table is in play, if any.
    pub async fn kind(&self) -> Option<Kind> {
        self.inner.lock().await.last.as_ref().map(|d| d.kind)
    }

    /// The current table's ticket, as others would dial it.
    pub async fn ticket(&self) -> Option<String> {
        self.inner.lock().await.ticket.clone()
    }

    pub async fn session(&self) -> Option<SessionHandle> {
        self.inner.lock().await.session.clone()
    }

    pub async fn send(&self, frame: ClientFrame) -> Result<(), String> {
        let session = self.session().await.ok_or("not at a table")?;
        session.send(frame).await.map_err(|e| e.to_string())
    }

    /// Leaves the table: the session closes, and every follower drops what it held for it
    /// (Studio's own tables stop).
    pub async fn leave(&self) {
        let session = {
            let mut inner = self.inner.lock().await;
            inner.ticket = None;
            inner.last = None;
            inner.session.take()
        };
        self.outlet.set(None);
        if let Some(s) = session {
            s.close();
        }
        for f in self.followers() {
            f.left().await;
        }
    }
}
