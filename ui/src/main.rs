//! Loreweaver Studio's UI: every pixel, no sockets. Talks to the backend through typed commands.
//!
//! The layers, one direction only (checked by `tests/layers.rs`): `bridge` and `i18n` at the bottom;
//! `prefs`, `perf`, `clock`, `focus`, `markdown` and the `store` (the table fed by the pump) above them; the
//! features on top (`connect`, `hosting`, `play`, `keeper`, `pack_bench`, `panels`, `templates`), each
//! with its own context and strings table. This root only wires them: it registers the
//! strings tables and mounts the app.

mod bridge;
mod clock;
mod connect;
mod focus;
mod hosting;
mod i18n;
mod idle;
mod keeper;
mod markdown;
mod pack_bench;
mod panels;
mod perf;
mod play;
mod prefs;
mod store;
mod templates;

#[cfg(test)]
mod tests;

use leptos::prelude::*;

use store::{AppOwner, ConnectNotice, InviteAsked, Screen, StallNotice};

/// Every strings table, registered here and nowhere else (`i18n` knows no feature).
const STRINGS: &[i18n::Strings] = &[
    i18n::text::strings,
    connect::text::strings,
    play::text::strings,
    keeper::text::strings,
    pack_bench::text::strings,
    panels::text::strings,
    hosting::text::strings,
];

fn main() {
    // A bug must not leave a frozen window: say so on screen (and in the console).
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let doc = body.owner_document().expect("a body has a document");
            if let Ok(el) = doc.create_element("div") {
                el.set_id("crash");
                // Where it happened: the wasm functions on the stack (a release build keeps
                // their names), so a bug met once on CI can be found without meeting it again.
                let stack = js_sys::Reflect::get(&js_sys::Error::new(""), &"stack".into())
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default();
                let stack: String = stack
                    .lines()
                    .filter(|l| l.contains("wasm"))
                    .take(24)
                    .collect::<Vec<_>>()
                    .join("\n");
                el.set_text_content(Some(&format!(
                    "Studio hit a bug and must be restarted: {info}\n{stack}"
                )));
                let _ = body.append_child(&el);
            }
        }
    }));
    i18n::install(STRINGS);
    perf::listen_for_bench();
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let prefs = prefs::Prefs::load();
    provide_context(prefs);
    provide_context(prefs.locale);
    // Tables outlive the connect screen that starts them: their signals belong to the app.
    provide_context(AppOwner(
        Owner::current().expect("App runs inside an owner"),
    ));
    let screen = RwSignal::new(Screen::Connect);
    provide_context(screen);
    provide_context(ConnectNotice(RwSignal::new(None)));
    provide_context(StallNotice(RwSignal::new(None)));
    provide_context(InviteAsked(RwSignal::new(false)));
    provide_context(pack_bench::BesideOn(RwSignal::new(false)));
    hosting::HostingCtx::provide();
    play::restore_sound();
    play::warm_fonts();
    view! {
        <div class="studio">
            <hosting::HostingStrip/>
            {move || match screen.get() {
                Screen::Connect => view! { <connect::ConnectScreen/> }.into_any(),
                Screen::Play(table) => view! { <play::PlayView table=table/> }.into_any(),
            }}
        </div>
    }
}
