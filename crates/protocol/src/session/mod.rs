//! The session model: a pure reducer from server frames to what the play screen
//! shows. No I/O and no clock: the caller passes `now_ms` in.
//!
//! [`SessionModel::apply`] returns [`Changes`] naming exactly what moved, so a
//! view re-renders one transcript entry or one pane instead of everything.

mod announce;
mod changes;
pub mod characters;
mod dice_detail;
pub mod export;
pub mod notify;
mod now_playing;
mod replay;
mod sanitize;
mod stream;
mod transcript;

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::frame::{
    Activity, AudioControl, AudioLibraryItem, AudioState, ErrorFrame, MediaAccept, MediaFrame,
    Presence, ServerFrame, State, TurnStatus, UiBlock, UiManifestPanel, Welcome,
};

pub use announce::{sentence as announcement, turn_news, Announcer, TurnNews};
pub use changes::Changes;
pub use dice_detail::{dice_chips, key_words, DiceChip};
pub use now_playing::{NowPlaying, Playing};
pub use replay::ReplayReport;
pub use sanitize::{sanitize_text, sanitize_value};
pub use transcript::{
    Entry, EntryBody, InlineUi, InputFailure, NarrativeLine, PendingInput, Transcript,
};

/// A pending line with no echo after this long is failed.
pub const PENDING_TIMEOUT_MS: f64 = 120_000.0;
/// A busy indicator not refreshed for this long is cleared (a lost `idle`).
pub const TURN_TIMEOUT_MS: f64 = 120_000.0;
/// A rejoin replay not closed by `state` within this long is closed anyway.
pub const REPLAY_TIMEOUT_MS: f64 = 10_000.0;
/// `panel_event`s kept per panel no code has taken yet (oldest dropped).
const PANEL_EVENT_CAP: usize = 256;
/// Id-less sidebar regions kept (oldest dropped): each such frame is a new region,
/// and a hook re-emitting one every turn must not grow the sidebar forever.
const ANONYMOUS_REGION_CAP: usize = 16;

/// The AI-KP activity indicator (`turn_status{status:"busy"}`).
#[derive(Debug, Clone, PartialEq)]
pub struct TurnIndicator {
    pub actor: String,
    pub activity: Option<Activity>,
    pub round: Option<u32>,
    /// When this turn's first busy arrived.
    pub since_ms: f64,
    /// When the latest busy arrived (the safety timeout counts from here).
    pub refreshed_ms: f64,
}

/// One sidebar `ui` region, in first-seen order.
#[derive(Debug, Clone, PartialEq)]
pub struct SidebarRegion {
    /// Local and stable while the region lives.
    pub key: u64,
    /// `None`: an id-less frame, which always gets a region of its own.
    pub id: Option<String>,
    pub blocks: Vec<UiBlock>,
    pub rev: u32,
}

/// Everything the play screen shows for one table connection (and its reconnects).
#[derive(Debug, Clone)]
pub struct SessionModel {
    transcript: Transcript,
    sidebar: Vec<SidebarRegion>,
    next_region_key: u64,
    /// The latest `welcome` (room, you, protocol, server version, features).
    pub welcome: Option<Welcome>,
    /// The latest full `state` snapshot.
    pub state: Option<State>,
    pub presence: Option<Presence>,
    pub turn: Option<TurnIndicator>,
    /// This viewer's module panels (`ui_manifest`, full replace).
    pub panels: Vec<UiManifestPanel>,
    /// The room's images (`media`), deduplicated across join replays.
    pub media: Vec<MediaFrame>,
    /// The room's player-upload policy (no frame means enabled).
    pub media_enabled: bool,
    pub audio_library: Vec<AudioLibraryItem>,
    /// The installed packs' card files, once the table answered `list_pack_cards`.
    pub pack_cards: Option<Vec<crate::frame::PackCard>>,
    pub audio_state: Option<AudioState>,
    /// Media rejections for the uploader, not the transcript.
    pub media_errors: Vec<ErrorFrame>,
    /// Upload acceptances for the uploader, oldest first.
    pub media_accepts: Vec<MediaAccept>,
    /// Playback intents not yet taken by the audio player, oldest first.
    pub audio_controls: Vec<AudioControl>,
    /// What each music/ambience layer is playing, as the server last said.
    pub now_playing: NowPlaying,
    panel_events: HashMap<String, VecDeque<Value>>,
    /// Keys of PendingInput entries still awaiting an echo, oldest first.
    pending: Vec<u64>,
    /// Inline ui id → the entry holding its latest frame.
    inline_ui: HashMap<String, u64>,
    /// Inline ui id → the title cards its latest frame carried.
    inline_cards: HashMap<String, Vec<crate::frame::TitleCard>>,
    replay: Option<replay::ReplayWindow>,
    /// What the last rejoin's replay brought, once it ended (for the UI and its tests).
    pub last_replay: Option<replay::ReplayReport>,
}

