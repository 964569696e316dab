//! What commands answer: plain data the UI shows. Every string here that can come from outside
//! (a server, a file) has passed the frames' sanitiser in the backend before it is sent.

use protocol::frame::Localized;
use serde::{Deserialize, Serialize};

/// This build, for the connect screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudioInfoView {
    pub studio_version: String,
    pub protocol_version: String,
    /// When this process started (ms since the epoch), for the bench's cold-start figure.
    pub started_at_ms: Option<f64>,
}

/// The answer to a join: what the connect screen hands over to the play view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Joined {
    pub demo: bool,
    /// Set when this is the pack bench.
    pub pack_bench: Option<PackBenchStatus>,
}

/// Where a remembered key would be kept, told to the person before anything is saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyStorage {
    /// The OS keyring answers.
    pub keyring: bool,
    /// The private (0600) file used when it does not.
    pub file: String,
}

/// A table joined before, as the connect screen lists it. Carries no secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedTable {
    pub id: String,
    pub name: String,
    pub ticket: String,
    pub room: String,
    pub role: String,
    /// The room's panel-code answer; none: asked on the next join.
    pub panel_code: Option<PanelCode>,
    /// Why the table last refused this key (revoked, deleted), until a join succeeds again.
    pub refused: Option<String>,
}

/// The person's answer for one room's panel code (tier-2 pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PanelCode {
    /// The room's tier-2 pages run (sandboxed).
    Run,
    /// Only their declared fallback blocks are drawn.
    Blocks,
}

/// A mounted tier-2 page: where it is served, and the nonce its page must echo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mounted {
    pub url: String,
    pub nonce: String,
}

/// The window was reloaded because a panel page froze it: which pages were running.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    pub panels: Vec<Localized>,
}

/// The mixer now, for the sound popover's meters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SoundReport {
    /// Each layer and its level.
    pub layers: Vec<(String, f32)>,
    /// Layers with a track of their own now (playing or paused; effects not counted).
    pub sounding: Vec<String>,
    /// The loudest sample of the output's last block (headless only).
    pub output_peak: Option<f32>,
}

/// The pack bench's report after each (re)load of the pack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackBenchStatus {
    pub dir: String,
    /// The connection's role: `keeper` or `player`.
    pub viewer: String,
    /// Empty when the pack loaded; else everything its build would refuse (the last good
    /// pack stays served).
    pub problems: Vec<Problem>,
    /// What the engine accepts but skips, ignores or never fires, where it is (only while the
    /// pack loads: a refused pack's warnings would be its last good version's).
    #[serde(default)]
    pub warnings: Vec<Problem>,
    /// Every panel of the pack and who receives it.
    pub panels: Vec<PackBenchPanel>,
    /// Reloads so far (0 = the first load).
    pub reloads: u64,
    /// The same pack on the real engine, once the author ran it there.
    #[serde(default)]
    pub engine: Option<Box<PackBenchEngine>>,
    /// The other audience's view of the table the window shows, for side by side.
    #[serde(default)]
    pub beside: Option<Box<PackBenchBeside>>,
    /// The report's place in the bench's order: a join's answer can reach the window after a
    /// newer report on its channel, and must not undo it.
    #[serde(default)]
    pub seq: u64,
}

impl PackBenchStatus {
    /// The report the window should keep: `new`, unless `kept` is newer.
    pub fn newest(kept: Option<PackBenchStatus>, new: Option<PackBenchStatus>) -> Option<Self> {
        match (kept, new) {
            (Some(k), Some(n)) if k.seq > n.seq => Some(k),
            (k, None) => k,
            (_, n) => n,
        }
    }
}

/// What the audience the window does not show receives on the same table: its manifest's
/// panels and its variables, both as the wire carries them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackBenchBeside {
    /// `keeper` or `player`.
    pub viewer: String,
    pub panels: Vec<serde_json::Value>,
    pub variables: Vec<serde_json::Value>,
}

