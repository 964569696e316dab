//! Every command the backend registers: arguments as fields, reply after `->`, and the channel
//! (argument name and message type) of those that stream. Grouped by the feature that owns them.

use protocol::ClientFrame;
use serde::{Deserialize, Serialize};

use crate::views::*;
use crate::{Command, PumpBatch, Streams};

/// Declares each command's struct and impls, and [`ALL`], the list the app must register.
macro_rules! commands {
    ($(
        $(#[$meta:meta])*
        $name:ident = $wire:literal { $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? }
            -> $reply:ty $( , streams $channel:literal : $message:ty )? ;
    )*) => {
        $(
            $(#[$meta])*
            #[derive(Clone, Serialize, Deserialize)]
            pub struct $name { $( $(#[$fmeta])* pub $field: $ty, )* }

            impl Command for $name {
                const NAME: &'static str = $wire;
                type Reply = $reply;
            }

            $( impl Streams for $name {
                const CHANNEL: &'static str = $channel;
                type Message = $message;
            } )?
        )*

        /// Every command's name, as the backend must register it.
        pub const ALL: &[&str] = &[ $( $wire ),* ];
    };
}

commands! {
    // The app and its window.
    /// What the connect screen shows about this build.
    StudioInfo = "studio_info" {} -> StudioInfoView;
    /// The ticket given on the command line (or by a `loreweaver:` link), once.
    StartupTicket = "startup_ticket" {} -> Option<String>;
    /// Opens the log folder; the reply says where it is.
    OpenLogFolder = "open_log_folder" {} -> String;
    /// The window's zoom, in percent of normal size (the WebView's own page zoom, so every
    /// layout and panel page scales as one).
    SetZoom = "set_zoom" { percent: u16 } -> ();
    /// A desktop notification; `kind` is logged, never the words.
    Notify = "notify" { kind: String, title: String, body: String, more: String } -> ();

    // The table in play.
    /// Dials a ticket and joins with an invite key; frames then flow on the channel.
    JoinTable = "join_table" {
        ticket: String,
        key: String,
        name: Option<String>,
        /// Save the table and its key once the welcome names the room (default: yes).
        remember: Option<bool>,
    } -> Joined, streams "onEvent": PumpBatch;
    /// Starts the demo table in-process (Local only) and joins it as keeper.
    PlayDemo = "play_demo" {} -> Joined, streams "onEvent": PumpBatch;
    /// Joins the table in play again after the window reloaded.
    RejoinTable = "rejoin_table" {} -> Joined, streams "onEvent": PumpBatch;
    /// One client frame (checked by the transport before it reaches the wire).
    SendFrame = "send_frame" { frame: ClientFrame } -> ();
    /// Leaves the table (and stops the demo or bench table).
    LeaveTable = "leave_table" {} -> ();
    /// Saves the story as a file the person picks; the reply is where, or none if cancelled.
    SaveTranscript = "save_transcript" { name: String, html: bool, content: String } -> Option<String>;

    // Saved tables.
    /// Where a remembered key would go: the OS keyring, or this private file.
    KeyStorageInfo = "key_storage" {} -> KeyStorage;
    /// Tables joined before, most recent first (no keys).
    ListSavedTables = "list_saved_tables" {} -> Vec<SavedTable>;
    /// Joins a saved table with its stored key.
    JoinSavedTable = "join_saved_table" { id: String } -> Joined, streams "onEvent": PumpBatch;
    /// Forgets a saved table and its key.
    ForgetSavedTable = "forget_saved_table" { id: String } -> ();

    // Panels.
    /// Mounts panel `panel`'s tier-2 page; the reply is its URL and nonce.
    MountPanel = "mount_panel" { panel: String, theme: Option<serde_json::Value> } -> Mounted;
    /// Ends a mounted page: its URL stops answering.
    UnmountPanel = "unmount_panel" { url: String } -> ();
    /// The room's panel-code answer, if the person gave one.
    GetPanelCode = "panel_code" { room: String } -> Option<PanelCode>;
    /// The person's answer for the room in play (none: ask again).
    SetPanelCode = "set_panel_code" { room: String, code: Option<PanelCode> } -> ();
    /// The answer for a saved table, from the connect screen.
    SetSavedPanelCode = "set_saved_panel_code" { id: String, code: Option<PanelCode> } -> ();
    /// After a reload the watchdog forced: which pages were running.
    StallRecovery = "stall_recovery" {} -> Option<Recovery>;

    // Sound.
    /// The person's master and layer levels and mutes.
    SetSoundLevels = "set_sound_levels" { levels: sound::levels::Levels } -> ();
    /// Each layer's level now, for the popover's meters.
    GetSoundReport = "sound_report" {} -> SoundReport;
    /// Plays a sound of the room for this person only, or stops it (no hash).
    PreviewSound = "preview_sound" { hash: Option<String> } -> ();

    // Media.
    /// Asks for files, then shares them with the table; the reply is the uploads' ids.
    PickAndShare = "pick_and_share" {} -> Vec<u64>;
    /// The person confirmed drop `id` (a [`crate::DropOffer`]): its files are shared. The page
    /// never names a path: only the backend knows what was dropped.
    ShareDropped = "share_dropped" { id: u64 } -> Vec<u64>;
    /// The person declined drop `id`: nothing of it is read.
    DiscardDrop = "discard_drop" { id: u64 } -> ();
    /// Cancels upload `id`.
    CancelUpload = "cancel_upload" { id: u64 } -> ();

    // Keeper screens.
    /// Puts text on the clipboard. `secret` (a minted key): cleared again after
    /// [`crate::CLIPBOARD_CLEAR_SECS`] if the clipboard still holds it.
    CopyText = "copy_text" { text: String, #[serde(default)] secret: bool } -> ();
    /// Puts the table's ticket and a key, as one invite, on the clipboard; cleared again after
    /// [`crate::CLIPBOARD_CLEAR_SECS`] if the clipboard still holds it.
    CopyInvite = "copy_invite" { room: String, key: String } -> ();

    // Hosting a table (the real engine, started by Studio).
    /// The engine Studio would use and the hosted engine's state.
    GetHostingInfo = "hosting_info" {} -> HostingInfo;
    /// Probes `path` (an engine's executable or source folder) and remembers it for this profile.
    ChooseEngine = "choose_engine" { path: String } -> EngineView;
    /// Starts the engine for table `name` (this machine only, or for the Internet) and joins as
    /// keeper; `stop_stale` first stops an engine an earlier Studio left running for it.
    HostTable = "host_table" { name: String, local_only: bool, stop_stale: bool } -> Joined, streams "onEvent": PumpBatch;
    /// The hosted engine's state and output lines, pushed as they change (the current state and
    /// kept lines first).
    WatchHosting = "watch_hosting" {} -> (), streams "onHosting": HostingEvent;
    /// Stops the hosted engine (SIGTERM, then SIGKILL after 10 s); the reply says whether the
    /// person was at its table (and has left it).
    StopHosting = "stop_hosting" {} -> bool;
    /// Starts the hosted engine again (same folder, same ticket) after it crashed.
    RestartHosting = "restart_hosting" {} -> ();
    /// The hosted tables this profile keeps, the most recently used first.
    HostedTables = "hosted_tables" {} -> Vec<HostedTable>;
    /// Opens hosted table `name`'s folder in the file manager; the reply is its path.
    OpenHostedFolder = "open_hosted_folder" { name: String } -> String;
    /// Deletes hosted table `name` and everything in its folder (keys, rooms, saved story);
    /// `typed` must be its name, exactly. Refused while it is hosted.
    DeleteHostedTable = "delete_hosted_table" { name: String, typed: String } -> ();
    /// Asks for an engine: its source folder (`folder`) or its executable.
    PickEngine = "pick_engine" { folder: bool } -> Option<String>;

    // The pack bench.
    /// The pack folder given on the command line, once.
    StartupPack = "startup_pack" {} -> Option<String>;
    /// Asks for a pack folder.
    PickPackFolder = "pick_pack_folder" {} -> Option<String>;
    /// Opens the pack bench on `dir`, viewing as `viewer` (`keeper` by default).
    OpenPack = "open_pack" { dir: String, viewer: Option<String> } -> Joined, streams "onEvent": PumpBatch;
    /// Rejoins the bench's table as `viewer`.
    PackBenchView = "pack_bench_view" { viewer: String } -> Joined, streams "onEvent": PumpBatch;
    /// Shows the bench's pack on the real engine (`engine`: started on first use, its dev room
    /// mounting the folder) or on the offline table; `stop_engine` ends the engine.
    PackBenchTable = "pack_bench_table" { engine: bool, stop_engine: bool } -> Joined, streams "onEvent": PumpBatch;
    /// Every variable of the bench's room.
    PackBenchVars = "pack_bench_vars" {} -> Vec<PackBenchVar>;
    /// Sets one variable; the reply is the room's whole list.
    PackBenchSetVar = "pack_bench_set_var" { id: String, kind: String, value: String } -> Vec<PackBenchVar>;
    /// Runs the engine's packer on `dir` (a check: the build is thrown away) beside our lint.
    CheckPackOnEngine = "check_pack_on_engine" { dir: String } -> PackEngineCheck;
    /// Asks where to save, then builds `dir` into a `.lwpack` with the engine's packer; `None`
    /// when the person cancelled.
    BuildPackOnEngine = "build_pack_on_engine" { dir: String } -> Option<PackBuilt>;
    /// Installs a built `.lwpack` on the table Studio hosts now (the keeper's `.pack install`:
    /// installed and enabled in its room); the reply is the engine's answer.
    InstallPackToHosted = "install_pack_to_hosted" { path: String } -> PackInstalled;

    // The card forge (in the bench): the open pack's card files, edited as the files they are.
    /// The pack's cards: native ones open in the forge.
    ForgeCards = "forge_cards" {} -> Vec<ForgeCardInfo>;
    /// A native card's document and the version read (`base`, for a save to compare).
    ForgeOpen = "forge_open" { path: String } -> ForgeDocument;
    /// Writes `card` (the whole native document) to `path`, in the stable key order; refused,
    /// with nothing written, when the file changed on disk since `base` (unless `overwrite`)
    /// or when the document is not a native card. The reply is the file as written (its
    /// base, and its document: what a later merge with the file compares to).
    ForgeSave = "forge_save" { path: String, card: serde_json::Value, base: String, overwrite: bool } -> ForgeDocument;
    /// A new world card named `name` in `cards/`, listed under the pack's `contents.cards`;
    /// the reply is its path.
    ForgeNew = "forge_new" { name: String } -> String;
    /// The card at `path` (unchanged on disk since `base`) split in two: its world half made a
    /// new card in `cards/` and listed, the file itself rewritten as its character half. The
    /// reply is the world card's path.
    ForgeSplit = "forge_split" { path: String, base: String } -> String;
    /// What is wrong with one hook script, as the engine's QuickJS would load it (empty when
    /// nothing is).
    ForgeCheckHook = "forge_check_hook" { code: String } -> Vec<HookProblem>;
    /// A SillyTavern card (JSON or PNG) or a native card made a card of the pack: `source`
    /// (asked for when `None`; `None` back when cancelled) is previewed, and written into
    /// `cards/` and listed only when `accept`, with the `[InitVar]` leaves named in `promote`
    /// made typed variables; with `split`, a world-kind card is written as two cards, its
    /// character half and its world half (`lorecard::split`).
    ForgeImport = "forge_import" { source: Option<String>, accept: bool, promote: Vec<String>, split: bool } -> Option<ForgeImportView>;
    /// Writes the card at `path` as `form` (`native`, `st-safe`, `st-release`, `png-safe`,
    /// `png-release`; a PNG card on an image asked for) where the person chooses; the reply is
    /// the file written, `None` when cancelled.
    ForgeExport = "forge_export" { path: String, form: String } -> Option<String>;
}
