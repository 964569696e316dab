//! Hosting a table: the host panel on the connect screen (the engine in use, or the engine
//! page when there is none; the table's name and network mode) and the hosting strip shown
//! over every screen while Studio hosts (state, version, uptime, ticket, Log drawer, Stop,
//! Restart). The engine's lines are untrusted text: they are only ever text nodes.

mod tables;
pub mod text;

use std::collections::VecDeque;

use ipc::{cmd, HostingEvent, HostingView};
use leptos::prelude::*;

use crate::bridge;
use crate::i18n::{sentence, t, tr, Locale};
use crate::store::Screen;

/// How many engine lines the drawer keeps (the backend's ring keeps as many).
const KEPT: usize = 2000;
/// How many of them the open drawer draws.
const SHOWN: usize = 500;
/// After this long a running `--version` probe is said to be slow (the sentence within 5 s).
const SLOW_PROBE_MS: u64 = 4000;

/// The hosted engine as the window knows it, fed by `watch_hosting`.
#[derive(Clone, Copy)]
pub struct HostingCtx {
    pub view: RwSignal<HostingView>,
    pub lines: RwSignal<VecDeque<String>>,
}

impl HostingCtx {
    /// Provides the context and opens the backend's hosting channel (once per page).
    pub fn provide() {
        let ctx = HostingCtx {
            view: RwSignal::new(HostingView {
                state: "idle".into(),
                ..Default::default()
            }),
            lines: RwSignal::new(VecDeque::new()),
        };
        provide_context(ctx);
        let channel = bridge::channel(move |text| {
            let Ok(event) = serde_json::from_str::<HostingEvent>(&text) else {
                return;
            };
            match event {
                HostingEvent::State(v) => ctx.view.set(v),
                HostingEvent::Lines(new) => ctx.lines.update(|l| {
                    l.extend(new);
                    while l.len() > KEPT {
                        l.pop_front();
                    }
                }),
            }
        });
        leptos::task::spawn_local(async move {
            let _ = bridge::call_streaming(&cmd::WatchHosting {}, &channel).await;
        });
    }
}

