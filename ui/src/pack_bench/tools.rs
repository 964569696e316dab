//! The bench's author tools: inject a `panel_event` into a panel, and the log of every
//! `panel_intent` the pack's panels sent (with a switch keeping them from the table).

use leptos::prelude::*;
use protocol::frame::{PanelEvent, ServerFrame};

use crate::i18n::{tr, Locale};
use crate::store::{now_ms, Table};

/// One intent a panel sent, as the author sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedIntent {
    pub panel: String,
    pub kind: String,
    pub value: String,
    pub at_ms: f64,
    /// Whether it went on to the table.
    pub sent: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IntentLog {
    pub entries: Vec<LoggedIntent>,
    /// Intents reach the table (else they are only logged).
    pub execute: bool,
}

impl Default for IntentLog {
    fn default() -> Self {
        IntentLog {
            entries: Vec::new(),
            execute: true,
        }
    }
}

impl IntentLog {
    pub fn push(&mut self, panel: &str, kind: &str, value: &str, at_ms: f64, sent: bool) {
        self.entries.push(LoggedIntent {
            panel: panel.into(),
            kind: kind.into(),
            value: value.into(),
            at_ms,
            sent,
        });
        // The recent ones are what an author looks at.
        if self.entries.len() > 50 {
            self.entries.remove(0);
        }
    }
}

fn clock(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    format!(
        "{:02}:{:02}:{:02}",
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds()
    )
}

#[component]
pub fn AuthorTools(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let log = use_context::<super::PackBenchCtx>()
        .expect("PackBenchCtx is provided by the play view")
        .log;
    let panel = RwSignal::new(String::new());
    let payload = RwSignal::new("{\"hello\": \"world\"}".to_string());
    let problem = RwSignal::new(None::<String>);
    let recent = RwSignal::new(Vec::<String>::new());
    let panels = Memo::new(move |_| {
        table
            .model
            .with(|m| m.panels.iter().map(|p| p.id.clone()).collect::<Vec<_>>())
    });
    let inject = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let target = panel.get_untracked();
        let target = if target.is_empty() {
            panels.get_untracked().first().cloned().unwrap_or_default()
        } else {
            target
        };
        match serde_json::from_str::<serde_json::Value>(&payload.get_untracked()) {
            Ok(value) => {
                problem.set(None);
                let text = payload.get_untracked();
                recent.update(|r| {
                    r.retain(|x| x != &text);
                    r.insert(0, text);
                    r.truncate(5);
                });
                // Delivered as if the table had sent it: tier-2 pages get it in `onEvent`.
                let frame = ServerFrame::PanelEvent(PanelEvent {
                    panel: target,
                    payload: value,
                });
                table.model.update(|m| {
                    m.apply(&frame, now_ms());
                });
            }
            Err(e) => problem.set(Some(format!(
                "{}: {e}",
                tr(locale.get_untracked(), "bench.bad_json")
            ))),
        }
    };
    view! {
        <details class="bench-tools" id="bench-tools">
            <summary>{move || tr(locale.get(), "bench.tools")}</summary>
            <form class="bench-event" on:submit=inject>
                <select id="bench-event-panel" prop:value=panel on:change=move |ev| panel.set(event_target_value(&ev))>
                    {move || panels.get().into_iter().map(|p| view! { <option value=p.clone()>{p.clone()}</option> }).collect_view()}
                </select>
                <input id="bench-event-payload" type="text" spellcheck="false" list="bench-recent" prop:value=payload
                    on:input=move |ev| payload.set(event_target_value(&ev))/>
                <datalist id="bench-recent">
                    {move || recent.get().into_iter().map(|r| view! { <option value=r></option> }).collect_view()}
                </datalist>
                <button id="bench-inject" type="submit" class="secondary small">{move || tr(locale.get(), "bench.inject")}</button>
                <span class="failure">{move || problem.get()}</span>
            </form>
            <label class="bench-execute">
                <input id="bench-execute" type="checkbox" prop:checked=move || log.with(|l| l.execute)
                    on:change=move |ev| log.update(|l| l.execute = event_target_checked(&ev))/>
                {move || tr(locale.get(), "bench.execute")}
            </label>
            <ol class="bench-intents" id="bench-intents">
                {move || log.with(|l| l.entries.iter().rev().map(|e| view! {
                    <li class:logged-only=!e.sent>
                        <span class="when">{clock(e.at_ms)}</span>" "
                        <code>{e.panel.clone()}</code>" · "{e.kind.clone()}" · "
                        <span class="intent-value">{e.value.clone()}</span>
                        {(!e.sent).then(|| view! { <em>" ("{tr(locale.get(), "bench.logged_only")}")"</em> })}
                    </li>
                }).collect_view())}
            </ol>
        </details>
    }
}
