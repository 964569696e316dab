//! The connect screen: ticket, invite key, optional name.

pub mod text;

use ipc::cmd;
use leptos::prelude::*;

use crate::bridge;
use crate::i18n::{sentence, t, tr, Locale};
use crate::store::{Screen, Table};

/// The ways into a table from this screen; each answers [`ipc::Joined`].
pub enum Join {
    Table(cmd::JoinTable),
    Demo,
    Saved(String),
    /// Back into the table in play after the window was reloaded.
    Rejoin,
    /// The pack bench on a folder.
    Pack(String),
    /// A table Studio hosts with the real engine.
    Host(cmd::HostTable),
}

/// Asks the backend to join, with `channel` for the table's frames.
async fn join(how: Join, channel: &str) -> Result<ipc::Joined, String> {
    match how {
        Join::Table(c) => bridge::call_streaming(&c, channel).await,
        Join::Demo => bridge::call_streaming(&cmd::PlayDemo {}, channel).await,
        Join::Saved(id) => bridge::call_streaming(&cmd::JoinSavedTable { id }, channel).await,
        Join::Rejoin => bridge::call_streaming(&cmd::RejoinTable {}, channel).await,
        Join::Host(c) => bridge::call_streaming(&c, channel).await,
        Join::Pack(dir) => {
            let open = cmd::OpenPack { dir, viewer: None };
            bridge::call_streaming(&open, channel).await
        }
    }
}

