//! Whether a room's panel code (tier-2 pages) may run: asked before any page of the room
//! starts, kept by the backend per room (which refuses to mount without it), changeable from
//! the tray, the Panels menu and the connect screen's saved table. Also the notice after the
//! backend's watchdog ended a page that froze the window.

use leptos::prelude::*;
use protocol::frame::UiManifestPanel;

use super::{ctx, locale, PanelsCtx};
use crate::i18n::{tr, Locale};

/// Whether this room's panel code (tier-2 pages) may run: the person's answer, kept by the
/// backend per room and asked before any page of the room starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Not known yet (the backend is being asked).
    Unknown,
    /// Never answered for this room: ask, and draw fallbacks meanwhile.
    Ask,
    Run,
    Blocks,
}

impl Code {
    fn answer(self) -> Option<ipc::PanelCode> {
        match self {
            Code::Run => Some(ipc::PanelCode::Run),
            Code::Blocks => Some(ipc::PanelCode::Blocks),
            _ => None,
        }
    }

    fn from_answer(code: Option<ipc::PanelCode>) -> Code {
        match code {
            Some(ipc::PanelCode::Run) => Code::Run,
            Some(ipc::PanelCode::Blocks) => Code::Blocks,
            None => Code::Ask,
        }
    }
}

/// Asks the backend for each new room's answer, and raises the "this room ships code" notice.
pub(super) fn watch_room(ctx: PanelsCtx) {
    let table = ctx.table;
    // A room's welcome: ask the backend for this room's answer (which also tells it which
    // room's pages it may mount from now on).
    Effect::new(move |_| {
        let room = table
            .model
            .with(|m| m.welcome.as_ref().map(|w| w.room.clone()));
        let Some(room) = room else { return };
        if ctx.code_room.get_untracked().as_deref() == Some(room.as_str()) {
            return;
        }
        ctx.code_room.set(Some(room.clone()));
        ctx.code.set(Code::Unknown);
        leptos::task::spawn_local(async move {
            let ask = ipc::cmd::GetPanelCode { room: room.clone() };
            // No answer from the backend is no answer: the person is asked.
            let code = crate::bridge::call(&ask).await.ok().flatten();
            if ctx.code_room.try_get_untracked().flatten().as_deref() == Some(room.as_str()) {
                let _ = ctx.code.try_set(Code::from_answer(code));
            }
        });
    });
    // The first manifest of a room that carries tier-2 panels: say how many and how big.
    Effect::new(move |_| {
        let (room, count, bytes) = table.model.with(|m| {
            let room = m
                .welcome
                .as_ref()
                .map(|w| w.room.clone())
                .unwrap_or_default();
            let tier2: Vec<&UiManifestPanel> = m.panels.iter().filter(|p| p.tier == 2).collect();
            let bytes: u64 = tier2
                .iter()
                .map(|p| {
                    p.entry.as_ref().map_or(0, |e| e.size)
                        + p.assets
                            .as_deref()
                            .unwrap_or_default()
                            .iter()
                            .map(|a| a.size)
                            .sum::<u64>()
                })
                .sum();
            (room, tier2.len(), bytes)
        });
        if count == 0
            || ctx
                .notice_shown_for
                .with_value(|r| r.as_deref() == Some(room.as_str()))
        {
            return;
        }
        ctx.notice_shown_for.set_value(Some(room));
        ctx.notice.set(Some(format!("{count}|{bytes}")));
    });
}

impl PanelsCtx {
    /// The person's answer for this room: stored by the backend first, so no page mounts
    /// before the backend allows it.
    pub fn set_code(self, code: Code) {
        let Some(room) = self.code_room.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let args = ipc::cmd::SetPanelCode {
                room,
                code: code.answer(),
            };
            if crate::bridge::call(&args).await.is_ok() {
                let _ = self.code.try_set(code);
            }
        });
    }

    /// Whether the room's manifest brings any tier-2 page.
    pub fn has_code(self) -> bool {
        self.table
            .model
            .with(|m| m.panels.iter().any(|p| p.tier == 2))
    }
}

/// "3 KB", "1.2 MB": what a person reads at a glance.
pub(crate) fn size_text(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{} KB", bytes.div_ceil(1000).max(1))
    } else {
        format!("{:.1} MB", bytes as f64 / 1_000_000.0)
    }
}

