//! The hosting state machine: starting → serving → stopping → stopped, or crashed (with the
//! exit code and the engine's last lines) from anywhere but stopping.

/// How many of the engine's last lines a crash report keeps.
pub const CRASH_LINES: usize = 20;

/// Where a hosted engine is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Phase {
    /// Nothing hosted (never started, or stopped by the person).
    #[default]
    Idle,
    /// The process runs; no ticket yet.
    Starting,
    /// The ticket is written: the table is up.
    Serving,
    /// Stop was asked: SIGTERM sent, waiting for it to go.
    Stopping,
    /// It exited without being asked to.
    Crashed(Crash),
}

/// How an engine ended on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    /// The exit code, or none when a signal ended it.
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Its last lines (already redacted), oldest first.
    pub last_lines: Vec<String>,
    /// It never served (exited before writing its ticket).
    pub before_serving: bool,
}

/// What happens to a hosted engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The process was started.
    Spawned,
    /// Its ticket was written.
    TicketSeen,
    /// The person asked it to stop.
    StopAsked,
    /// The process ended (`last_lines`: the log's tail at that moment).
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
        last_lines: Vec<String>,
    },
}

impl Phase {
    /// The phase after `event`; an event that makes no sense in this phase changes nothing.
    pub fn next(&self, event: Event) -> Phase {
        use Phase::*;
        match (self, event) {
            (Idle | Crashed(_), Event::Spawned) => Starting,
            (Starting, Event::TicketSeen) => Serving,
            (Starting | Serving, Event::StopAsked) => Stopping,
            // Stopping a crashed engine just forgets it.
            (Crashed(_), Event::StopAsked) => Idle,
            (Stopping, Event::Exited { .. }) => Idle,
            (
                Starting | Serving,
                Event::Exited {
                    code,
                    signal,
                    mut last_lines,
                },
            ) => {
                let cut = last_lines.len().saturating_sub(CRASH_LINES);
                last_lines.drain(..cut);
                Crashed(Crash {
                    code,
                    signal,
                    last_lines,
                    before_serving: *self == Starting,
                })
            }
            (same, _) => same.clone(),
        }
    }

    /// Whether an engine process may be running in this phase.
    pub fn running(&self) -> bool {
        matches!(self, Phase::Starting | Phase::Serving | Phase::Stopping)
    }

    /// The phase's name on the wire and in the log.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Starting => "starting",
            Phase::Serving => "serving",
            Phase::Stopping => "stopping",
            Phase::Crashed(_) => "crashed",
        }
    }
}

/// What an engine prints when its endpoint cannot come up (in the Internet mode: no relay
/// answered within its 45 s).
const COULD_NOT_START: &str = "could not start";

impl Crash {
    /// How it ended: `exit code 1`, `signal 9`.
    pub fn how(&self) -> String {
        match (self.code, self.signal) {
            (Some(c), _) => format!("exit code {c}"),
            (None, Some(s)) => format!("signal {s}"),
            _ => "no exit status".into(),
        }
    }

    /// Why hosting failed when the engine ended before it served, as the person reads it: an
    /// engine for the Internet that could not come online is "no relay reachable", with the
    /// way out (this machine only, which needs no relay).
    pub fn before_serving_sentence(&self, local_only: bool) -> String {
        let no_relay = !local_only && self.last_lines.iter().any(|l| l.contains(COULD_NOT_START));
        if no_relay {
            format!(
                "no relay reachable: the engine could not go online ({}); host for this machine only instead",
                self.how()
            )
        } else {
            format!(
                "the engine ended before it served ({}); its last lines are in the hosting strip's log",
                self.how()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internet_engine_that_cannot_go_online_is_no_relay_reachable() {
        let crash = |lines: &[&str], code, signal| Crash {
            code,
            signal,
            last_lines: lines.iter().map(|l| l.to_string()).collect(),
            before_serving: true,
        };
        // What the engine prints after 45 s without a relay, then exit 1.
        let offline = crash(
            &[
                "Starting…",
                "Iroh transport could not start (timed out waiting for a relay).",
            ],
            Some(1),
            None,
        );
        let said = offline.before_serving_sentence(false);
        assert!(said.starts_with("no relay reachable"), "{said}");
        assert!(
            said.contains("exit code 1") && said.contains("this machine only"),
            "{said}"
        );
        // For this machine only there is no relay to blame.
        let said = offline.before_serving_sentence(true);
        assert!(
            said.starts_with("the engine ended before it served (exit code 1)"),
            "{said}"
        );
        // Another failure in the Internet mode is not a relay's.
        let other = crash(&["Traceback …", "ModuleNotFoundError: iroh"], None, Some(9));
        let said = other.before_serving_sentence(false);
        assert!(
            said.starts_with("the engine ended before it served (signal 9)"),
            "{said}"
        );
    }

    fn exited(code: Option<i32>, lines: usize) -> Event {
        Event::Exited {
            code,
            signal: code.is_none().then_some(9),
            last_lines: (0..lines).map(|i| format!("line {i}")).collect(),
        }
    }

    #[test]
    fn a_clean_stop_goes_back_to_idle() {
        let p = Phase::Idle.next(Event::Spawned);
        assert_eq!(p, Phase::Starting);
        let p = p.next(Event::TicketSeen);
        assert_eq!(p, Phase::Serving);
        assert!(p.running());
        let p = p.next(Event::StopAsked);
        assert_eq!(p, Phase::Stopping);
        assert_eq!(p.next(exited(Some(0), 3)), Phase::Idle);
    }

    #[test]
    fn an_unasked_exit_is_a_crash_with_the_last_twenty_lines() {
        let serving = Phase::Idle.next(Event::Spawned).next(Event::TicketSeen);
        let Phase::Crashed(c) = serving.next(exited(None, 50)) else {
            panic!("a crash")
        };
        assert_eq!(c.signal, Some(9));
        assert_eq!(c.code, None);
        assert_eq!(c.last_lines.len(), CRASH_LINES);
        assert_eq!(c.last_lines[0], "line 30");
        assert_eq!(c.last_lines[19], "line 49");
        assert!(!c.before_serving);
        // Before the ticket: it never served (a relay that never answered, a bad engine).
        let Phase::Crashed(c) = Phase::Starting.next(exited(Some(1), 2)) else {
            panic!("a crash")
        };
        assert!(c.before_serving);
        assert_eq!(c.code, Some(1));
        assert_eq!(c.last_lines.len(), 2);
    }

    #[test]
    fn restart_after_a_crash_and_events_out_of_place_change_nothing() {
        let crashed = Phase::Serving.next(exited(Some(1), 1));
        assert_eq!(crashed.name(), "crashed");
        assert!(!crashed.running());
        assert_eq!(crashed.next(Event::Spawned), Phase::Starting);
        assert_eq!(crashed.clone().next(Event::StopAsked), Phase::Idle);
        assert_eq!(Phase::Idle.next(Event::TicketSeen), Phase::Idle);
        assert_eq!(Phase::Serving.next(Event::Spawned), Phase::Serving);
        assert_eq!(Phase::Idle.next(exited(Some(0), 0)), Phase::Idle);
    }
}