/// The host panel: which engine, or how to get one; then the table's name and mode.
/// `host` starts hosting (the connect screen's join, so the play view opens on success);
/// `problem` is that join's sentence, `busy` its progress.
#[component]
pub fn HostPanel(
    host: impl Fn(cmd::HostTable) + Copy + Send + Sync + 'static,
    problem: RwSignal<Option<String>>,
    busy: RwSignal<bool>,
    on_back: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let info = LocalResource::new(|| bridge::call(&cmd::GetHostingInfo {}));
    // The engine chosen here (or found); `None` shows the engine page.
    let engine = RwSignal::new(None::<ipc::EngineView>);
    let choosing = RwSignal::new(false);
    let path = RwSignal::new(String::new());
    let engine_problem = RwSignal::new(None::<String>);
    let probing = RwSignal::new(false);
    // A probe still running after SLOW_PROBE_MS: said in a sentence (a hang is not silent).
    let probing_slow = RwSignal::new(false);
    let probe_count = RwSignal::new(0u32);
    let name = RwSignal::new(String::new());
    let local_only = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(Ok(i)) = info.get() {
            engine.set(i.engine.clone());
            engine_problem.set(i.problem.clone());
            name.set(i.last_name.clone().unwrap_or_else(|| "My table".into()));
        }
    });
    let use_engine = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        probing.set(true);
        probing_slow.set(false);
        engine_problem.set(None);
        let p = path.get_untracked();
        probe_count.update(|n| *n += 1);
        let this_probe = probe_count.get_untracked();
        set_timeout(
            move || {
                // Only this probe's timer: a later Use has its own. The panel may be gone by
                // now (the table was hosted): then there is nothing to say.
                if probing.try_get_untracked() == Some(true)
                    && probe_count.try_get_untracked() == Some(this_probe)
                {
                    let _ = probing_slow.try_set(true);
                }
            },
            std::time::Duration::from_millis(SLOW_PROBE_MS),
        );
        leptos::task::spawn_local(async move {
            match bridge::call(&cmd::ChooseEngine { path: p }).await {
                Ok(e) => {
                    let _ = engine.try_set(Some(e));
                    let _ = choosing.try_set(false);
                }
                Err(e) => {
                    let _ = engine_problem.try_set(Some(sentence(&e)));
                }
            }
            let _ = probing.try_set(false);
            let _ = probing_slow.try_set(false);
        });
    };
    let start = move |stop_stale: bool| {
        host(cmd::HostTable {
            name: name.get_untracked(),
            local_only: local_only.get_untracked(),
            stop_stale,
        })
    };
    let stale = move || problem.with(|p| p.as_deref().is_some_and(|p| p.contains("(pid ")));
    // A kept table hosted again: its own name, and the mode it was hosted in.
    let host_again = move |table: String, local: bool| {
        name.set(table.clone());
        local_only.set(local);
        host(cmd::HostTable {
            name: table,
            local_only: local,
            stop_stale: false,
        })
    };
    let pick = move |folder: bool| {
        leptos::task::spawn_local(async move {
            if let Ok(Some(p)) = bridge::call(&cmd::PickEngine { folder }).await {
                let _ = path.try_set(p);
            }
        });
    };
    view! {
        <section id="host-panel" class="connect-card host-panel">
            <h2>{t("host.title")}</h2>
            <p class="hint">{t("host.what")}</p>
            {move || {
                let found = engine.get().filter(|_| !choosing.get());
                // Until the engine in use has answered its probe: neither the form nor the page.
                if info.get().is_none() {
                    return view! { <p id="engine-looking" class="hint">{t("host.looking")}</p> }.into_any();
                }
                match found {
                    Some(e) => view! {
                        <p id="engine-found" class="engine-found">
                            {t("host.engine")}" "<code>{e.path.clone()}</code>" · "
                            {t("host.engine.version")}" "<span id="engine-version">{e.version.clone()}</span>" "
                            {if e.found == "path" { t("host.found.path")() } else { t("host.found.chosen")() }}
                            " "
                            <button id="engine-change" type="button" class="link"
                                on:click=move |_| choosing.set(true)>{t("host.change")}</button>
                        </p>
                        <form class="host-form" on:submit=move |ev: leptos::ev::SubmitEvent| {
                            ev.prevent_default();
                            start(false);
                        }>
                            <label for="host-name">{t("host.name")}</label>
                            <input id="host-name" type="text" maxlength="40" prop:value=name
                                on:input=move |ev| name.set(event_target_value(&ev))/>
                            <label class="remember">
                                <input id="host-local" type="checkbox" prop:checked=local_only
                                    on:change=move |ev| local_only.set(event_target_checked(&ev))/>
                                {t("host.local")}
                            </label>
                            <p class="problem" role="alert">{move || problem.get()}</p>
                            {move || stale().then(|| view! {
                                <button id="host-stale" type="button" class="secondary"
                                    disabled=move || busy.get() on:click=move |_| start(true)>
                                    {t("host.stale")}
                                </button>
                            })}
                            <button id="host-start" type="submit" class="primary" disabled=move || busy.get()>
                                {move || if busy.get() { tr(locale.get(), "host.starting") } else { tr(locale.get(), "host.start") }}
                            </button>
                        </form>
                        <tables::HostedTables host_again=host_again busy=busy/>
                    }.into_any(),
                    None => view! {
                        <div id="engine-page" class="engine-page">
                            {move || info.get().is_some_and(|i| i.as_ref().is_ok_and(|i| i.engine.is_none())).then(|| view! {
                                <p class="hint">{t("host.none")}</p>
                            })}
                            <p class="hint">{t("host.install")}</p>
                            <form class="engine-form" on:submit=use_engine>
                                <label for="engine-path">{t("host.path")}</label>
                                <input id="engine-path" type="text" spellcheck="false"
                                    placeholder=t("host.path.hint") prop:value=path
                                    on:input=move |ev| path.set(event_target_value(&ev))/>
                                <div class="row">
                                    <button id="engine-pick-folder" type="button" class="secondary small"
                                        on:click=move |_| pick(true)>{t("host.pick.folder")}</button>
                                    <button id="engine-pick-file" type="button" class="secondary small"
                                        on:click=move |_| pick(false)>{t("host.pick.file")}</button>
                                </div>
                                <p id="engine-problem" class="problem" role="alert">
                                    {move || match (probing.get(), probing_slow.get()) {
                                        (true, true) => Some(tr(locale.get(), "host.probing.slow").to_string()),
                                        (true, false) => Some(tr(locale.get(), "host.probing").to_string()),
                                        _ => engine_problem.get(),
                                    }}
                                </p>
                                <button id="engine-use" type="submit" class="primary" disabled=move || probing.get()>
                                    {t("host.use")}
                                </button>
                            </form>
                        </div>
                    }.into_any(),
                }
            }}
            <button id="host-back" type="button" class="link" on:click=move |_| on_back()>{t("host.cancel")}</button>
        </section>
    }
}

