//! The engine's run: spawned as Studio's child, its ticket awaited, its end watched, and
//! stopped with SIGTERM then SIGKILL.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hosting::engine::Engine;
use hosting::state::{Event, Phase};

use super::tables::{now_ms, sidecar, Table};
use hosting::process;

use super::{Hosting, LOOPBACK_LAUNCHER, STOP_GRACE, TICKET_WAIT};

/// The engine's end as a process reports it.
struct Watch {
    hosting: Hosting,
    generation: u64,
}

/// The signal that ended the engine (Unix only: Windows ends a process with a code).
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(status);
    #[cfg(not(unix))]
    return {
        let _ = status;
        None
    };
}

impl process::Watcher for Watch {
    fn line(&self, text: &str) {
        self.hosting.line(text);
    }

    fn exited(&self, status: std::process::ExitStatus) {
        let mut inner = self.hosting.lock();
        if inner.generation != self.generation {
            return;
        }
        let last_lines = inner.ring.last(hosting::state::CRASH_LINES);
        let before = inner.phase.clone();
        inner.phase = before.next(Event::Exited {
            code: status.code(),
            signal: signal_of(&status),
            last_lines,
        });
        inner.pid = None;
        if let Some(t) = &inner.table {
            let _ = std::fs::remove_file(t.pid_file());
        }
        let note = format!("Studio: the engine ended ({status})");
        Hosting::keep_line(&mut inner, &note);
        tracing::info!(
            state = inner.phase.name(),
            %status,
            "the hosted engine ended"
        );
        Hosting::send_state(&inner);
    }
}

impl Hosting {
    /// Starts `table`'s engine and waits for its ticket: the ticket and the keeper key.
    pub(super) async fn start(&self, table: Table) -> Result<(String, String), String> {
        std::fs::create_dir_all(table.dir.join("data"))
            .map_err(|e| format!("{}: {e}", table.dir.display()))?;
        let ticket_file = table.dir.join("iroh-ticket.txt");
        let _ = std::fs::remove_file(&ticket_file);
        let keys = table.keys().display().to_string();
        let launch = if table.local_only {
            let Engine::Source { dir, python } = &table.engine else {
                return Err(format!(
                    "hosting for this machine only needs the engine's source folder (with its virtual environment); {} is an executable",
                    table.engine.path().display()
                ));
            };
            let launcher = table.dir.join("studio-loopback.py");
            std::fs::write(&launcher, LOOPBACK_LAUNCHER)
                .map_err(|e| format!("{}: {e}", launcher.display()))?;
            process::Launch {
                program: python.clone(),
                args: vec![
                    launcher.display().to_string(),
                    "--serve".into(),
                    "--keys".into(),
                    keys,
                ],
                workdir: dir.clone(),
                env: vec![("STUDIO_ENGINE_PORT".into(), table.port.to_string())],
            }
        } else {
            let (program, mut args) = table.engine.command();
            args.extend(["--serve".into(), "--keys".into(), keys]);
            process::Launch {
                program,
                args,
                workdir: table
                    .engine
                    .workdir()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| table.dir.clone()),
                env: Vec::new(),
            }
        };
        let mut launch = launch;
        launch.env.push((
            "TRPG_DATA_DIR".into(),
            table.dir.join("data").display().to_string(),
        ));
        let generation = {
            let mut inner = self.lock();
            if inner.phase.running() {
                return Err("the engine is already running".into());
            }
            inner.generation += 1;
            inner.phase = inner.phase.next(Event::Spawned);
            inner.ticket = None;
            inner.demo_model = false;
            inner.table = Some(table.clone());
            let log_dir = crate::logging::log_dir();
            let _ = crate::logging::folder::private_dir(&log_dir);
            inner.log = crate::logging::folder::Capped::open(
                &log_dir.join(format!("engine-{}.log", hosting::tables::slug(&table.name))),
            )
            .ok();
            let note = format!(
                "Studio: starting the engine {} for {} ({})",
                table.engine.path().display(),
                table.name,
                if table.local_only {
                    "this machine only"
                } else {
                    "Internet"
                }
            );
            Self::keep_line(&mut inner, &note);
            Self::send_state(&inner);
            inner.generation
        };
        let watch = Arc::new(Watch {
            hosting: self.clone(),
            generation,
        });
        let pid = match process::spawn(launch, watch) {
            Ok(pid) => pid,
            Err(e) => {
                let mut inner = self.lock();
                inner.phase = Phase::Idle;
                Self::send_state(&inner);
                return Err(e);
            }
        };
        let _ = std::fs::write(table.pid_file(), pid.to_string());
        {
            let mut inner = self.lock();
            inner.pid = Some(pid);
            inner.started_ms = Some(now_ms());
            Self::send_state(&inner);
        }
        let deadline = Instant::now() + TICKET_WAIT;
        let ticket = loop {
            if let Some(t) = sidecar(&ticket_file, "ticket") {
                break t;
            }
            let phase = self.lock().phase.clone();
            match phase {
                Phase::Starting => {}
                Phase::Crashed(c) => return Err(c.before_serving_sentence(table.local_only)),
                _ => return Err("hosting was stopped before the engine served".into()),
            }
            if Instant::now() > deadline {
                self.stop(STOP_GRACE).await;
                return Err(format!(
                    "the engine wrote no ticket within {} s",
                    TICKET_WAIT.as_secs()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let key = sidecar(&table.dir.join("keeper-key.txt"), "key").ok_or(
            "the engine wrote no keeper key (keeper-key.txt): this table's keystore was made elsewhere",
        )?;
        let mut inner = self.lock();
        inner.ring.know(&key);
        inner.phase = inner.phase.next(Event::TicketSeen);
        inner.ticket = Some(ticket.clone());
        inner.key = Some(key.clone());
        Self::send_state(&inner);
        Ok((ticket, key))
    }

    /// Stops the engine: SIGTERM to its group, SIGKILL after `grace`. Whether one ran.
    pub async fn stop(&self, grace: Duration) -> bool {
        let pid = {
            let mut inner = self.lock();
            if let Phase::Crashed(_) = inner.phase {
                inner.phase = inner.phase.next(Event::StopAsked);
                Self::send_state(&inner);
                return false;
            }
            if !inner.phase.running() {
                return false;
            }
            inner.phase = inner.phase.next(Event::StopAsked);
            Self::send_state(&inner);
            inner.pid
        };
        let Some(pid) = pid else { return false };
        let asked = Instant::now();
        process::stop(pid, process::Stop::Ask);
        let gone = |h: &Hosting| !h.lock().phase.running();
        while !gone(self) && asked.elapsed() < grace {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if !gone(self) {
            tracing::warn!("the hosted engine did not stop on SIGTERM: killing it");
            process::stop(pid, process::Stop::Force);
            let until = Instant::now() + Duration::from_secs(5);
            while !gone(self) && Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        tracing::info!(
            ms = asked.elapsed().as_millis() as u64,
            "the hosted engine stopped"
        );
        true
    }

    /// On quit: the engine stops with Studio (what `PR_SET_PDEATHSIG` would do, but cleanly).
    pub fn stop_on_exit(&self) {
        let h = self.clone();
        tauri::async_runtime::block_on(async move {
            h.stop(Duration::from_secs(5)).await;
        });
    }
}
