//! Table switches: uploads on/off, update the server, start the sample adventure.

use leptos::prelude::*;
use protocol::frame::MediaSetEnabled;
use protocol::keeper::{Control, Failure};
use protocol::ClientFrame;

use super::{ctx, locale, Outcome};
use crate::i18n::tr;
use crate::store::Table;

/// The exact line the engine's demo responder recognises, in the room's language.
fn sample_adventure_line(room_locale: &str) -> &'static str {
    if room_locale.starts_with("zh") {
        "开始内置示例冒险"
    } else {
        "Start the built-in sample adventure"
    }
}

#[component]
pub fn SwitchesPage(table: Table) -> impl IntoView {
    let locale = locale();
    let keeper_page = ctx().page;
    let feature = move |f: &str| {
        table.model.with(|m| {
            m.welcome
                .as_ref()
                .is_some_and(|w| w.features.iter().any(|x| x == f))
        })
    };
    let uploads_on = move || table.model.with(|m| m.media_enabled);
    let confirm_update = RwSignal::new(false);
    // The server's own `using_demo:false` removes a stale sample-adventure offer.
    let demo_offer = move || {
        feature("demo")
            && table
                .keeper
                .with(|k| k.config.as_ref().and_then(|c| c.using_demo).unwrap_or(true))
    };
    let update_output = move || {
        table.keeper.with(|k| match k.failure(&Control::Update) {
            Some(Failure::UpdateFailed { output }) => Some(output.clone()),
            _ => None,
        })
    };
    view! {
        <h2>{move || tr(locale.get(), "keeper.page.switches")}</h2>
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.switch.uploads")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.switch.uploads_what")}</p>
            <div class="row">
                <label class="switch">
                    <input id="uploads-switch" type="checkbox" prop:checked=uploads_on
                        on:change=move |ev| table.admin(ClientFrame::MediaSetEnabled(MediaSetEnabled { enabled: event_target_checked(&ev) }))/>
                    <span>{move || tr(locale.get(), if uploads_on() { "keeper.switch.on" } else { "keeper.switch.off" })}</span>
                </label>
                <Outcome table=table control=Control::Uploads/>
            </div>
        </section>
        <Show when=move || feature("update")>
            <section class="card keeper-form">
                <h3>{move || tr(locale.get(), "keeper.switch.update")}</h3>
                <p class="hint">{move || tr(locale.get(), "keeper.switch.update_what")}</p>
                <div class="row">
                    {move || if confirm_update.get() {
                        view! {
                            <span class="confirm">{tr(locale.get(), "keeper.switch.update_confirm")}" "
                                <button id="update-yes" class="danger small" on:click=move |_| {
                                    confirm_update.set(false);
                                    table.admin(ClientFrame::AdminUpdateServer);
                                }>{tr(locale.get(), "keeper.switch.update_button")}</button>
                                <button class="link small" on:click=move |_| confirm_update.set(false)>{tr(locale.get(), "keeper.cancel")}</button>
                            </span>
                        }.into_any()
                    } else {
                        view! {
                            <button id="update" class="secondary" disabled=move || table.keeper.with(|k| k.is_pending(&Control::Update))
                                on:click=move |_| confirm_update.set(true)>{tr(locale.get(), "keeper.switch.update_button")}</button>
                        }.into_any()
                    }}
                    <Outcome table=table control=Control::Update/>
                </div>
                {move || update_output().map(|out| view! { <pre class="update-output" id="update-output">{out}</pre> })}
                {move || table.keeper.with(|k| k.expect_reconnect).then(|| view! {
                    <p class="notice" id="update-restarting">{tr(locale.get(), "keeper.switch.restarting")}</p>
                })}
            </section>
        </Show>
        <Show when=demo_offer>
            <section class="card keeper-form">
                <h3>{move || tr(locale.get(), "keeper.switch.sample")}</h3>
                <p class="hint">{move || tr(locale.get(), "keeper.switch.sample_what")}</p>
                <button id="sample-adventure" class="primary" on:click=move |_| {
                    let room_locale = table.model.with_untracked(|m| m.welcome.as_ref().map(|w| w.locale.clone()).unwrap_or_default());
                    table.say(sample_adventure_line(&room_locale).to_string());
                    keeper_page.set(None);
                }>{move || tr(locale.get(), "keeper.switch.sample_button")}</button>
            </section>
        </Show>
    }
}