impl Default for SessionModel {
    fn default() -> Self {
        Self {
            transcript: Transcript::default(),
            sidebar: Vec::new(),
            next_region_key: 1,
            welcome: None,
            state: None,
            presence: None,
            turn: None,
            panels: Vec::new(),
            media: Vec::new(),
            media_enabled: true,
            audio_library: Vec::new(),
            pack_cards: None,
            audio_state: None,
            media_errors: Vec::new(),
            media_accepts: Vec::new(),
            audio_controls: Vec::new(),
            now_playing: NowPlaying::default(),
            panel_events: HashMap::new(),
            pending: Vec::new(),
            inline_ui: HashMap::new(),
            inline_cards: HashMap::new(),
            replay: None,
            last_replay: None,
        }
    }
}

impl SessionModel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    pub fn entry_by_key(&self, key: u64) -> Option<&Entry> {
        self.transcript.entry_by_key(key)
    }

    pub fn len(&self) -> usize {
        self.transcript.len()
    }

    pub fn is_empty(&self) -> bool {
        self.transcript.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Entry> {
        self.transcript.iter()
    }

    pub fn sidebar(&self) -> &[SidebarRegion] {
        &self.sidebar
    }

    /// True while a rejoin's replay is being held back for matching.
    pub fn is_replaying(&self) -> bool {
        self.replay.is_some()
    }

    /// My display name, from `welcome.you.name`.
    pub fn my_name(&self) -> Option<&str> {
        self.welcome.as_ref().map(|w| w.you.name.as_str())
    }

    /// Takes the `panel_event` payloads queued for `panel`, oldest first.
    pub fn take_panel_events(&mut self, panel: &str) -> Vec<Value> {
        self.panel_events
            .remove(panel)
            .map(Vec::from)
            .unwrap_or_default()
    }

    /// Reduces one server frame.
    pub fn apply(&mut self, frame: &ServerFrame, now_ms: f64) -> Changes {
        let mut changes = Changes::default();
        if self.replay.is_some() && self.intake_replay(frame, now_ms, &mut changes) {
            return changes;
        }
        match frame {
            ServerFrame::Welcome(welcome) => self.on_welcome(welcome, &mut changes),
            ServerFrame::Narrative(line) => self.on_narrative(line, &mut changes),
            ServerFrame::NarrativeDelta(delta) => self.on_delta(delta, &mut changes),
            ServerFrame::Dice(dice) => {
                let key = self
                    .transcript
                    .push(EntryBody::Dice(Box::new(dice.clone())));
                changes.append(key);
            }
            ServerFrame::System(system) => self.on_system(system, &mut changes),
            ServerFrame::Error(error) => self.on_error(error, &mut changes),
            ServerFrame::Ui(ui) => self.on_ui(ui, &mut changes),
            ServerFrame::PackCards(cards) => {
                self.pack_cards = Some(cards.cards.clone());
            }
            ServerFrame::State(state) => {
                if state.is_reset() {
                    self.clear_transcript(&mut changes);
                }
                self.state = Some(state.clone());
                changes.state = true;
            }
            ServerFrame::Presence(presence) => {
                self.presence = Some(presence.clone());
                changes.presence = true;
            }
            ServerFrame::TurnStatus(status) => self.on_turn_status(status, now_ms, &mut changes),
            ServerFrame::UiManifest(manifest) => {
                self.panels = manifest.panels.clone();
                changes.manifest = true;
            }
            ServerFrame::PanelEvent(event) => {
                let queue = self.panel_events.entry(event.panel.clone()).or_default();
                if queue.len() == PANEL_EVENT_CAP {
                    queue.pop_front();
                }
                queue.push_back(event.payload.clone());
                changes.panel_events.push(event.panel.clone());
            }
            ServerFrame::Media(media) => {
                // Media is replayed on every join: keep one copy per upload.
                let known = self
                    .media
                    .iter()
                    .any(|m| m.id == media.id || (m.hash == media.hash && m.ts == media.ts));
                if !known {
                    self.media.push(media.clone());
                    changes.media = true;
                }
            }
            ServerFrame::MediaEnabled(policy) => {
                self.media_enabled = policy.enabled;
                changes.media = true;
            }
            ServerFrame::MediaAccept(accept) => {
                push_capped(&mut self.media_accepts, accept.clone());
                changes.media = true;
            }
            ServerFrame::AudioLibraryItem(item) => {
                let known = self
                    .audio_library
                    .iter()
                    .any(|a| a.id == item.id || (a.hash == item.hash && a.ts == item.ts));
                if !known {
                    self.audio_library.push(item.clone());
                    changes.media = true;
                }
            }
            ServerFrame::AudioControl(control) => {
                push_capped(&mut self.audio_controls, control.clone());
                self.now_playing.control(control);
                changes.media = true;
            }
            ServerFrame::AudioState(state) => {
                self.audio_state = Some(state.clone());
                self.now_playing.reset(state);
                changes.media = true;
            }
            // Not the story's (see `crate::route`): the keeper console's, the transport's, or
            // a type this client does not know.
            ServerFrame::AdminConfig(_)
            | ServerFrame::AdminModels(_)
            | ServerFrame::AdminKeys(_)
            | ServerFrame::AdminRoomOp(_)
            | ServerFrame::AdminError(_)
            | ServerFrame::AdminSkills(_)
            | ServerFrame::AdminRules(_)
            | ServerFrame::AdminGenerated(_)
            | ServerFrame::AdminUpdate(_)
            | ServerFrame::Pong(_)
            | ServerFrame::Unknown { .. } => {}
        }
        if let Some(window) = &mut self.replay {
            // The replay timeout counts from the welcome that opened the window.
            window.opened_ms.get_or_insert(now_ms);
        }
        changes
    }

    /// Whether [`Self::tick`] could change anything later: a replay open, a line waiting for
    /// its echo, a turn shown busy. While none is, the window runs no clock for the model:
    /// each tick wakes its web process, and an idle table should cost nothing.
    pub fn awaits_clock(&self) -> bool {
        self.replay.is_some() || self.turn.is_some() || self.awaits_echo()
    }

    /// Advances the clock: fails pendings and clears a busy indicator past their
    /// timeouts, and closes a replay the server never ended.
    pub fn tick(&mut self, now_ms: f64) -> Changes {
        let mut changes = Changes::default();
        if let Some(window) = &mut self.replay {
            let opened = *window.opened_ms.get_or_insert(now_ms);
            if now_ms - opened >= REPLAY_TIMEOUT_MS {
                self.end_replay(&mut changes);
            }
        }
        self.expire_pending(now_ms, &mut changes);
        if let Some(turn) = &self.turn {
            if now_ms - turn.refreshed_ms >= TURN_TIMEOUT_MS {
                self.turn = None;
                changes.turn = true;
            }
        }
        changes
    }

    fn on_welcome(&mut self, welcome: &Welcome, changes: &mut Changes) {
        let same_table = match &self.welcome {
            Some(previous) => previous.room == welcome.room,
            None => true,
        };
        if !same_table {
            self.clear_table(changes);
        } else if !self.transcript.is_empty() {
            // A (re)join replays recent history with fresh ids: hold it back and
            // match it against what is already shown. A new welcome supersedes a
            // replay still open from the previous connection.
            self.replay = Some(replay::ReplayWindow::with_pending(self.pending.clone()));
        }
        // The old connection's turn is over for us; a live turn re-sends busy.
        if self.turn.take().is_some() {
            changes.turn = true;
        }
        self.welcome = Some(welcome.clone());
        changes.welcome = true;
    }

    fn on_turn_status(&mut self, status: &TurnStatus, now_ms: f64, changes: &mut Changes) {
        match status {
            TurnStatus::Busy {
                actor,
                activity,
                round,
            } => {
                let since_ms = self.turn.as_ref().map_or(now_ms, |t| t.since_ms);
                self.turn = Some(TurnIndicator {
                    actor: actor.clone(),
                    activity: activity.clone(),
                    round: *round,
                    since_ms,
                    refreshed_ms: now_ms,
                });
            }
            TurnStatus::Idle => self.turn = None,
        }
        changes.turn = true;
    }

    fn clear_transcript(&mut self, changes: &mut Changes) {
        self.transcript.clear();
        self.pending.clear();
        self.inline_ui.clear();
        self.inline_cards.clear();
        // Everything before the reset is re-rendered from scratch anyway.
        changes.reset = true;
        changes.appended.clear();
        changes.updated.clear();
        changes.removed.clear();
        changes.title_card = None;
    }

    /// Another table: nothing carries over but the key counters (never reused).
    fn clear_table(&mut self, changes: &mut Changes) {
        let next_key = self.transcript.next_key();
        let next_region_key = self.next_region_key;
        *self = Self::default();
        self.transcript.set_next_key(next_key);
        self.next_region_key = next_region_key;
        self.clear_transcript(changes);
        changes.sidebar = true;
        changes.state = true;
        changes.presence = true;
        changes.manifest = true;
        changes.media = true;
    }
}

#[cfg(test)]
mod tests;

/// The newest entries only: nothing in a long session may grow without bound.
pub(crate) fn push_capped<T>(list: &mut Vec<T>, item: T) {
    const KEEP: usize = 64;
    if list.len() >= KEEP {
        list.drain(..list.len() + 1 - KEEP);
    }
    list.push(item);
}

/// Server lines folded into a fresh model the way the app takes a batch: parsed, sanitised,
/// decoded, applied. Returns the model and the frames applied. `cargo xtask bench` times this
/// natively and, through the UI, in wasm inside the real WebView: one workload, two figures.
pub fn fold_lines(lines: &[String]) -> (SessionModel, usize) {
    let mut model = SessionModel::new();
    let mut applied = 0;
    for (i, line) in lines.iter().enumerate() {
        let Ok(mut value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        sanitize_value(&mut value);
        if let Ok(frame) = crate::codec::decode_server_value(value) {
            model.apply(&frame, i as f64);
            applied += 1;
        }
    }
    (model, applied)
}
