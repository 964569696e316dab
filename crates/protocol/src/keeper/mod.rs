//! The keeper console's state: admin requests in flight, the replies they got, and the one
//! cleartext reveal of a minted key.
//!
//! Admin replies carry no request id. A server answers one connection's frames in order, so a
//! reply settles the oldest request in flight that it can answer, and an `admin_error` settles
//! the oldest request in flight — the slow `admin_generate` last, since anything sent after it
//! is answered before it. Every request is tied to a [`Control`], the button or form that sent
//! it, so a refusal or a timeout is shown next to that control and nowhere else.

use std::collections::BTreeMap;

use crate::frame::{
    AdminConfig, AdminError, AdminErrorCode, AdminGenerated, AdminModels, AdminRoomOp, ErrorCode,
    ErrorFrame, KeyEntry, MintedKey, Role, RoomOpAction, RuleSystemInfo, SkillInfo, UpdateStatus,
};
use crate::{ClientFrame, ServerFrame};

pub mod invite;
#[cfg(test)]
mod tests;

/// The control a request came from; failures and pending spinners are shown beside it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Control {
    Keys,
    Mint,
    /// Rename or role change of one key, by its id.
    KeyEdit(String),
    KeyDelete(String),
    Config,
    Models,
    ModelSave,
    ImagegenSave,
    Export,
    Import,
    Reset,
    DeleteRoomData,
    DeleteRoom,
    Skills,
    SkillToggle(String),
    Rules,
    Generate,
    Uploads,
    Update,
}

impl Control {
    /// The control an outgoing frame belongs to; `None` for frames the console does not track.
    pub fn of(frame: &ClientFrame) -> Option<Control> {
        Some(match frame {
            ClientFrame::AdminListKeys => Control::Keys,
            ClientFrame::AdminMintKey(_) => Control::Mint,
            ClientFrame::AdminUpdateKey(k) => Control::KeyEdit(k.id.clone()),
            ClientFrame::AdminDeleteKey(k) => Control::KeyDelete(k.id.clone()),
            ClientFrame::AdminGetConfig => Control::Config,
            ClientFrame::AdminListModels(_) => Control::Models,
            ClientFrame::AdminSetModel(_) => Control::ModelSave,
            ClientFrame::AdminSetImagegen(_) => Control::ImagegenSave,
            ClientFrame::AdminExportRoom(_) => Control::Export,
            ClientFrame::AdminImportRoom(_) => Control::Import,
            ClientFrame::AdminResetRoom(_) => Control::Reset,
            ClientFrame::AdminDeleteRoomData(_) => Control::DeleteRoomData,
            ClientFrame::AdminDeleteRoom(_) => Control::DeleteRoom,
            ClientFrame::AdminListSkills(_) => Control::Skills,
            ClientFrame::AdminEnableSkill(s) => Control::SkillToggle(s.id.clone()),
            ClientFrame::AdminListRules => Control::Rules,
            ClientFrame::AdminGenerate(_) => Control::Generate,
            ClientFrame::MediaSetEnabled(_) => Control::Uploads,
            ClientFrame::AdminUpdateServer => Control::Update,
            _ => return None,
        })
    }

    /// How long the table may take before the control says it did not answer.
    pub fn timeout_ms(&self) -> f64 {
        match self {
            // A slow LLM call by design; the engine fails an unreachable model within seconds.
            Control::Generate => 300_000.0,
            // Runs the operator's update command (a git pull, a package sync).
            Control::Update => 180_000.0,
            // Backups and restores touch every row of the room.
            Control::Export | Control::Import | Control::DeleteRoomData => 120_000.0,
            // A live catalog fetch from the provider.
            Control::Models => 45_000.0,
            _ => 20_000.0,
        }
    }

    /// Whether `frame` is the kind of reply this control's request gets.
    fn answered_by(&self, frame: &ServerFrame) -> bool {
        match (self, frame) {
            (
                Control::Keys | Control::Mint | Control::KeyEdit(_) | Control::KeyDelete(_),
                ServerFrame::AdminKeys(_),
            ) => true,
            (
                Control::Config | Control::ModelSave | Control::ImagegenSave,
                ServerFrame::AdminConfig(_),
            ) => true,
            (Control::Models, ServerFrame::AdminModels(_)) => true,
            (Control::Export, ServerFrame::AdminRoomOp(op)) => op.action == RoomOpAction::Export,
            (Control::Import, ServerFrame::AdminRoomOp(op)) => op.action == RoomOpAction::Import,
            (Control::Reset, ServerFrame::AdminRoomOp(op)) => op.action == RoomOpAction::Reset,
            (Control::DeleteRoomData | Control::DeleteRoom, ServerFrame::AdminRoomOp(op)) => {
                op.action == RoomOpAction::Delete
            }
            (Control::Skills | Control::SkillToggle(_), ServerFrame::AdminSkills(_)) => true,
            (Control::Rules, ServerFrame::AdminRules(_)) => true,
            (Control::Generate, ServerFrame::AdminGenerated(_)) => true,
            (Control::Uploads, ServerFrame::MediaEnabled(_)) => true,
            (Control::Update, ServerFrame::AdminUpdate(_)) => true,
            _ => false,
        }
    }
}

