//! A panel's intents as the host shows them: the prompt that asks the person before anything
//! is sent in their name, and the count of what panels tried to send without them.

use leptos::prelude::*;

use protocol::intent_gate::{self, IntentGate};

use super::{ctx, locale};
use crate::i18n::tr;
use crate::store::Table;

/// "Probe wants to send: …  Send / Dismiss" — drawn by the host, never by the panel; and the
/// count of what panels tried to send without the person.
#[component]
pub fn IntentPrompt(table: Table) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let current = Memo::new(move |_| c.gate.with(|g| g.prompt().cloned()));
    let dropped = Memo::new(move |_| c.gate.with(|g| (g.dropped, g.last_dropped_panel.clone())));
    // A panel that left the manifest takes its waiting prompt with it.
    let ids = Memo::new(move |_| {
        table
            .model
            .with(|m| m.panels.iter().map(|p| p.id.clone()).collect::<Vec<_>>())
    });
    Effect::new(move |_| {
        let ids = ids.get();
        c.gate.update(|g| g.keep_panels(&ids));
    });
    let title_of = move |id: &str| title_of(table, locale, id);
    view! {
        {move || current.get().map(|p| view! { <Prompt table=table prompt=p/> })}
        {move || {
            let (n, panel) = dropped.get();
            (n > 0).then(|| {
                let who = panel.map(|p| title_of(&p)).unwrap_or_default();
                let key = if n == 1 { "panels.dropped_one" } else { "panels.dropped_many" };
                let text = tr(locale.get(), key).replace("{n}", &n.to_string()).replace("{who}", &who);
                view! {
                    <div class="lw-intent-dropped" id="intent-dropped" data-count=n.to_string() role="status">
                        <span>{text}</span>
                        <button class="link" on:click=move |_| c.gate.update(IntentGate::clear_dropped)>{move || tr(locale.get(), "panels.dismiss")}</button>
                    </div>
                }
            })
        }}
    }
}

fn title_of(table: Table, locale: RwSignal<crate::i18n::Locale>, id: &str) -> String {
    table.model.with(|m| {
        m.panels
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.title.pick(locale.get().code()).to_owned())
            .unwrap_or_else(|| id.to_owned())
    })
}

/// The question itself, a dialog: it takes focus on itself (so an Enter meant for the input
/// answers nothing), Tab stays among its two buttons, Escape dismisses, and focus goes back.
#[component]
fn Prompt(table: Table, prompt: intent_gate::Pending) -> impl IntoView {
    let c = ctx();
    let locale = locale();
    let p = prompt;
    let id = p.id;
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::Dialog, false, move || {
        c.answer(id, false)
    });
    let text = intent_gate::shown(&p.kind, &p.value);
    let command = intent_gate::is_command(&p.value);
    view! {
        <div class="lw-intent-prompt card" role="alertdialog" id="intent-prompt" data-panel=p.panel.clone()
            node_ref=root tabindex="-1" aria-labelledby="intent-question" aria-describedby="intent-text">
            <p id="intent-question"><strong class="lw-intent-panel">{title_of(table, locale, &p.panel)}</strong>" "{move || tr(locale.get(), "panels.wants_to_send")}</p>
            <pre class="lw-intent-text" id="intent-text">{text}</pre>
            {command.then(|| view! { <p class="lw-intent-warn">{move || tr(locale.get(), "panels.is_command")}</p> })}
            <div class="lw-intent-actions">
                <button id="intent-send" on:click=move |_| c.answer(id, true)>{move || tr(locale.get(), "panels.send")}</button>
                <button class="link" id="intent-dismiss" on:click=move |_| c.answer(id, false)>{move || tr(locale.get(), "panels.dismiss")}</button>
            </div>
        </div>
    }
}