/// The notice's words for `raw` = "count|bytes"; `ask`: before the person has answered.
fn notice_text(locale: Locale, raw: &str, ask: bool) -> String {
    let (count, bytes) = raw.split_once('|').unwrap_or((raw, "0"));
    let key = match (ask, count == "1") {
        (false, true) => "panels.notice_runs_one",
        (false, false) => "panels.notice_runs_many",
        (true, true) => "panels.notice_ask_one",
        (true, false) => "panels.notice_ask_many",
    };
    tr(locale, key)
        .replace("{count}", count)
        .replace("{size}", &size_text(bytes.parse().unwrap_or(0)))
}

/// The tray's lines: the stall notice, and this room's question or its answer.
#[component]
pub(super) fn CodeNotices() -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let stall = use_context::<crate::store::StallNotice>()
        .expect("stall notice")
        .0;
    view! {
                {move || stall.get().map(|titles| {
                    let names = titles.iter().map(|t| format!("“{}”", t.pick(locale.get().code()))).collect::<Vec<_>>().join(", ");
                    view! {
                        <div class="panel-code-notice panel-stall" id="panel-stall-notice" role="alert">
                            <span>{move || tr(locale.get(), "panels.stalled")}" ("{names}"). "{move || tr(locale.get(), "panels.stalled_after")}</span>
                            <button class="link" on:click=move |_| stall.set(None)>{move || tr(locale.get(), "panels.dismiss")}</button>
                        </div>
                    }
                })}
                {move || c.notice.get().map(|n| if c.code.get() == Code::Ask {
                    // Asked before any page of this room starts.
                    view! { <AskCode notice=n/> }.into_any()
                } else {
                    view! {
                        <div class="panel-code-notice" id="panel-code-notice">
                            <span>{notice_text(locale.get(), &n, false)}</span>
                            <label class="blocks-only">
                                <input type="checkbox" id="blocks-only" prop:checked=move || c.code.get() == Code::Blocks
                                    on:change=move |ev| c.set_code(if event_target_checked(&ev) { Code::Blocks } else { Code::Run })/>
                                {move || tr(locale.get(), "panels.blocks_only")}
                            </label>
                            <button class="link" on:click=move |_| c.notice.set(None)>{move || tr(locale.get(), "panels.dismiss")}</button>
                        </div>
                    }.into_any()
                })}
    }
}

/// The Panels menu's switch for this room's code.
#[component]
pub(super) fn CodeSwitch() -> impl IntoView {
    let c = ctx();
    let locale = locale();
    view! {
                        <Show when=move || c.has_code() && matches!(c.code.get(), Code::Run | Code::Blocks | Code::Ask)>
                            <label class="panel-code-switch small">
                                <input type="checkbox" id="panel-code-switch" prop:checked=move || c.code.get() == Code::Run
                                    on:change=move |ev| c.set_code(if event_target_checked(&ev) { Code::Run } else { Code::Blocks })/>
                                {move || tr(locale.get(), "panels.code_switch")}
                            </label>
                        </Show>
    }
}

/// The question before a room's pages run, a dialog beside the story: it takes focus on itself
/// (a key meant for the input answers nothing), Tab stays among its answers, and Escape is the
/// answer that runs nothing (the Panels menu can change it later).
#[component]
fn AskCode(notice: String) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::Dialog, false, move || {
        c.set_code(Code::Blocks)
    });
    view! {
        <div class="panel-code-notice ask" id="panel-code-notice" role="alertdialog"
            node_ref=root tabindex="-1" aria-labelledby="panel-code-question">
            <span id="panel-code-question">{move || notice_text(locale.get(), &notice, true)}" "{move || tr(locale.get(), "panels.run_question")}</span>
            <button class="primary" id="panel-code-run" on:click=move |_| c.set_code(Code::Run)>
                {move || tr(locale.get(), "panels.run_code")}
            </button>
            <button class="secondary" id="panel-code-blocks" on:click=move |_| c.set_code(Code::Blocks)>
                {move || tr(locale.get(), "panels.blocks_only")}
            </button>
        </div>
    }
}
