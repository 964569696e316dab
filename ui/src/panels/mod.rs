//! Module panels (protocol "Module UI panels"): the viewer's manifest drawn in its slots.
//!
//! Tier 1 is declarative: template blocks resolved by `protocol::template` against THIS
//! viewer's `state.variables`, then drawn by the ordinary block renderer. Tier 2 is a page
//! in a sandboxed iframe served by the backend's `lwpanel:` scheme (see `tier2`).
//! Slots: `sidebar` (right column, collapsible), `tray` (a strip above the input),
//! `modal` (a dialog opened from the status bar's Panels menu, one at a time, Esc closes).
//! Panels never cover the narrative, the input or the chrome; a dialog is closed by the player.
//!
//! Panel intents act as the player, so they pass `protocol::intent_gate` first: a gesture in
//! that panel (or the person's Send in a host-drawn prompt showing the exact text) is needed,
//! a command always asks, each panel has its own rate bucket, and what is dropped is counted.

mod consent;
pub(crate) use consent::size_text;
mod host;
mod intents;
pub use intents::IntentPrompt;
pub mod text;
mod tier2;

pub use consent::Code;

use leptos::prelude::*;
use protocol::frame::{PanelIntent, PanelIntentKind, PanelSlot, UiBlock, UiManifestPanel};
use protocol::intent_gate::{self, IntentGate, Verdict};
use protocol::ClientFrame;

use crate::i18n::{tr, Locale};
use crate::store::{now_ms, Table};
use crate::templates::UiBlocksView;

/// Longest intent value (the server's cap).
pub const MAX_INTENT_CHARS: usize = PanelIntent::MAX_VALUE_CHARS;

/// An intent on its way to the table, as a tap sees it.
#[derive(Clone, Debug)]
pub struct TappedIntent {
    pub panel: String,
    pub kind: String,
    pub value: String,
    pub at_ms: f64,
}

/// A watcher of the intents panels send, provided (before the play view builds its
/// [`PanelsCtx`]) by a feature that wants to see them: the pack bench logs them. It answers
/// whether the intent goes on to the table. Panels know the tap, not who provides it.
#[derive(Clone, Copy)]
pub struct IntentTap(pub Callback<TappedIntent, bool>);

/// Panel state shared by the slots, the status-bar menu and the dialog.
#[derive(Clone, Copy)]
pub struct PanelsCtx {
    pub table: Table,
    /// The open modal panel's id.
    pub modal: RwSignal<Option<String>>,
    /// This room's answer: pages run only on `Run`.
    pub code: RwSignal<Code>,
    /// The room the answer belongs to (as its welcome names it).
    code_room: RwSignal<Option<String>>,
    /// The one-line "this room ships panel code" notice (None once dismissed / never).
    pub notice: RwSignal<Option<String>>,
    notice_shown_for: StoredValue<Option<String>>,
    /// Which intents may leave: per-panel buckets, waiting prompts, the dropped count.
    pub gate: RwSignal<IntentGate>,
    /// Panel ids the player collapsed.
    pub collapsed: RwSignal<Vec<String>>,
    pub menu_open: RwSignal<bool>,
    /// The tap in context when this was built, if any.
    tap: Option<IntentTap>,
}

impl PanelsCtx {
    pub fn new(table: Table) -> Self {
        let ctx = PanelsCtx {
            table,
            modal: RwSignal::new(None),
            code: RwSignal::new(Code::Unknown),
            code_room: RwSignal::new(None),
            notice: RwSignal::new(None),
            notice_shown_for: StoredValue::new(None),
            gate: RwSignal::new(IntentGate::default()),
            collapsed: RwSignal::new(Vec::new()),
            menu_open: RwSignal::new(false),
            tap: use_context::<IntentTap>(),
        };
        consent::watch_room(ctx);
        ctx
    }

