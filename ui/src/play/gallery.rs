//! The room's media, all of it: a gallery of every picture (and the sounds, with a preview),
//! and a full-window viewer — arrow keys step, Fit / 1:1, Escape closes — from which a picture
//! can become the person's avatar (`avatar_set`). Everything is served by `lwmedia:` from the
//! verified cache; nothing here opens a connection.

use leptos::ev;
use leptos::prelude::*;
use protocol::frame::{AvatarSet, MediaFrame};
use protocol::session::sanitize_text;
use protocol::ClientFrame;

use crate::i18n::{tr, Locale};
use crate::store::Table;
use crate::templates::media_url;

/// What is open: nothing, the gallery's grid, or the viewer on one picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Showing {
    Grid,
    Picture(usize),
}

/// Shared by the sidebar's thumbnails and the overlay.
#[derive(Clone, Copy)]
pub struct Gallery(pub RwSignal<Option<Showing>>);

/// Every picture of the room, oldest first.
pub fn pictures(table: Table) -> Vec<MediaFrame> {
    table.model.with(|m| {
        m.media
            .iter()
            .filter(|x| x.mime.starts_with("image/"))
            .cloned()
            .collect()
    })
}

#[component]
pub fn GalleryOverlay(table: Table) -> impl IntoView {
    let Gallery(showing) = use_context::<Gallery>().expect("gallery");
    // The sound this person is listening to in the gallery (their own ears only).
    let listening = RwSignal::new(None::<String>);
    // Closing the gallery ends the listening.
    Effect::new(move |_| {
        if showing.get().is_none() && listening.get_untracked().is_some() {
            listen(listening, None);
        }
    });
    // Which dialog is open (stepping through pictures keeps the same viewer, and its focus).
    let open = Memo::new(move |_| match showing.get() {
        None => 0,
        Some(Showing::Grid) => 1,
        Some(Showing::Picture(_)) => 2,
    });
    move || match open.get() {
        1 => Some(view! { <Grid table=table listening=listening/> }.into_any()),
        2 => Some(view! { <Viewer table=table/> }.into_any()),
        _ => None,
    }
}

fn listen(listening: RwSignal<Option<String>>, hash: Option<String>) {
    listening.set(hash.clone());
    leptos::task::spawn_local(async move {
        let _ = crate::bridge::call(&ipc::cmd::PreviewSound { hash }).await;
    });
}