#[component]
pub fn ConnectScreen() -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let ticket = RwSignal::new(String::new());
    let key = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    // Saving a key is the person's choice, made before the join.
    let remember = RwSignal::new(true);
    let notice = use_context::<crate::store::ConnectNotice>().expect("connect notice");
    let problem = RwSignal::new(notice.0.get_untracked());
    notice.0.set(None);
    let busy = RwSignal::new(false);
    // The host panel in place of the join form.
    let hosting = RwSignal::new(false);
    let screen = use_context::<RwSignal<Screen>>().expect("screen context");
    let app_owner = StoredValue::new(use_context::<crate::store::AppOwner>().expect("app owner"));
    // The table is created before the join so no frame that races the answer is lost.
    let start = move |how: Join| {
        busy.set(true);
        problem.set(None);
        let table = app_owner.with_value(|o| o.0.with(Table::new));
        let channel = table.channel();
        leptos::task::spawn_local(async move {
            match join(how, &channel).await {
                Ok(joined) => {
                    table.demo.set(joined.demo);
                    table.bench_report(joined.pack_bench);
                    // This screen (and its signals) goes away now.
                    screen.set(Screen::Play(table));
                }
                Err(e) => {
                    let _ = problem.try_set(Some(sentence(&e)));
                    let _ = busy.try_set(false);
                }
            }
        });
    };
    // Back from a window a panel page froze: straight back into the room, its code off.
    let stall = use_context::<crate::store::StallNotice>()
        .expect("stall notice")
        .0;
    leptos::task::spawn_local(async move {
        if let Ok(Some(r)) = bridge::call(&cmd::StallRecovery {}).await {
            stall.set(Some(r.panels));
            start(Join::Rejoin);
        }
    });
    // A ticket on the command line (or from a `loreweaver:` link) fills the field.
    leptos::task::spawn_local(async move {
        if let Ok(Some(t)) = bridge::call(&cmd::StartupTicket {}).await {
            let _ = ticket.try_set(t);
        }
    });
    // `--pack <dir>` on the command line opens the bench at once.
    leptos::task::spawn_local(async move {
        if let Ok(Some(dir)) = bridge::call(&cmd::StartupPack {}).await {
            start(Join::Pack(dir));
        }
    });
    let open_pack = move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(Some(dir)) = bridge::call(&cmd::PickPackFolder {}).await {
                start(Join::Pack(dir));
            }
        });
    };
    // The end of the bench's cold-start figure: this screen, drawn and ready for a ticket.
    crate::perf::mark_after_paint("connect_ready");
    let info = LocalResource::new(|| bridge::call(&cmd::StudioInfo {}));
    let saved = LocalResource::new(|| bridge::call(&cmd::ListSavedTables {}));
    let storage = LocalResource::new(|| bridge::call(&cmd::KeyStorageInfo {}));
    let forget = move |id: String| {
        leptos::task::spawn_local(async move {
            let _ = bridge::call(&cmd::ForgetSavedTable { id }).await;
            saved.refetch();
        });
    };

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let l = locale.get_untracked();
        if ticket.get_untracked().trim().is_empty() {
            problem.set(Some(tr(l, "connect.need_ticket").to_string()));
        } else if key.get_untracked().trim().is_empty() {
            problem.set(Some(tr(l, "connect.need_key").to_string()));
        } else {
            let name = name.get_untracked();
            start(Join::Table(cmd::JoinTable {
                ticket: ticket.get_untracked(),
                key: key.get_untracked(),
                name: (!name.trim().is_empty()).then_some(name),
                remember: Some(remember.get_untracked()),
            }));
        }
    };

    view! {
        <main class="connect">
            <header class="connect-brand">
                <img class="connect-logo" src="icon.png" alt=""/>
                <h1>"Loreweaver Studio"</h1>
                <p class="tagline">{t("app.tagline")}</p>
            </header>
            {move || saved.get().and_then(Result::ok).filter(|l| !l.is_empty()).map(|tables| view! {
                <section class="saved-tables" aria-label=t("connect.saved")>
                    <h2>{t("connect.saved")}</h2>
                    <ul>
                        {tables.into_iter().enumerate().map(|(i, table)| {
                            let id = table.id.clone();
                            let id_forget = table.id.clone();
                            let id_code = table.id.clone();
                            let code = match table.panel_code {
                                Some(ipc::PanelCode::Run) => "run",
                                Some(ipc::PanelCode::Blocks) => "blocks",
                                None => "",
                            };
                            view! {
                                <li class="saved-table" class:last=i == 0>
                                    <button class="saved-join" type="button" disabled=move || busy.get()
                                        autofocus=i == 0
                                        on:click=move |_| start(Join::Saved(id.clone()))>
                                        <span class="saved-name">{table.name.clone()}</span>
                                        <span class="saved-meta">{table.room.clone()}" · "{table.role.clone()}</span>
                                        <span class="saved-ticket">{table.ticket.chars().take(24).collect::<String>()}"…"</span>
                                        {table.refused.clone().map(|why| view! {
                                            <span class="saved-refused">{t("connect.key_refused")}" "{why}</span>
                                        })}
                                    </button>
                                    <button class="saved-forget link" type="button" title=t("connect.forget")
                                        aria-label=t("connect.forget")
                                        on:click=move |_| forget(id_forget.clone())>"×"</button>
                                    <label class="saved-code small">
                                        {t("connect.panel_code")}
                                        <select class="saved-panel-code" on:change=move |ev| {
                                            let v = event_target_value(&ev);
                                            let code = match v.as_str() {
                                                "run" => Some(ipc::PanelCode::Run),
                                                "blocks" => Some(ipc::PanelCode::Blocks),
                                                _ => None,
                                            };
                                            let set = cmd::SetSavedPanelCode { id: id_code.clone(), code };
                                            leptos::task::spawn_local(async move {
                                                let _ = bridge::call(&set).await;
                                            });
                                        }>
                                            <option value="" selected=code.is_empty()>{t("connect.code_ask")}</option>
                                            <option value="run" selected=code == "run">{t("connect.code_run")}</option>
                                            <option value="blocks" selected=code == "blocks">{t("connect.code_blocks")}</option>
                                        </select>
                                    </label>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            })}
            // The very first run: what the two fields are, and the demo as the first step.
            {move || saved.get().and_then(Result::ok).filter(|l| l.is_empty()).map(|_| view! {
                <section id="first-run" class="first-run">
                    <p>{t("connect.first.what")}</p>
                    <p>{t("connect.first.demo")}</p>
                    <button id="first-demo" type="button" class="primary" disabled=move || busy.get()
                        on:click=move |_| start(Join::Demo)>
                        {t("connect.demo")}
                    </button>
                </section>
            })}
            {move || hosting.get().then(|| view! {
                <crate::hosting::HostPanel host=move |c| start(Join::Host(c)) problem=problem busy=busy
                    on_back=move || { problem.set(None); hosting.set(false); }/>
            })}
            <form class="connect-card" on:submit=submit class:hidden=move || hosting.get()>
                <h2>{t("connect.title")}</h2>
                <label for="ticket">{t("connect.ticket")}</label>
                <textarea id="ticket" name="ticket" rows="3" spellcheck="false"
                    placeholder=t("connect.ticket.hint")
                    prop:value=ticket on:input=move |ev| {
                        // A pasted invite block fills both fields at once.
                        let text = event_target_value(&ev);
                        match protocol::keeper::invite::Invite::parse_block(&text) {
                            Some((t, k)) => {
                                ticket.set(t);
                                key.set(k);
                            }
                            None => ticket.set(text),
                        }
                    }></textarea>
                <label for="key">{t("connect.key")}</label>
                <input id="key" name="key" type="password" autocomplete="off"
                    placeholder=t("connect.key.hint")
                    prop:value=key on:input=move |ev| key.set(event_target_value(&ev))/>
                <label for="name">{t("connect.name")}</label>
                <input id="name" name="name" type="text" maxlength="40"
                    placeholder=t("connect.name.hint")
                    prop:value=name on:input=move |ev| name.set(event_target_value(&ev))/>
                <label class="remember">
                    <input id="remember" type="checkbox" prop:checked=remember
                        on:change=move |ev| remember.set(event_target_checked(&ev))/>
                    {t("connect.remember")}
                </label>
                // Without a keyring the key goes to a private file: say so, and where, first.
                {move || storage.get().and_then(Result::ok).filter(|s| !s.keyring).map(|s| view! {
                    <p id="remember-where" class="hint" class:muted=move || !remember.get()>
                        {t("connect.remember.file")}" "<code>{s.file.clone()}</code>
                    </p>
                })}
                <p class="problem" role="alert">{move || problem.get()}</p>
                <button id="join" type="submit" class="primary" disabled=move || busy.get()>
                    {move || if busy.get() { tr(locale.get(), "connect.joining") } else { tr(locale.get(), "connect.join") }}
                </button>
                <div class="connect-or"><span>{t("connect.or")}</span></div>
                <button id="demo" type="button" class="secondary" disabled=move || busy.get()
                    on:click=move |_| start(Join::Demo)>
                    {t("connect.demo")}
                </button>
                <button id="host" type="button" class="secondary" disabled=move || busy.get()
                    on:click=move |_| { problem.set(None); hosting.set(true); }>
                    {t("host.open")}
                </button>
                <button id="open-pack" type="button" class="link" disabled=move || busy.get()
                    on:click=open_pack>
                    {t("bench.open")}
                </button>
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
                <crate::prefs::PrefSwitches/>
                <crate::prefs::LogFolder/>
            </footer>
        </main>
    }
}
