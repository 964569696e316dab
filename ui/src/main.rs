//! Loreweaver Studio's UI: every pixel, no sockets. Talks to the backend through typed commands.

mod bridge;
mod connect;
mod i18n;

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
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
    view! {
        <main class="studio">
            <connect::ConnectScreen/>
        </main>
    }
}