/// Every picture and sound of the room; Escape closes it.
#[component]
fn Grid(table: Table, listening: RwSignal<Option<String>>) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let Gallery(showing) = use_context::<Gallery>().expect("gallery");
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, true, move || {
        showing.set(None)
    });
    let list = pictures(table);
    let sounds = table.model.with_untracked(|m| m.audio_library.clone());
    view! {
        <div class="overlay gallery" id="gallery" on:click=move |_| showing.set(None)>
            <div class="overlay-panel" role="dialog" aria-modal="true" aria-labelledby="gallery-title"
                node_ref=root tabindex="-1" on:click=|e| e.stop_propagation()>
                <header class="overlay-head">
                    <h2 id="gallery-title">{move || tr(locale.get(), "gallery.title")}</h2>
                    <button class="link" id="gallery-close" on:click=move |_| showing.set(None)>{move || tr(locale.get(), "gallery.close")}</button>
                </header>
                <div class="gallery-grid">
                    {list.into_iter().enumerate().map(|(i, p)| view! {
                        <button class="gallery-item" data-index=i.to_string() on:click=move |_| showing.set(Some(Showing::Picture(i)))>
                            <img src=media_url(&p.hash, Some(&p.mime), Some(p.size)) alt=""/>
                            <span class="small">{sanitize_text(&p.name)}</span>
                        </button>
                    }).collect_view()}
                </div>
                {(!sounds.is_empty()).then(|| view! {
                    <h3>{move || tr(locale.get(), "gallery.sounds")}</h3>
                    <ul class="gallery-sounds">
                        {sounds.into_iter().map(|a| {
                            let mine = StoredValue::new(a.hash.clone());
                            let on = move || listening.with(|l| mine.with_value(|m| l.as_deref() == Some(m.as_str())));
                            view! {
                                <li class="gallery-sound" data-hash=a.hash.clone() class:listening=on>
                                    <span>{sanitize_text(a.title.as_deref().unwrap_or(&a.name))}</span>
                                    // For this person only, through Studio's mixer: the table hears nothing.
                                    <button class="secondary listen" on:click=move |_| {
                                        let next = if on() { None } else { Some(mine.get_value()) };
                                        listen(listening, next);
                                    }>
                                        {move || tr(locale.get(), if on() { "gallery.stop" } else { "gallery.listen" })}
                                    </button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                })}
            </div>
        </div>
    }
}

/// One picture over the whole window: ← → step, Fit / 1:1, Escape back to the grid.
#[component]
fn Viewer(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let Gallery(showing) = use_context::<Gallery>().expect("gallery");
    let actual = RwSignal::new(false);
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, true, move || {
        showing.set(Some(Showing::Grid))
    });
    let step = move |d: i64| {
        let n = pictures(table).len() as i64;
        showing.update(|s| {
            if let Some(Showing::Picture(i)) = s {
                if n > 0 {
                    *i = ((*i as i64 + d).rem_euclid(n)) as usize;
                }
            }
        })
    };
    let keys = window_event_listener(ev::keydown, move |e| match e.key().as_str() {
        "ArrowRight" => step(1),
        "ArrowLeft" => step(-1),
        _ => {}
    });
    on_cleanup(move || keys.remove());
    let avatar = move |hash: String| table.send(ClientFrame::AvatarSet(AvatarSet { hash }));
    let index = move || match showing.get() {
        Some(Showing::Picture(i)) => i,
        _ => 0,
    };
    let shown = Memo::new(move |_| {
        let list = pictures(table);
        let n = list.len();
        let i = index().min(n.saturating_sub(1));
        list.get(i).cloned().map(|p| (i, n, p))
    });
    view! {
        <div class="overlay viewer" id="viewer" role="dialog" aria-modal="true" node_ref=root tabindex="-1"
            aria-label=move || shown.with(|s| s.as_ref().map(|(_, _, p)| sanitize_text(&p.name)).unwrap_or_default())
            data-index=move || index().to_string()
            class:actual=move || actual.get()>
            {move || shown.get().map(|(i, n, p)| {
                let hash = p.hash.clone();
                view! {
                    <header class="viewer-bar">
                        <span class="viewer-name">{sanitize_text(&p.name)}" · "{sanitize_text(&p.from)}" · "{i + 1}" / "{n}</span>
                        <button class="link" id="viewer-prev" aria-label=move || tr(locale.get(), "gallery.prev") on:click=move |_| step(-1)>"←"</button>
                        <button class="link" id="viewer-next" aria-label=move || tr(locale.get(), "gallery.next") on:click=move |_| step(1)>"→"</button>
                        <button class="link" id="viewer-zoom" on:click=move |_| actual.update(|a| *a = !*a)>
                            {move || tr(locale.get(), if actual.get() { "gallery.fit" } else { "gallery.actual" })}
                        </button>
                        <button class="link" id="viewer-avatar" on:click=move |_| avatar(hash.clone())>
                            {move || tr(locale.get(), "gallery.avatar")}
                        </button>
                        <button class="link" id="viewer-close" on:click=move |_| showing.set(Some(Showing::Grid))>
                            {move || tr(locale.get(), "gallery.close")}
                        </button>
                    </header>
                    <div class="viewer-stage" on:click=move |_| showing.set(Some(Showing::Grid))>
                        <img src=media_url(&p.hash, Some(&p.mime), Some(p.size)) alt=sanitize_text(&p.name)
                            on:click=|e| e.stop_propagation()/>
                    </div>
                }
            })}
        </div>
    }
}