fn uptime(ms: f64) -> String {
    let s = (ms / 1000.0).max(0.0) as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The hosting strip: shown over every screen while Studio hosts an engine.
#[component]
pub fn HostingStrip() -> impl IntoView {
    let ctx = use_context::<HostingCtx>().expect("hosting context");
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let screen = use_context::<RwSignal<Screen>>().expect("screen context");
    let log_open = RwSignal::new(false);
    let copied = RwSignal::new(false);
    let now = RwSignal::new(crate::store::now_ms());
    let state = move || ctx.view.with(|v| v.state.clone());
    // The uptime's clock, only while an uptime is shown.
    crate::clock::tick_while(
        move || matches!(state().as_str(), "serving" | "starting"),
        std::time::Duration::from_secs(1),
        move || now.set(crate::store::now_ms()),
    );
    let state_word = move || {
        let l = locale.get();
        match state().as_str() {
            "starting" => tr(l, "host.state.starting"),
            "serving" => tr(l, "host.state.serving"),
            "stopping" => tr(l, "host.state.stopping"),
            "crashed" => tr(l, "host.state.crashed"),
            _ => tr(l, "host.state.idle"),
        }
    };
    let stop = move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(true) = bridge::call(&cmd::StopHosting {}).await {
                screen.set(Screen::Connect);
            }
        });
    };
    let restart = move |_| {
        leptos::task::spawn_local(async move {
            let _ = bridge::call(&cmd::RestartHosting {}).await;
        });
    };
    let invite = use_context::<crate::store::InviteAsked>().expect("invite context");
    let seated = move || matches!(screen.get(), Screen::Play(_));
    let copy = move |_| {
        if let Some(text) = ctx.view.with_untracked(|v| v.ticket.clone()) {
            leptos::task::spawn_local(async move {
                if bridge::call(&cmd::CopyText {
                    text,
                    secret: false,
                })
                .await
                .is_ok()
                {
                    let _ = copied.try_set(true);
                }
            });
        }
    };
    view! {
        {move || (state() != "idle").then(|| view! {
            <section id="hosting-strip" class=move || format!("hosting-strip hosting-{}", state())
                aria-label=t("host.open")>
                <div class="hosting-row">
                    <span id="hosting-state" class="hosting-state">{state_word}</span>
                    <span id="hosting-name" class="hosting-name">{move || ctx.view.with(|v| v.name.clone())}</span>
                    <span id="hosting-version" class="hosting-meta">
                        {move || ctx.view.with(|v| v.version.clone()).map(|v| format!("{} {v}", tr(locale.get(), "host.engine.version")))}
                    </span>
                    <span id="hosting-uptime" class="hosting-meta">
                        {move || ctx.view.with(|v| v.started_ms).filter(|_| state() == "serving" || state() == "starting")
                            .map(|s| format!("{} {}", tr(locale.get(), "host.uptime"), uptime(now.get() - s as f64)))}
                    </span>
                    {move || ctx.view.with(|v| v.ticket.clone()).filter(|_| state() == "serving").map(|ticket| view! {
                        <code id="hosting-ticket" class="hosting-ticket" title=ticket.clone()>{ticket.clone()}</code>
                        <button id="hosting-copy" type="button" class="secondary small" on:click=copy>
                            {move || if copied.get() { tr(locale.get(), "host.copied") } else { tr(locale.get(), "host.copy") }}
                        </button>
                        {move || seated().then(|| view! {
                            <button id="hosting-invite" type="button" class="secondary small"
                                on:click=move |_| invite.0.set(true)>{t("host.invite")}</button>
                        })}
                    })}
                    <button id="hosting-log-toggle" type="button" class="link" aria-expanded=move || log_open.get().to_string()
                        on:click=move |_| log_open.update(|o| *o = !*o)>{t("host.log")}</button>
                    {move || (state() == "crashed").then(|| view! {
                        <button id="hosting-restart" type="button" class="primary small" on:click=restart>{t("host.restart")}</button>
                    })}
                    <button id="hosting-stop" type="button" class="secondary small" on:click=stop>{t("host.stop")}</button>
                </div>
                {move || ctx.view.with(|v| v.demo_model).then(|| view! {
                    <p id="hosting-demo" class="hosting-demo">{t("host.demo")}</p>
                })}
                {move || (state() == "crashed").then(|| {
                    let v = ctx.view.get();
                    let how = match (v.exit_code, v.exit_signal) {
                        (Some(c), _) => format!("{} {c}", tr(locale.get(), "host.exit_code")),
                        (None, Some(s)) => format!("{} {s}", tr(locale.get(), "host.signal")),
                        _ => String::new(),
                    };
                    view! {
                        <div id="hosting-crash" class="hosting-crash" role="alert">
                            <p>{t("host.crashed")}" "<span id="hosting-exit">{how}</span></p>
                            <p class="small">{t("host.last_lines")}</p>
                            <pre id="hosting-last" class="hosting-lines">{v.last_lines.join("\n")}</pre>
                        </div>
                    }
                })}
                {move || log_open.get().then(|| view! {
                    <ol id="hosting-log" class="hosting-log hosting-lines">
                        // The last lines in view (the whole output is in the log file).
                        {move || ctx.lines.with(|l| l.iter().skip(l.len().saturating_sub(SHOWN))
                            .map(|line| view! { <li>{line.clone()}</li> }).collect_view())}
                    </ol>
                })}
            </section>
        })}
    }
}
