//! Loreweaver Studio's UI: every pixel, no sockets. Talks to the backend through typed commands.

mod bridge;
mod connect;
mod i18n;
mod markdown;
mod play;
mod table;
#[path = "../templates/mod.rs"]
mod templates;

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// Which screen fills the window.
#[derive(Clone, Copy)]
pub enum Screen {
    Connect,
    Play(table::Table),
}

#[component]
fn App() -> impl IntoView {
    let locale = RwSignal::new(i18n::Locale::detect());
    provide_context(locale);
    // Screen readers and fonts follow the UI language.
    Effect::new(move |_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", locale.get().code());
        }
    });
    let screen = RwSignal::new(Screen::Connect);
    provide_context(screen);
    view! {
        <main class="studio">
            {move || match screen.get() {
                Screen::Connect => view! { <connect::ConnectScreen/> }.into_any(),
                Screen::Play(table) => view! { <play::PlayView table=table/> }.into_any(),
            }}
        </main>
    }
}
