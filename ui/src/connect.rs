//! The connect screen: ticket, invite key, optional name.

use leptos::prelude::*;
use serde::Deserialize;

use crate::bridge::{self, NoArgs};
use crate::i18n::{t, tr, Locale};

#[derive(Clone, Debug, Deserialize)]
struct StudioInfo {
    studio_version: String,
    protocol_version: String,
}

#[component]
pub fn ConnectScreen() -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let ticket = RwSignal::new(String::new());
    let key = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let info = LocalResource::new(|| bridge::invoke::<_, StudioInfo>("studio_info", &NoArgs {}));

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let l = locale.get_untracked();
        if ticket.get_untracked().trim().is_empty() {
            problem.set(Some(tr(l, "connect.need_ticket").to_string()));
        } else if key.get_untracked().trim().is_empty() {
            problem.set(Some(tr(l, "connect.need_key").to_string()));
        } else {
            problem.set(None);
        }
    };

    view! {
        <section class="connect">
            <header class="connect-brand">
                <img class="connect-logo" src="icon.png" alt=""/>
                <h1>"Loreweaver Studio"</h1>
                <p class="tagline">{t("app.tagline")}</p>
            </header>
            <form class="connect-card" on:submit=submit>
                <h2>{t("connect.title")}</h2>
                <label for="ticket">{t("connect.ticket")}</label>
                <textarea id="ticket" name="ticket" rows="3" spellcheck="false"
                    placeholder=t("connect.ticket.hint")
                    prop:value=ticket on:input=move |ev| ticket.set(event_target_value(&ev))></textarea>
                <label for="key">{t("connect.key")}</label>
                <input id="key" name="key" type="password" autocomplete="off"
                    placeholder=t("connect.key.hint")
                    prop:value=key on:input=move |ev| key.set(event_target_value(&ev))/>
                <label for="name">{t("connect.name")}</label>
                <input id="name" name="name" type="text" maxlength="40"
                    placeholder=t("connect.name.hint")
                    prop:value=name on:input=move |ev| name.set(event_target_value(&ev))/>
                <p class="problem" role="alert">{move || problem.get()}</p>
                <button id="join" type="submit" class="primary">{t("connect.join")}</button>
            </form>
            <footer class="connect-footer">
                <span id="about">
                    {move || match info.get() {
                        None => String::new(),
                        Some(Ok(i)) => format!(
                            "{} {} · {} {}",
                            tr(locale.get(), "about.studio"), i.studio_version,
                            tr(locale.get(), "about.protocol"), i.protocol_version
                        ),
                        Some(Err(_)) => tr(locale.get(), "about.offline").to_string(),
                    }}
                </span>
                <button class="link" type="button"
                    on:click=move |_| locale.update(|l| *l = if *l == Locale::En { Locale::Zh } else { Locale::En })>
                    {t("locale.switch")}
                </button>
            </footer>
        </section>
    }
}
