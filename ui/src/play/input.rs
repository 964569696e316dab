//! The input: Enter sends, Shift+Enter breaks the line, ↑/↓ walk the history, a counter from
//! 80 % of the limit and a hard stop at it; disabled with the reason while offline.

use leptos::html::Textarea;
use leptos::prelude::*;

use crate::i18n::{tr, Locale};
use crate::store::{Status, Table};

const MAX_INPUT: usize = 4000;
const COUNTER_FROM: usize = MAX_INPUT * 8 / 10;

#[component]
pub fn InputBox(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let text = RwSignal::new(String::new());
    // A line handed back to edit (not delivered) lands here.
    Effect::new(move |_| {
        if let Some(d) = table.draft.get() {
            text.set(d);
            table.draft.set(None);
        }
    });
    let super::keys::History(history) = use_context().expect("input history");
    let cursor = StoredValue::new(None::<usize>);
    let area = NodeRef::<Textarea>::new();
    // The native open dialog; the backend reads the picked files from disk (never the page).
    let on_pick = move |_| {
        leptos::task::spawn_local(async move {
            let _ = crate::bridge::call(&ipc::cmd::PickAndShare {}).await;
        });
    };
    let sharing_off =
        move || !table.model.with(|m| m.media_enabled) && !crate::keeper::is_keeper(table);
    let offline_reason = move || match table.status.get() {
        Status::Online { .. } => None,
        Status::Connecting => Some(tr(locale.get(), "input.connecting").to_string()),
        Status::Reconnecting { .. } => Some(tr(locale.get(), "input.reconnecting").to_string()),
        Status::Refused { reason } | Status::Closed { reason } => Some(reason),
    };
    let count = move || text.with(|t| t.chars().count());
    let send = move || {
        let line = text.get_untracked();
        if line.trim().is_empty() || count() > MAX_INPUT || offline_reason().is_some() {
            return;
        }
        history.update_value(|h| {
            h.push(line.clone());
            if h.len() > 200 {
                h.remove(0);
            }
        });
        cursor.set_value(None);
        text.set(String::new());
        table.say(line);
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        if key == "Enter" && !ev.shift_key() && !ev.is_composing() {
            ev.prevent_default();
            send();
        } else if key == "ArrowUp" || key == "ArrowDown" {
            // History only when the caret is on the first/last line, like a shell.
            let multi_line = text.with_untracked(|t| t.contains('\n'));
            if multi_line {
                return;
            }
            let len = history.with_value(|h| h.len());
            if len == 0 {
                return;
            }
            ev.prevent_default();
            let next = match (cursor.get_value(), key.as_str()) {
                (None, "ArrowUp") => Some(len - 1),
                (Some(0), "ArrowUp") => Some(0),
                (Some(i), "ArrowUp") => Some(i - 1),
                (Some(i), _) if i + 1 < len => Some(i + 1),
                _ => None,
            };
            cursor.set_value(next);
            text.set(
                next.map(|i| history.with_value(|h| h[i].clone()))
                    .unwrap_or_default(),
            );
        }
    };
    view! {
        <div class="uploads" aria-live="polite">
            <super::uploads::Uploads table />
            {move || sharing_off().then(|| view! {
                <div class="upload uploads-off" id="uploads-off"><span class="upload-state">{tr(locale.get(), "upload.off")}</span></div>
            })}
        </div>
        <div class="input-box" class:offline=move || offline_reason().is_some()>
            <button class="share" id="share-button" type="button"
                title=move || format!("{} {}", tr(locale.get(), "upload.share"), tr(locale.get(), "upload.drop"))
                aria-label=move || tr(locale.get(), "upload.share")
                class:hidden=sharing_off
                disabled=move || offline_reason().is_some()
                on:click=on_pick>
                <span aria-hidden="true">"+"</span>
            </button>
            <textarea id="input" node_ref=area rows="2" maxlength=MAX_INPUT.to_string()
                placeholder=move || offline_reason().unwrap_or_else(|| tr(locale.get(), "input.placeholder").to_string())
                disabled=move || offline_reason().is_some()
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=on_key></textarea>
            <div class="input-side">
                {move || {
                    let n = count();
                    (n >= COUNTER_FROM).then(|| view! {
                        <span class="counter" class:full={n >= MAX_INPUT}>{n}" / "{MAX_INPUT}</span>
                    })
                }}
                <button id="send" class="primary" on:click=move |_| send()
                    disabled=move || offline_reason().is_some() || text.with(|t| t.trim().is_empty())>
                    {move || tr(locale.get(), "input.send")}
                </button>
            </div>
        </div>
    }
}