/// The bench's pack in the real engine's dev room (`.dev mount`), beside the offline table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackBenchEngine {
    /// `running` or `ended` (the engine's process is gone: `message` says how).
    pub state: String,
    /// The engine (its folder and version).
    pub engine: String,
    /// The window shows the engine's table (else the offline one).
    pub showing: bool,
    /// How often the engine looks at the pack folder, in ms.
    pub poll_ms: u64,
    /// Save → the engine's fresh manifest, for the last save it followed.
    pub reload_ms: Option<u64>,
    /// Saves the engine followed so far.
    pub reloads: u64,
    /// The engine's own sentence when it skipped a reload (the source does not parse).
    pub refusal: Option<String>,
    /// The mount's answer, or why the engine ended.
    pub message: Option<String>,
    /// The panel ids in the engine's manifest for the keeper and for a player.
    pub keeper_panels: Vec<String>,
    pub player_panels: Vec<String>,
    /// Where the engine and the offline table disagree.
    pub differences: Vec<PackBenchDifference>,
}

/// One place where the engine and the offline table disagree on the bench's pack.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackBenchDifference {
    /// `keeper` or `player`.
    pub audience: String,
    /// `panel`, `variable` or `card`.
    pub subject: String,
    pub id: String,
    pub what: String,
    /// The pack file it comes from.
    pub file: String,
    /// Why Studio keeps it on purpose; `None`: a finding.
    pub known: Option<String>,
}

/// The engine's packer and our lint on the same pack folder.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackEngineCheck {
    /// The engine that judged (its path and version).
    pub engine: String,
    /// The engine's packer built the pack.
    pub engine_accepts: bool,
    /// What the engine said when it refused (its sentence, unchanged), where it says.
    pub engine_problem: Option<Problem>,
    /// The pack's id and version, when the engine built it.
    pub id: Option<String>,
    pub version: Option<String>,
    /// Our lint's problems (empty: it loads).
    pub ours: Vec<Problem>,
    /// How long the packer took, in ms.
    pub ms: u64,
}

impl PackEngineCheck {
    /// The engine and our lint disagree on accept/refuse (always a finding).
    pub fn disagree(&self) -> bool {
        self.engine_accepts != self.ours.is_empty()
    }
}

/// A `.lwpack` the engine's packer built.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackBuilt {
    pub path: String,
    pub id: String,
    pub version: String,
    pub sha256: String,
    pub bytes: u64,
    pub ms: u64,
}

/// A built pack installed on the hosted table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackInstalled {
    /// The hosted table's name.
    pub table: String,
    /// The engine's answer (its first line: what it installed and enabled).
    pub answer: String,
    pub ms: u64,
}

/// One thing a pack's build would refuse, where it is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// The file, relative to the pack folder.
    pub file: String,
    /// 1-based; 0 when the problem is the file as a whole.
    pub line: u32,
    pub column: u32,
    pub message: String,
    pub hint: String,
}

impl Problem {
    /// `file:line:column`, or the file alone when there is no position.
    pub fn place(&self) -> String {
        if self.line > 0 {
            format!("{}:{}:{}", self.file, self.line, self.column)
        } else {
            self.file.clone()
        }
    }
}

/// A panel of the bench's pack and who receives it (`all`, `keeper`, `players`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackBenchPanel {
    pub id: String,
    pub audience: String,
}

/// One card file of the bench's pack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForgeCardInfo {
    /// Relative to the pack folder.
    pub path: String,
    pub name: String,
    /// `world` or `character`, as the engine decides it from what the card carries.
    pub kind: String,
    /// A native card (`loreweaver.card`) opens in the forge; another (SillyTavern) does not.
    pub native: bool,
}

/// A native card as the forge edits it: the whole document (unknown fields included) and the
/// sha256 of the bytes read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForgeDocument {
    pub path: String,
    pub card: serde_json::Value,
    pub base: String,
}