    /// A panel wants to act as the player. `gesture`: it follows a real gesture in that panel.
    /// Returns false when the gate dropped it.
    pub fn intent(self, panel: &str, kind: PanelIntentKind, value: String, gesture: bool) -> bool {
        let now = now_ms();
        let verdict = self
            .gate
            .try_update(|g| g.offer(panel, kind.clone(), &value, gesture, now))
            .unwrap_or(Verdict::Drop);
        match verdict {
            Verdict::Send => {
                self.dispatch(panel, kind, value);
                true
            }
            Verdict::Ask => true,
            Verdict::Drop => false,
        }
    }

    /// The person answered a prompt: Send dispatches exactly what it showed.
    pub fn answer(self, id: u64, send: bool) {
        if let Some(Some(p)) = self.gate.try_update(|g| g.answer(id, send)) {
            self.dispatch(&p.panel, p.kind, p.value);
        }
    }

    /// Out to the table, shown at once as the player's pending line.
    fn dispatch(self, panel: &str, kind: PanelIntentKind, value: String) {
        let now = now_ms();
        let shown = intent_gate::shown(&kind, &value);
        // A tap (the pack bench's log) sees every intent and may keep it from the table.
        if let Some(tap) = self.tap {
            let to_table = tap.0.run(TappedIntent {
                panel: panel.to_owned(),
                kind: kind.as_str().to_owned(),
                value: value.clone(),
                at_ms: now,
            });
            if !to_table {
                return;
            }
        }
        self.table.model.update(|m| {
            m.submit_input(&shown, now);
        });
        self.table.send(ClientFrame::PanelIntent(PanelIntent {
            panel: panel.to_owned(),
            kind,
            value,
        }));
    }

    fn toggle_collapsed(self, id: &str) {
        self.collapsed.update(|c| {
            if let Some(i) = c.iter().position(|x| x == id) {
                c.remove(i);
            } else {
                c.push(id.to_owned());
            }
        });
    }
}

fn locale() -> RwSignal<Locale> {
    use_context::<RwSignal<Locale>>().expect("locale")
}

fn ctx() -> PanelsCtx {
    use_context::<PanelsCtx>().expect("PanelsCtx is provided by the play view")
}

