//! The table Studio sits at, as reactive state: the session model fed by the backend's pump.
//! It holds what the backend sends and nothing a feature keeps for itself: the keeper's open
//! screen and the bench's intent log live in those features' own contexts, so the store
//! imports no feature and every feature can import the store.

use ipc::cmd;
use leptos::prelude::*;
use protocol::session::SessionModel;
use protocol::{ClientFrame, ServerFrame};

use crate::bridge;

mod app;
pub use app::{AppOwner, ConnectNotice, InviteAsked, Screen, StallNotice};

pub use ipc::Status;

use ipc::{PumpBatch, PumpEvent, PumpItem};

/// One of my uploads: the backend's latest report, and when it arrived.
#[derive(Clone, Debug, PartialEq)]
pub struct Upload {
    pub report: ipc::Upload,
    /// When the last report about it arrived (this window's clock).
    pub updated_ms: f64,
}

impl std::ops::Deref for Upload {
    type Target = ipc::Upload;
    fn deref(&self) -> &ipc::Upload {
        &self.report
    }
}

impl std::ops::DerefMut for Upload {
    fn deref_mut(&mut self) -> &mut ipc::Upload {
        &mut self.report
    }
}

/// How long after an upload finished a media refusal is still taken to be about it.
const UPLOAD_REFUSAL_WINDOW_MS: f64 = 15_000.0;

/// Everything the play view reads. Cheap to copy: all fields are arena handles.
#[derive(Clone, Copy)]
pub struct Table {
    pub model: RwSignal<SessionModel>,
    pub status: RwSignal<Status>,
    /// Lines that did not decode, or were too long: shown once as a notice, never fatal.
    pub wire_problems: RwSignal<Vec<String>>,
    pub demo: RwSignal<bool>,
    /// A title card on stage over the play area (live only, never from a replay).
    pub overlay: RwSignal<Option<protocol::frame::TitleCard>>,
    /// My uploads in progress or just finished, newest last.
    pub uploads: RwSignal<Vec<Upload>>,
    /// Files dropped on the window, waiting for the person's Share or Cancel.
    pub drop_offer: RwSignal<Option<ipc::DropOffer>>,
    /// The keeper console's state (admin requests and their replies).
    pub keeper: RwSignal<protocol::keeper::KeeperConsole>,
    /// The pack bench's last report, when this table is the bench: the backend's own data
    /// (the join's answer, then `PumpEvent::PackBench`), kept here like the rest it sends.
    pub bench: RwSignal<Option<ipc::PackBenchStatus>>,
    /// The story search: when not empty, the transcript shows only the lines that match.
    pub search: RwSignal<String>,
    /// A line handed back to the input box to edit (a line that was not delivered).
    pub draft: RwSignal<Option<String>>,
    /// Batches from the backend waiting for the next animation frame (see [`Table::receive`]).
    inbox: StoredValue<Vec<String>>,
    /// Flushes so far: a scheduled flush whose count is stale has been done by the other timer.
    flushes: StoredValue<u64>,
}

/// A hidden window gets no animation frames: the inbox is flushed by a timer after this long,
/// so a background table still notifies. Longer than any frame a busy window takes, so a
/// visible window is flushed by its frames alone.
const HIDDEN_FLUSH: std::time::Duration = std::time::Duration::from_millis(500);

pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl Table {
    pub fn new() -> Self {
        Table {
            model: RwSignal::new(SessionModel::default()),
            status: RwSignal::new(Status::Connecting),
            wire_problems: RwSignal::new(Vec::new()),
            demo: RwSignal::new(false),
            overlay: RwSignal::new(None),
            uploads: RwSignal::new(Vec::new()),
            drop_offer: RwSignal::new(None),
            keeper: RwSignal::new(Default::default()),
            bench: RwSignal::new(None),
            search: RwSignal::new(String::new()),
            draft: RwSignal::new(None),
            inbox: StoredValue::new(Vec::new()),
            flushes: StoredValue::new(0),
        }
    }

    /// A bench report from the join's answer or the channel, whichever came last: the newest
    /// is kept (the answer can arrive after a newer report on the channel).
    pub fn bench_report(&self, report: Option<ipc::PackBenchStatus>) {
        self.bench
            .update(|kept| *kept = ipc::PackBenchStatus::newest(kept.take(), report));
    }

    /// The channel argument for `join_table` / `play_demo`: batches land in the model.
    pub fn channel(self) -> String {
        bridge::channel(move |json| self.receive(json))
    }

    /// Batches wait for the next animation frame and are applied together, so however fast
    /// frames come (a stream of 1,000 deltas a second) the window updates once per frame.
    fn receive(self, json: String) {
        let first = self
            .inbox
            .try_update_value(|q| {
                q.push(json);
                q.len() == 1
            })
            .unwrap_or(false);
        if !first {
            return;
        }
        let due = self.flushes.get_value();
        let flush = move || {
            if self.flushes.try_get_value() == Some(due) {
                self.flush();
            }
        };
        request_animation_frame(flush);
        set_timeout(flush, HIDDEN_FLUSH);
    }

    fn flush(self) {
        let started = crate::perf::now_ms();
        self.flushes.update_value(|n| *n += 1);
        let batches = self
            .inbox
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        let items = batches
            .iter()
            .flat_map(|text| PumpBatch::items(text))
            .collect();
        self.deliver(items);
        crate::perf::add("flush_ms", crate::perf::now_ms() - started);
        // The effects the batch woke run as microtasks after this one's: their time with it.
        leptos::task::spawn_local(async move {
            crate::perf::add("flush_effects_ms", crate::perf::now_ms() - started);
        });
    }

    fn deliver(self, batch: Vec<PumpItem>) {
        let now = now_ms();
        let mut frames = Vec::with_capacity(batch.len());
        for item in batch {
            let event = match item {
                PumpItem::Frame(mut v) => {
                    // Every wire string is sanitized once, here, before anything reads it.
                    protocol::session::sanitize_value(&mut v);
                    match protocol::codec::decode_server_value(v) {
                        Ok(f) => {
                            if matches!(f, ServerFrame::Welcome(_)) {
                                // The start of the bench's join-paint figure.
                                crate::perf::mark("welcome");
                            }
                            frames.push(f)
                        }
                        Err(e) => self.problem(e.to_string()),
                    }
                    continue;
                }
                PumpItem::Unreadable(why) => {
                    self.problem(format!("the backend sent an unreadable item ({why})"));
                    continue;
                }
                PumpItem::Event(event) => event,
            };
            match event {
                PumpEvent::Status(s) => {
                    // A new connection answers nothing asked on the old one.
                    if matches!(s, Status::Online { .. })
                        && !matches!(self.status.get_untracked(), Status::Online { .. })
                    {
                        self.keeper.update(|k| k.on_reconnect());
                    }
                    // Each ping reports the connection again: an unchanged report wakes nothing.
                    self.status.maybe_update(|now| {
                        let changed = *now != s;
                        *now = s;
                        changed
                    })
                }
                PumpEvent::DecodeError(e) => self.problem(e),
                PumpEvent::Upload(report) => self.uploads.update(|list| {
                    let u = Upload {
                        report,
                        updated_ms: now,
                    };
                    match list.iter_mut().find(|x| x.id == u.id) {
                        Some(x) => *x = u,
                        None => list.push(u),
                    }
                    // Finished ones stay briefly as a confirmation; only the last few.
                    if list.len() > 4 {
                        list.remove(0);
                    }
                }),
                PumpEvent::PackBench(b) => self.bench_report(Some(b)),
                PumpEvent::DropOffer(o) => self.drop_offer.set(Some(o)),
                PumpEvent::Oversize(n) => {
                    self.problem(format!("a line of {n} bytes was too long and skipped"))
                }
            }
        }
        // A refusal of an upload (it may come after the bytes were sent) is said next to the
        // latest upload that has not failed yet, not only in the story.
        for f in &frames {
            if let ServerFrame::Error(e) = f {
                if let Some(why) = protocol::media::upload_refusal(e.code.as_str(), &e.message) {
                    // Only an upload still going or just finished: a refusal of anything else
                    // (an avatar, a request) is not about an old upload.
                    self.uploads.update(|list| {
                        let recent = |u: &Upload| {
                            u.done.is_none() || now - u.updated_ms < UPLOAD_REFUSAL_WINDOW_MS
                        };
                        if let Some(u) = list
                            .iter_mut()
                            .rev()
                            .find(|u| u.error.is_none() && recent(u))
                        {
                            u.done = None;
                            u.error = Some(why);
                        }
                    });
                }
            }
        }
        // Admin replies (and the refusals that answer admin requests) go to the keeper console.
        let keeper = |f: &&ServerFrame| protocol::route::readers(f).keeper;
        if frames.iter().any(|f| keeper(&f)) {
            self.keeper.update(|k| {
                for f in frames.iter().filter(keeper) {
                    k.apply(f);
                }
            });
        }
        if !frames.is_empty() {
            // One reactive update per batch, however many frames it holds.
            let mut staged = None;
            let mut notice = None;
            self.model.update(|m| {
                for f in &frames {
                    let live = !m.is_replaying();
                    let had_turn = m.turn.is_some();
                    let changes = m.apply(f, now);
                    if live {
                        notice = protocol::session::notify::notice_for(m, &changes, had_turn)
                            .or(notice.take());
                    }
                    if let (true, Some(key)) = (live, changes.title_card) {
                        if let Some(protocol::session::EntryBody::TitleCard(card)) =
                            m.entry_by_key(key).map(|e| &e.body)
                        {
                            staged = Some(card.clone());
                        }
                    }
                }
            });
            if staged.is_some() {
                self.overlay.set(staged);
            }
            if let Some(n) = notice {
                notify(n);
            }
        }
    }

    pub fn problem(self, text: String) {
        self.wire_problems.update(|p| {
            p.push(text);
            // Keep the notice short: the latest few are enough to diagnose.
            if p.len() > 5 {
                p.remove(0);
            }
        });
    }

    /// Sends what the player typed, showing it at once as a pending line.
    pub fn say(self, text: String) {
        let mut key = 0;
        self.model.update(|m| {
            key = m.submit_input(&text, now_ms());
        });
        let frame = ClientFrame::input(text);
        leptos::task::spawn_local(async move {
            if let Err(e) = send_frame(frame).await {
                // It never left Studio (offline, reconnecting): say so now, with Retry.
                self.model.update(|m| {
                    m.not_sent(key);
                });
                self.problem(e);
            }
        });
    }

    /// A line that was not delivered: sent again (Retry) or handed back to the input (Edit);
    /// either way the failed copy leaves the story.
    pub fn retry(self, key: u64, text: String, edit: bool) {
        self.model.update(|m| {
            m.dismiss_failed(key);
        });
        if edit {
            self.draft.set(Some(text));
        } else {
            self.say(text);
        }
    }

    /// Sends an admin request, noting it in the keeper console so its control shows it pending.
    pub fn admin(self, frame: ClientFrame) {
        self.keeper.update(|k| {
            k.request(&frame, now_ms());
        });
        self.send(frame);
    }

    pub fn send(self, frame: ClientFrame) {
        leptos::task::spawn_local(async move {
            if let Err(e) = send_frame(frame).await {
                self.problem(e);
            }
        });
    }
}

async fn send_frame(frame: ClientFrame) -> Result<(), String> {
    bridge::call(&cmd::SendFrame { frame }).await
}

/// A desktop notification for `notice`, when the person has them on and Studio is not in front.
fn notify(notice: protocol::session::notify::Notice) {
    use protocol::session::notify::Notice;
    let on = crate::prefs::notify_enabled();
    let in_front = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.has_focus().ok())
        .unwrap_or(true);
    if !on || in_front {
        return;
    }
    let l = crate::prefs::stored_locale();
    let tr = |k| crate::i18n::tr(l, k).to_string();
    let (kind, title, body) = match notice {
        Notice::TurnOver => ("turn", tr("notify.turn"), tr("notify.turn_body")),
        Notice::Letter { from } => ("letter", tr("notify.letter"), from.unwrap_or_default()),
        Notice::TitleCard { title } => ("title", title, String::new()),
    };
    let more = tr("notify.more");
    leptos::task::spawn_local(async move {
        let notice = cmd::Notify {
            kind: kind.into(),
            title,
            body,
            more,
        };
        let _ = bridge::call(&notice).await;
    });
}