/// A card to import, as it would arrive: its kind and world half by the engine's rule, what
/// it brings, and every field that cannot be carried over.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ForgeImportView {
    pub source: String,
    pub name: String,
    /// `world` or `character`.
    pub kind: String,
    pub entries: usize,
    pub variables: usize,
    /// The world half, by count: hook scripts, variable declarations, EJS blocks, keeper-only
    /// entries.
    pub hooks: usize,
    pub declarations: usize,
    pub ejs: usize,
    pub secret: usize,
    pub left_out: Vec<String>,
    /// Each leaf of the card's `[InitVar]` trees, offered as a typed variable.
    pub initvar: Vec<ForgeInitVar>,
    /// What accepting changed beyond copying (leaves promoted, conditions rewritten).
    pub notes: Vec<String>,
    /// The card's path in the pack once accepted (its character half's, when split).
    pub written: Option<String>,
    /// A world-kind card with a persona: it can be written as two cards.
    pub splittable: bool,
    /// Worldbook entries the character half keeps, when split.
    pub character_entries: usize,
    /// The world half's path, when it was split.
    pub written_world: Option<String>,
}

/// One thing wrong with a hook script, at its line and column (1-based) inside the script.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HookProblem {
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The engine does not load the script at all.
    pub skipped: bool,
}

/// An MVU leaf and the variable it would become (`id` empty, with `why`, when it cannot).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ForgeInitVar {
    /// Dotted, as MVU addresses it.
    pub path: String,
    /// The start value as the card gives it (JSON).
    pub value: String,
    pub description: String,
    pub id: String,
    /// `number`, `bool` or `text`.
    pub kind: String,
    pub minimum: Option<i64>,
    pub maximum: Option<i64>,
    pub why: String,
}

/// A variable of the bench's room, hidden ones too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PackBenchVar {
    pub id: String,
    pub label: String,
    pub kind: String,
    pub value: serde_json::Value,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Keeper-only: players never receive it.
    pub hidden: bool,
}

/// An engine Studio can host with, as its `--version` probe answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineView {
    /// The executable or the source folder.
    pub path: String,
    pub version: String,
    /// How it was found: `chosen` (remembered for this profile) or `path` (on `PATH`).
    pub found: String,
}

/// What the host panel opens on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostingInfo {
    /// The engine in use, if one was found and answered its probe.
    pub engine: Option<EngineView>,
    /// Why the engine found did not answer (a sentence), if it did not.
    pub problem: Option<String>,
    /// The name the last hosted table had (the default for the next).
    pub last_name: Option<String>,
    pub hosting: HostingView,
}

/// A hosted table the profile keeps (its folder holds its keys, rooms and saved story).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostedTable {
    pub name: String,
    pub folder: String,
    /// When it was last hosted, in ms since the Unix epoch (0: not recorded).
    pub last_used_ms: u64,
    /// Last hosted for this machine only (hosting it again keeps that).
    pub local_only: bool,
}

/// The hosted engine now (never its keys).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostingView {
    /// `idle`, `starting`, `serving`, `stopping` or `crashed`.
    pub state: String,
    /// The hosted table's name.
    pub name: Option<String>,
    pub ticket: Option<String>,
    /// The engine's version (its probe's answer).
    pub version: Option<String>,
    /// When the engine started, in ms since the Unix epoch (the strip counts the uptime).
    pub started_ms: Option<u64>,
    /// The engine said it runs its offline demo model (no provider configured).
    pub demo_model: bool,
    /// Hosted for this machine only (loopback).
    pub local_only: bool,
    pub pid: Option<u32>,
    /// How a crashed engine ended, and its last lines (redacted).
    pub exit_code: Option<i32>,
    pub exit_signal: Option<i32>,
    pub last_lines: Vec<String>,
    /// It ended before it served (no ticket yet).
    pub before_serving: bool,
}

/// What the backend pushes about the hosted engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case")]
pub enum HostingEvent {
    /// The engine's state changed.
    State(HostingView),
    /// New lines of its output (redacted), oldest first.
    Lines(Vec<String>),
}