/// The viewer's variables as wire JSON (the resolver drops hidden rows itself).
fn variables_json(table: Table) -> Vec<serde_json::Value> {
    table.model.with(|m| {
        m.state
            .as_ref()
            .and_then(|s| s.variables.as_ref())
            .map(|vars| {
                vars.iter()
                    .filter_map(|v| serde_json::to_value(v).ok())
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Template blocks → drawable blocks for this viewer. `Err` when a resolved block does not
/// parse (the panel then shows a short notice instead of a broken layout).
pub(crate) fn resolve(
    blocks: &[serde_json::Value],
    variables: &[serde_json::Value],
    locale: Locale,
) -> Result<Vec<UiBlock>, String> {
    protocol::template::resolve_panel_blocks(blocks, variables, locale.code())
        .into_iter()
        .map(|v| serde_json::from_value::<UiBlock>(v).map_err(|e| e.to_string()))
        .collect()
}

/// Tier-1 blocks (or a tier-2 fallback) live against the viewer's variables.
#[component]
pub(crate) fn TemplateBlocks(panel: String, blocks: Vec<serde_json::Value>) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let vars = Memo::new(move |_| variables_json(c.table));
    let resolved = Memo::new(move |_| vars.with(|v| resolve(&blocks, v, locale.get())));
    // A click on the host's own choice button is the person's gesture.
    let on_choice = Callback::new(move |input: String| {
        c.intent(&panel, PanelIntentKind::Choice, input, true);
    });
    move || match resolved.get() {
        Ok(blocks) => view! { <UiBlocksView blocks=blocks on_choice=on_choice/> }.into_any(),
        Err(_) => {
            view! { <p class="panel-notice">{tr(locale.get(), "panels.failed")}</p> }.into_any()
        }
    }
}

/// One panel's body, whatever its tier.
#[component]
fn PanelBody(panel: UiManifestPanel) -> impl IntoView {
    let locale = locale();
    match panel.tier {
        1 => match panel.blocks.clone() {
            Some(blocks) => {
                view! { <TemplateBlocks panel=panel.id.clone() blocks=blocks/> }.into_any()
            }
            None => {
                view! { <p class="panel-notice">{move || tr(locale.get(), "panels.failed")}</p> }
                    .into_any()
            }
        },
        2 => view! { <tier2::Tier2Panel panel=panel/> }.into_any(),
        _ => view! { <p class="panel-notice">{move || tr(locale.get(), "panels.failed")}</p> }
            .into_any(),
    }
}

/// The slot's panels, keyed by their whole manifest entry: a manifest that replaces the last
/// one keeps an unchanged panel mounted (a tier-2 page keeps its state) and re-mounts a
/// changed one. A tier-2 page learns the language when it starts, so its key carries that too.
fn panels_in(table: Table, slot: PanelSlot) -> Vec<(String, UiManifestPanel)> {
    let code = locale().get().code();
    table.model.with(|m| {
        m.panels
            .iter()
            .filter(|p| p.slot == slot)
            .map(|p| {
                let entry = serde_json::to_string(p).unwrap_or_else(|_| p.id.clone());
                let key = if p.tier == 2 {
                    format!("{code} {entry}")
                } else {
                    entry
                };
                (key, p.clone())
            })
            .collect()
    })
}

fn dom_id(panel: &str) -> String {
    panel
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// A collapsible card, for the sidebar and the tray.
#[component]
fn PanelCard(panel: UiManifestPanel, class: &'static str) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let id = panel.id.clone();
    let id_toggle = id.clone();
    let id_check = id.clone();
    let collapsed = Memo::new(move |_| c.collapsed.with(|l| l.contains(&id_check)));
    let title = panel.title.clone();
    let tier = panel.tier;
    view! {
        <section class=format!("card lw-panel {class}") data-panel=id.clone() data-tier=tier
            id=format!("panel-{}", dom_id(&id))>
            <button class="panel-head" aria-expanded=move || (!collapsed.get()).to_string()
                title=move || tr(locale.get(), if collapsed.get() { "panels.expand" } else { "panels.collapse" })
                on:click=move |_| c.toggle_collapsed(&id_toggle)>
                <span class="panel-title">{move || title.pick(locale.get().code()).to_owned()}</span>
                <span class="chevron" aria-hidden="true">{move || if collapsed.get() { "▸" } else { "▾" }}</span>
            </button>
            <div class="panel-body" class:collapsed=move || collapsed.get()>
                <PanelBody panel=panel/>
            </div>
        </section>
    }
}

/// Sidebar-slot panels, stacked under the state cards.
#[component]
pub fn SidebarPanels(table: Table) -> impl IntoView {
    view! {
        <div class="lw-panels sidebar-panels">
            <For each=move || panels_in(table, PanelSlot::Sidebar) key=|(k, _)| k.clone() let:item>
                <PanelCard panel=item.1 class="slot-sidebar"/>
            </For>
        </div>
    }
}

/// The tray: a strip above the input (plus the tier-2 notice when there is one).
#[component]
pub fn TrayPanels(table: Table) -> impl IntoView {
    let c = ctx();
    let stall = use_context::<crate::store::StallNotice>()
        .expect("stall notice")
        .0;
    let has_any = move || {
        !panels_in(table, PanelSlot::Tray).is_empty()
            || c.notice.with(Option::is_some)
            || stall.with(Option::is_some)
    };
    view! {
        <Show when=has_any>
            <div class="lw-tray" id="panel-tray">
                <consent::CodeNotices/>
                <div class="tray-row">
                    <For each=move || panels_in(table, PanelSlot::Tray) key=|(k, _)| k.clone() let:item>
                        <PanelCard panel=item.1 class="slot-tray"/>
                    </For>
                </div>
            </div>
        </Show>
    }
}

/// The status bar's Panels menu: lists modal panels; picking one opens it in the dialog.
#[component]
pub fn PanelsMenu(table: Table) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let count = move || table.model.with(|m| m.panels.len());
    view! {
        <Show when=move || count() != 0>
            <span class="panels-menu">
                <button class="link" id="panels-menu" aria-haspopup="true"
                    aria-expanded=move || c.menu_open.get().to_string()
                    on:click=move |_| c.menu_open.update(|o| *o = !*o)>
                    {move || tr(locale.get(), "panels.menu")}
                </button>
                <Show when=move || c.menu_open.get()>
                    <MenuList table=table/>
                </Show>
            </span>
        </Show>
    }
}

/// The Panels menu's list: the room's code switch and its modal panels; focus on the first
/// when it opens, Escape closes it.
#[component]
fn MenuList(table: Table) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let modals = move || panels_in(table, PanelSlot::Modal);
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, false, move || {
        c.menu_open.set(false)
    });
    view! {
        <div class="panels-menu-list" node_ref=root>
            <consent::CodeSwitch/>
            {move || {
                let list = modals();
                if list.is_empty() {
                    view! { <span class="small">{tr(locale.get(), "panels.none")}</span> }.into_any()
                } else {
                    list.into_iter().map(|(_, p)| {
                        let id = p.id.clone();
                        let title = p.title.pick(locale.get().code()).to_owned();
                        view! {
                            <button class="panels-menu-item" data-panel=id.clone()
                                on:click=move |_| { c.modal.set(Some(id.clone())); c.menu_open.set(false); }>
                                {title}
                            </button>
                        }
                    }).collect_view().into_any()
                }
            }}
        </div>
    }
}

/// The modal dialog: one panel at a time, over a backdrop; Esc, the backdrop or Close shut it.
#[component]
pub fn ModalHost(table: Table) -> impl IntoView {
    let c = ctx();
    // The open panel's id while the manifest has it: a manifest update redraws its content,
    // not the dialog (which would hand focus back and take it again).
    let open = Memo::new(move |_| {
        let id = c.modal.get()?;
        table
            .model
            .with(|m| {
                m.panels
                    .iter()
                    .any(|p| p.id == id && p.slot == PanelSlot::Modal)
            })
            .then_some(id)
    });
    move || {
        open.get()
            .map(|id| view! { <ModalDialog table=table id=id/> })
    }
}

/// One open modal panel: takes focus, keeps it, gives it back to what opened it.
#[component]
fn ModalDialog(table: Table, id: String) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, true, move || {
        c.modal.set(None)
    });
    let panel = Memo::new({
        let id = id.clone();
        move |_| {
            table
                .model
                .with(|m| m.panels.iter().find(|p| p.id == id).cloned())
        }
    });
    let title = move || {
        panel.with(|p| {
            p.as_ref()
                .map(|p| p.title.pick(locale.get().code()).to_owned())
                .unwrap_or_default()
        })
    };
    let tier = move || panel.with(|p| p.as_ref().map_or(1, |p| p.tier));
    view! {
        <div class="lw-modal-backdrop" on:click=move |_| c.modal.set(None)>
            <div class="lw-modal card lw-panel" role="dialog" aria-modal="true" aria-label=title
                node_ref=root tabindex="-1"
                data-panel=id.clone() data-tier=tier id=format!("panel-{}", dom_id(&id))
                on:click=|ev| ev.stop_propagation()>
                <header class="lw-modal-head">
                    <h3 class="panel-title">{title}</h3>
                    <button class="link" id="panel-close" on:click=move |_| c.modal.set(None)>
                        {move || tr(locale.get(), "panels.close")}
                    </button>
                </header>
                <div class="panel-body">
                    {move || panel.get().map(|p| view! { <PanelBody panel=p/> })}
                </div>
            </div>
        </div>
    }
}
