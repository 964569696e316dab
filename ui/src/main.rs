//! Loreweaver Studio's UI: every pixel, no sockets. Talks to the backend through typed commands.

mod bench;
mod bridge;
mod connect;
mod i18n;
mod keeper;
mod markdown;
#[path = "../panels/mod.rs"]
mod panels;
mod perf;
mod play;
mod prefs;
mod table;
#[path = "../templates/mod.rs"]
mod templates;

use leptos::prelude::*;

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
                el.set_text_content(Some(&format!(
                    "Studio hit a bug and must be restarted: {info}"
                )));
                let _ = body.append_child(&el);
            }
        }
    }));
    perf::listen_for_bench();
    leptos::mount::mount_to_body(App);
}

/// The app's root owner, for state that must outlive the screen that created it.
#[derive(Clone)]
pub struct AppOwner(pub Owner);

/// Why the connect screen is showing again (a refusal from the table), shown once.
#[derive(Clone, Copy)]
pub struct ConnectNotice(pub RwSignal<Option<String>>);

/// The titles of the panel pages that were running when one froze the window (the backend's
/// watchdog reloaded it and the table was rejoined with the room's panel code off).
#[derive(Clone, Copy)]
pub struct StallNotice(pub RwSignal<Option<Vec<protocol::frame::Localized>>>);

/// Answers the backend's heartbeat: a window that stops answering while a panel page runs is
/// ended and reloaded by the backend (see `panels::watchdog` there).
fn answer_heartbeat() {
    let on_ping = bridge::channel(|_| {
        leptos::task::spawn_local(async {
            let _ = bridge::call(&ipc::cmd::Pong {}).await;
        });
    });
    leptos::task::spawn_local(async move {
        let _ = bridge::call_streaming(&ipc::cmd::WatchStalls {}, &on_ping).await;
    });
}

/// Which screen fills the window.
#[derive(Clone, Copy)]
pub enum Screen {
    Connect,
    Play(table::Table),
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
    answer_heartbeat();
    play::restore_sound();
    view! {
        <main class="studio">
            {move || match screen.get() {
                Screen::Connect => view! { <connect::ConnectScreen/> }.into_any(),
                Screen::Play(table) => view! { <play::PlayView table=table/> }.into_any(),
            }}
        </main>
    }
}
