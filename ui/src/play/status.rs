//! The status bar: connection, room, role, latency, server version.

use leptos::prelude::*;

use super::clip::clip;
use crate::i18n::{tr, Locale};
use crate::store::{Screen, Status, Table};

#[component]
pub fn StatusBar(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let screen = use_context::<RwSignal<Screen>>().expect("screen");
    let help = use_context::<super::keys::HelpOpen>()
        .expect("keyboard help")
        .0;
    let welcome = Memo::new(move |_| table.model.with(|m| m.welcome.clone()));
    // In a narrow (or zoomed) window the view settings fold behind one button (play.css), so
    // the bar keeps to two rows and the story keeps the height.
    let settings_open = RwSignal::new(false);
    let state_text = move || {
        let l = locale.get();
        match table.status.get() {
            Status::Connecting => (tr(l, "status.connecting").to_string(), "connecting"),
            Status::Online { latency_ms } => (
                match latency_ms {
                    Some(ms) => format!("{} · {ms} ms", tr(l, "status.online")),
                    None => tr(l, "status.online").to_string(),
                },
                "online",
            ),
            Status::Reconnecting { attempt, in_ms } => (
                format!(
                    "{} ({attempt}, {:.1} s)",
                    tr(l, "status.reconnecting"),
                    in_ms as f64 / 1000.0
                ),
                "reconnecting",
            ),
            Status::Refused { reason } => (reason, "refused"),
            Status::Closed { reason } => (reason, "closed"),
        }
    };
    let leave = move |_| {
        leptos::task::spawn_local(async move {
            let _ = crate::bridge::call(&ipc::cmd::LeaveTable {}).await;
            screen.set(Screen::Connect);
        });
    };
    view! {
        <header class="status-bar" role="banner">
            <h1 class="status-brand">"Loreweaver"</h1>
            <span class="status-conn" data-state=move || state_text().1>
                <span class="dot"></span>
                <span id="conn-state">{move || state_text().0}</span>
            </span>
            {move || welcome.get().map(|w| {
                let l = locale.get();
                let drift = w.protocol.trim() != protocol::PROTOCOL_VERSION;
                let role = w.you.role.as_str().to_string();
                let role_attr = role.clone();
                let version = w.version.clone().unwrap_or_default();
                let build = format!("{} {version} · {} {}", w.server, tr(l, "about.protocol"), w.protocol);
                let build_title = if drift { format!("{build}\n{}", tr(l, "status.drift")) } else { build.clone() };
                view! {
                    <span class="status-room" id="room">{tr(l, "status.room")}" "<strong title=w.room.clone()>{clip(&w.room, 24)}</strong></span>
                    <span class="status-role" data-role=role_attr title=w.you.name.clone()>{clip(&w.you.name, 20)}" · "{role}</span>
                    <span class="status-version" class:drift=drift title=build_title>
                        {clip(&w.server, 16)}" "{clip(&version, 16)}" · "{tr(l, "about.protocol")}" "{clip(&w.protocol, 8)}
                        {drift.then_some(" ⚠")}
                    </span>
                }
            })}
            <super::sound::SoundMenu table=table/>
            <span class="spacer"></span>
            {move || table.demo.get().then(|| view! { <span class="status-demo">{tr(locale.get(), "status.demo")}</span> })}
            <nav class="status-menus" aria-label=move || tr(locale.get(), "status.menus")>
                <super::story_tools::StoryTools table=table/>
                <crate::keeper::KeeperMenu table=table/>
                <crate::panels::PanelsMenu table=table/>
            </nav>
            <button class="link status-settings-toggle" id="status-settings-toggle" type="button"
                aria-controls="status-settings" aria-expanded=move || settings_open.get().to_string()
                on:click=move |_| settings_open.update(|o| *o = !*o)>
                {move || tr(locale.get(), "status.settings")}" ▾"
            </button>
            <span class="status-settings" id="status-settings" class:open=move || settings_open.get()>
                <crate::prefs::PrefSwitches/>
                <button class="link" id="keys-open" aria-keyshortcuts="F1"
                    on:click=move |_| help.set(true)>
                    {move || tr(locale.get(), "keys.button")}
                </button>
            </span>
            <button class="link" id="leave" on:click=leave>{move || tr(locale.get(), "status.leave")}</button>
        </header>
    }
}