/// Why a control's last request did not succeed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The server refused it with `admin_error`.
    Refused {
        code: AdminErrorCode,
        message: Option<String>,
    },
    /// The server refused it with a plain `error` frame.
    Error { code: ErrorCode, message: String },
    /// No answer within [`Control::timeout_ms`].
    TimedOut { after_s: u32 },
    /// `admin_generated{ok:false}`: the forge's own diagnostic.
    GenerateFailed { error: String },
    /// `admin_update{status:"failed"}`: the tail of the command's output.
    UpdateFailed { output: String },
}

/// A cleartext key, shown once. `Debug` never prints it.
#[derive(Clone, PartialEq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    /// The cleartext, for the one reveal and the one copy.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// The freshly minted key: who it is for and its cleartext, until the reveal is closed.
#[derive(Debug, Clone, PartialEq)]
pub struct Reveal {
    pub key: Secret,
    pub name: String,
    pub role: Role,
}

impl From<&MintedKey> for Reveal {
    fn from(m: &MintedKey) -> Self {
        Reveal {
            key: Secret::new(m.key.clone()),
            name: m.name.clone(),
            role: m.role.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct InFlight {
    control: Control,
    since_ms: f64,
}

/// What the keeper screens read. Fed by every server frame and every admin request sent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeeperConsole {
    /// The room's key roster, masked (`None` until the first `admin_keys`).
    pub keys: Option<Vec<KeyEntry>>,
    reveal: Option<Reveal>,
    pub config: Option<AdminConfig>,
    pub models: Option<AdminModels>,
    pub skills: Option<Vec<SkillInfo>>,
    pub rules: Option<Vec<RuleSystemInfo>>,
    /// The last backup / restore / reset / delete result.
    pub room_op: Option<AdminRoomOp>,
    /// The last successful generation.
    pub generated: Option<AdminGenerated>,
    /// Set by `admin_update{restarting}`: the disconnect that follows is expected.
    pub expect_reconnect: bool,
    /// The room was deleted under this connection: nothing more will come.
    pub room_gone: bool,
    /// Bumped whenever `config` is replaced, so forms know to reset to it.
    pub config_generation: u64,
    in_flight: Vec<InFlight>,
    failures: BTreeMap<Control, Failure>,
}

impl KeeperConsole {
    /// Notes a request about to be sent. Returns its control, or `None` if the console
    /// does not track this frame.
    pub fn request(&mut self, frame: &ClientFrame, now_ms: f64) -> Option<Control> {
        let control = Control::of(frame)?;
        self.failures.remove(&control);
        if control == Control::Mint {
            // A new mint replaces any reveal still open.
            self.reveal = None;
        }
        self.in_flight.push(InFlight {
            control: control.clone(),
            since_ms: now_ms,
        });
        Some(control)
    }

    pub fn is_pending(&self, control: &Control) -> bool {
        self.in_flight.iter().any(|f| &f.control == control)
    }

    /// Any request in flight (for a global "working…" hint).
    pub fn any_pending(&self) -> bool {
        !self.in_flight.is_empty()
    }

    pub fn failure(&self, control: &Control) -> Option<&Failure> {
        self.failures.get(control)
    }

    /// Forgets a shown failure (the person closed it or edited the form).
    pub fn clear_failure(&mut self, control: &Control) {
        self.failures.remove(control);
    }

    /// The minted key, until [`Self::close_reveal`].
    pub fn reveal(&self) -> Option<&Reveal> {
        self.reveal.as_ref()
    }

    /// Drops the cleartext key for good.
    pub fn close_reveal(&mut self) {
        self.reveal = None;
    }

    /// Applies one server frame. Returns whether it was an answer to the console.
    pub fn apply(&mut self, frame: &ServerFrame) -> bool {
        match frame {
            ServerFrame::AdminError(e) => {
                self.on_admin_error(e);
                return true;
            }
            ServerFrame::Error(e) => return self.on_error(e),
            _ => {}
        }
        let Some(i) = self
            .in_flight
            .iter()
            .position(|f| f.control.answered_by(frame))
        else {
            // Unrequested replies still refresh what they describe (another keeper's change
            // arrives as a broadcast `media_enabled`, say), but settle nothing.
            self.absorb(frame, None);
            return is_admin_reply(frame);
        };
        let control = self.in_flight.remove(i).control;
        self.absorb(frame, Some(&control));
        true
    }

    fn absorb(&mut self, frame: &ServerFrame, control: Option<&Control>) {
        match frame {
            ServerFrame::AdminKeys(k) => {
                self.keys = Some(k.keys.clone());
                if let Some(m) = &k.minted {
                    self.reveal = Some(Reveal::from(m));
                }
            }
            ServerFrame::AdminConfig(c) => {
                self.config = Some(c.clone());
                self.config_generation += 1;
            }
            ServerFrame::AdminModels(m) => self.models = Some(m.clone()),
            ServerFrame::AdminSkills(s) => self.skills = Some(s.skills.clone()),
            ServerFrame::AdminRules(r) => self.rules = Some(r.systems.clone()),
            ServerFrame::AdminRoomOp(op) => {
                // Deletes are confined to the caller's own room: nothing more will come.
                if op.action == RoomOpAction::Delete {
                    self.room_gone = true;
                }
                self.room_op = Some(op.clone());
            }
            ServerFrame::AdminGenerated(g) => {
                if g.ok {
                    self.generated = Some(g.clone());
                } else if let Some(c) = control {
                    self.failures.insert(
                        c.clone(),
                        Failure::GenerateFailed {
                            error: g.error.clone(),
                        },
                    );
                }
            }
            ServerFrame::AdminUpdate(u) => match u.status {
                UpdateStatus::Restarting => self.expect_reconnect = true,
                _ => {
                    self.failures.insert(
                        Control::Update,
                        Failure::UpdateFailed {
                            output: u.output.clone().unwrap_or_default(),
                        },
                    );
                }
            },
            _ => {}
        }
    }

    /// The oldest request in flight settles; a generate only when nothing else waits.
    fn settle_oldest(&mut self) -> Option<Control> {
        let i = self
            .in_flight
            .iter()
            .position(|f| f.control != Control::Generate)
            .or(if self.in_flight.is_empty() {
                None
            } else {
                Some(0)
            })?;
        Some(self.in_flight.remove(i).control)
    }

    fn on_admin_error(&mut self, e: &AdminError) {
        if let Some(control) = self.settle_oldest() {
            self.failures.insert(
                control,
                Failure::Refused {
                    code: e.code.clone(),
                    message: e.message.clone(),
                },
            );
        }
    }

    /// A plain `error` answers an admin request when the server no longer treats this
    /// connection as a keeper's: after its room was deleted, every request is `forbidden`.
    fn on_error(&mut self, e: &ErrorFrame) -> bool {
        if self.in_flight.is_empty() {
            return false;
        }
        let Some(control) = self.settle_oldest() else {
            return false;
        };
        if e.code == ErrorCode::Forbidden {
            self.room_gone = true;
        }
        self.failures.insert(
            control,
            Failure::Error {
                code: e.code.clone(),
                message: e.message.clone(),
            },
        );
        true
    }

    /// Times out requests that waited too long. Returns whether anything changed.
    pub fn tick(&mut self, now_ms: f64) -> bool {
        let before = self.in_flight.len();
        let mut expired = Vec::new();
        self.in_flight.retain(|f| {
            let late = now_ms - f.since_ms >= f.control.timeout_ms();
            if late {
                expired.push(f.control.clone());
            }
            !late
        });
        for c in expired {
            let after_s = (c.timeout_ms() / 1000.0) as u32;
            self.failures.insert(c, Failure::TimedOut { after_s });
        }
        before != self.in_flight.len()
    }

    /// A new connection (a reconnect) answers nothing that was asked on the old one.
    pub fn on_reconnect(&mut self) {
        self.in_flight.clear();
        self.expect_reconnect = false;
    }
}

/// Frames only the keeper console reads.
pub fn is_admin_reply(frame: &ServerFrame) -> bool {
    // The console's own frames: the ones `route` gives the keeper console and not the story.
    let readers = crate::route::readers(frame);
    readers.keeper && !readers.story
}
