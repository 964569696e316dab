//! Hosting a table: Studio starts the real engine as its child (one data folder per hosted
//! table, inside the profile), waits for its ticket, reads its bootstrap keeper key and joins
//! as keeper through the seat. The key goes to the seat only, never to the window. The
//! engine's output is redacted (`hosting::log`) into a ring the Log drawer reads and into a log
//! file in the profile's log folder. Stop is SIGTERM, then SIGKILL after 10 s; Studio's death
//! takes the engine with it (`hosting::process`, `run`). The tables on disk and the engine chosen are
//! `tables`; the window's commands are `commands`. What an engine is, its probe, the state
//! machine and the list of hosted tables are the pure `hosting` crate.

mod commands;
mod run;
mod tables;

pub use commands::*;
/// The engine hosting would use (the pack bench runs its packer too), and its probe.
pub(crate) use tables::{discover as engine_in_use, probe as probe_engine};

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use hosting::log::Ring;
use hosting::state::Phase;
use ipc::{HostingEvent, HostingView};
use tauri::ipc::Channel;

use tables::Table;

/// The launcher for "this machine only": the engine bound to 127.0.0.1 with no relays.
pub(crate) const LOOPBACK_LAUNCHER: &str = include_str!("loopback.py");
/// How long Stop waits after SIGTERM before SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long an engine may take to write its ticket (it gives up on relays itself after 45 s).
const TICKET_WAIT: Duration = Duration::from_secs(75);

/// The hosted table while Studio hosts it (one at a time).
#[derive(Clone, Default)]
pub struct Hosting(Arc<Mutex<Inner>>);

#[derive(Default)]
struct Inner {
    phase: Phase,
    ring: Ring,
    table: Option<Table>,
    pid: Option<u32>,
    started_ms: Option<u64>,
    ticket: Option<String>,
    /// The keeper key read from `keeper-key.txt`: for the seat only, never in a view.
    key: Option<String>,
    demo_model: bool,
    channel: Option<Channel<HostingEvent>>,
    log: Option<crate::logging::folder::Capped<std::fs::File>>,
    /// Bumped on every start: only the latest process's end counts.
    generation: u64,
}

impl Hosting {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn view(inner: &Inner) -> HostingView {
        let crash = match &inner.phase {
            Phase::Crashed(c) => Some(c),
            _ => None,
        };
        HostingView {
            state: inner.phase.name().into(),
            name: inner.table.as_ref().map(|t| t.name.clone()),
            ticket: inner.ticket.clone(),
            version: inner.table.as_ref().map(|t| t.version.clone()),
            started_ms: inner.started_ms,
            demo_model: inner.demo_model,
            local_only: inner.table.as_ref().is_some_and(|t| t.local_only),
            pid: inner.pid,
            exit_code: crash.and_then(|c| c.code),
            exit_signal: crash.and_then(|c| c.signal),
            last_lines: crash.map(|c| c.last_lines.clone()).unwrap_or_default(),
            before_serving: crash.is_some_and(|c| c.before_serving),
        }
    }

    fn send_state(inner: &Inner) {
        if let Some(ch) = &inner.channel {
            let _ = ch.send(HostingEvent::State(Self::view(inner)));
        }
    }

    /// Keeps one line (redacted) in the ring and the log file; the redacted line.
    fn keep_line(inner: &mut Inner, raw: &str) -> String {
        let line = inner.ring.push(raw);
        if let Some(f) = inner.log.as_mut() {
            use std::io::Write;
            let _ = writeln!(f, "{line}");
        }
        line
    }

    /// The hosted table's name, ticket, keeper key and mode while it serves: for Studio's own
    /// keeper errands on it (the bench installs a built pack there). The key stays in the backend.
    pub(crate) fn keeper_errand(&self) -> Option<(String, String, String, bool)> {
        let inner = self.lock();
        if inner.phase != Phase::Serving {
            return None;
        }
        let table = inner.table.as_ref()?;
        Some((
            table.name.clone(),
            inner.ticket.clone()?,
            inner.key.clone()?,
            table.local_only,
        ))
    }

    fn line(&self, raw: &str) {
        let mut inner = self.lock();
        let line = Self::keep_line(&mut inner, raw);
        if hosting::log::is_demo_notice(&line) && !inner.demo_model {
            inner.demo_model = true;
            Self::send_state(&inner);
        }
        if let Some(ch) = &inner.channel {
            let _ = ch.send(HostingEvent::Lines(vec![line]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launcher_binds_loopback_only() {
        assert!(LOOPBACK_LAUNCHER.contains("preset_minimal()"));
        assert!(LOOPBACK_LAUNCHER.contains("127.0.0.1:{PORT}"));
    }
}
