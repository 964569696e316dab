//! Search over the story and saving it: a search box that narrows the transcript to the lines
//! that match, and "Save as Markdown / web page" through the native save dialog (the page renders
//! the file with the pure exporter; the backend only asks where and writes it).

use leptos::prelude::*;
use protocol::session::export::{to_html, to_markdown};

use crate::i18n::{tr, Locale};
use crate::store::Table;

#[component]
pub fn StoryTools(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let open = RwSignal::new(false);
    let saved = RwSignal::new(None::<String>);
    let save = move |html: bool| {
        open.set(false);
        let (room, entries) = table.model.with_untracked(|m| {
            let room = m
                .welcome
                .as_ref()
                .map(|w| w.room.clone())
                .unwrap_or_else(|| "table".into());
            (room, m.transcript().entries().to_vec())
        });
        let date = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default()
            .chars()
            .take(10)
            .collect::<String>();
        let content = if html {
            to_html(&entries, &room, &date)
        } else {
            to_markdown(&entries, &room, &date)
        };
        let name = format!("{room} {date}.{}", if html { "html" } else { "md" });
        leptos::task::spawn_local(async move {
            let save = ipc::cmd::SaveTranscript {
                name,
                html,
                content,
            };
            let result = crate::bridge::call(&save).await;
            let _ = saved.try_set(match result {
                Ok(Some(path)) => Some(format!(
                    "{} {path}",
                    tr(locale.get_untracked(), "story.saved")
                )),
                Ok(None) => None,
                Err(e) => Some(e),
            });
        });
    };
    view! {
        <span class="story-tools">
            <input id="search" type="search" class="story-search"
                placeholder=move || tr(locale.get(), "story.search")
                aria-label=move || tr(locale.get(), "story.search")
                prop:value=move || table.search.get()
                on:input=move |ev| table.search.set(event_target_value(&ev))/>
            <span class="menu-anchor">
                <button class="link" id="story-save" type="button" aria-haspopup="menu"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)>
                    {move || tr(locale.get(), "story.save")}" ▾"
                </button>
                {move || open.get().then(|| view! { <SaveMenu open=open save=Callback::new(save)/> })}
            </span>
            {move || saved.get().map(|s| view! {
                <span id="story-saved" class="story-saved" on:click=move |_| saved.set(None)>{s}</span>
            })}
        </span>
    }
}

/// Save as Markdown or a web page: focus on the first when it opens, Escape closes it.
#[component]
fn SaveMenu(open: RwSignal<bool>, save: Callback<bool>) -> impl IntoView {
    let locale = use_context::<RwSignal<crate::i18n::Locale>>().expect("locale");
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, false, move || {
        open.set(false)
    });
    view! {
        <div class="story-menu" role="menu" node_ref=root>
            <button id="export-md" role="menuitem" on:click=move |_| save.run(false)>
                {tr(locale.get_untracked(), "story.markdown")}
            </button>
            <button id="export-html" role="menuitem" on:click=move |_| save.run(true)>
                {tr(locale.get_untracked(), "story.html")}
            </button>
        </div>
    }
}
