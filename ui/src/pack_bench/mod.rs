//! The pack author's bench pane: which folder, which viewer, the last reload's outcome, and the
//! panels this viewer does not receive (with why). The panels themselves render in the play
//! view below, exactly as a room would show them.

mod beside;
mod engine;
mod forge;
mod forge_fields;
mod forge_form;
mod forge_hooks;
mod forge_initvar;
mod forge_merge;
mod on_engine;
pub mod text;
mod tools;
mod vars;

use leptos::prelude::*;
use tools::IntentLog;

use crate::i18n::{tr, Locale};
use crate::store::{Screen, Table};

pub use ipc::Problem;

/// The bench's own state, provided by the play view for each table it shows: the log of
/// every intent a panel sent, and whether intents reach the table. Its [`IntentTap`] is how
/// the panels report to it without knowing the bench.
///
/// [`IntentTap`]: crate::panels::IntentTap
#[derive(Clone, Copy)]
pub struct PackBenchCtx {
    pub log: RwSignal<IntentLog>,
}

impl PackBenchCtx {
    /// Provides the context and the panels' intent tap; call before the panels' context is
    /// built. Off the bench the tap lets every intent through, unlogged.
    pub fn provide(table: Table) {
        let ctx = PackBenchCtx {
            log: RwSignal::new(IntentLog::default()),
        };
        let tap = Callback::new(move |i: crate::panels::TappedIntent| {
            if table.bench.with_untracked(Option::is_none) {
                return true;
            }
            let execute = ctx.log.with_untracked(|l| l.execute);
            ctx.log
                .update(|l| l.push(&i.panel, &i.kind, &i.value, i.at_ms, execute));
            execute
        });
        provide_context(ctx);
        provide_context(crate::panels::IntentTap(tap));
    }
}

/// Whether the bench shows the other audience side by side; kept by the app across the bench
/// pane's rebuilds.
#[derive(Clone, Copy)]
pub struct BesideOn(pub RwSignal<bool>);

/// Rejoins the bench's table as `viewer` on a fresh table model.
fn switch_viewer(viewer: &'static str) {
    let screen = use_context::<RwSignal<Screen>>().expect("screen");
    let owner = use_context::<crate::store::AppOwner>().expect("app owner");
    let table = owner.0.with(Table::new);
    let channel = table.channel();
    let view = ipc::cmd::PackBenchView {
        viewer: viewer.into(),
    };
    leptos::task::spawn_local(async move {
        match crate::bridge::call_streaming(&view, &channel).await {
            Ok(joined) => {
                table.bench_report(joined.pack_bench);
                screen.set(Screen::Play(table));
            }
            Err(e) => table.bench.update(|b| {
                if let Some(b) = b {
                    b.problems = vec![Problem {
                        file: String::new(),
                        line: 0,
                        column: 0,
                        message: e,
                        hint: String::new(),
                    }];
                }
            }),
        }
    });
}

#[component]
pub fn BenchPane(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let status = Memo::new(move |_| table.bench.get());
    // Panels of the pack this viewer's manifest does not carry, with the audience that
    // keeps them out.
    let missing = move || {
        let Some(s) = status.get() else {
            return Vec::new();
        };
        let have: Vec<String> = table
            .model
            .with(|m| m.panels.iter().map(|p| p.id.clone()).collect());
        s.panels
            .into_iter()
            .filter(|p| !have.contains(&p.id))
            .collect::<Vec<_>>()
    };
    let owner = use_context::<crate::store::AppOwner>().expect("app owner");
    let screen = use_context::<RwSignal<Screen>>().expect("screen");
    // Side by side survives a viewer or table switch (the pane is built anew for each).
    let side = use_context::<BesideOn>()
        .map(|b| b.0)
        .unwrap_or_else(|| RwSignal::new(false));
    // The folder alone: a reload must not reset the engine's verdict shown for it.
    let bench_dir = Memo::new(move |_| table.bench.with(|b| b.as_ref().map(|b| b.dir.clone())));
    let view_as = move |viewer: &'static str| {
        let owner = owner.clone();
        move |_| {
            // Run with the app's context so the new table outlives this view.
            owner.0.with(|| {
                provide_context(screen);
                switch_viewer(viewer)
            })
        }
    };
    view! {
        {move || status.get().map(|s| {
            let keeper = s.viewer != "player";
            view! {
                <section class="bench-pane" id="bench" aria-label=tr(locale.get(), "bench.title") data-viewer=s.viewer.clone() class:bench-stale=!s.problems.is_empty()>
                    <div class="bench-head">
                        <h2 class="bench-title">{tr(locale.get(), "bench.title")}</h2>
                        <code class="bench-dir" title=s.dir.clone()>{s.dir.clone()}</code>
                        <span class="bench-viewer" role="group">
                            <button id="bench-as-keeper" class:current=keeper on:click=view_as("keeper")>{tr(locale.get(), "bench.as_keeper")}</button>
                            <button id="bench-as-player" class:current=!keeper on:click=view_as("player")>{tr(locale.get(), "bench.as_player")}</button>
                        </span>
                        <Preview/>
                        <button id="bench-side-by-side" type="button" class="secondary small"
                            class:current=move || side.get() aria-pressed=move || side.get().to_string()
                            on:click=move |_| side.update(|v| *v = !*v)>{tr(locale.get(), "bench.beside")}</button>
                        <span class="bench-reloads" id="bench-reloads" data-reloads=s.reloads.to_string()>
                            {if s.reloads == 0 { tr(locale.get(), "bench.watching").to_string() } else { format!("{} {}", tr(locale.get(), "bench.reloaded"), s.reloads) }}
                        </span>
                    </div>
                    {(!s.problems.is_empty()).then(|| view! {
                        <div class="bench-errors" id="bench-errors" role="alert">
                            <strong>{tr(locale.get(), "bench.stale")}</strong>
                            <ul>
                                {s.problems.iter().map(|p| finding(p, false)).collect_view()}
                            </ul>
                        </div>
                    })}
                    {(s.problems.is_empty() && !s.warnings.is_empty()).then(|| view! {
                        <div class="bench-warnings" id="bench-warnings" role="status">
                            <strong>{tr(locale.get(), "bench.warnings")}</strong>
                            <ul>
                                {s.warnings.iter().map(|p| finding(p, true)).collect_view()}
                            </ul>
                        </div>
                    })}
                    {move || side.get().then(|| status.get().and_then(|s| s.beside).map(|b| view! { <beside::Beside beside=*b/> }))}
                    {move || {
                        let list = missing();
                        (!list.is_empty()).then(|| view! {
                            <ul class="bench-missing" id="bench-missing">
                                {list.into_iter().map(|p| view! {
                                    <li data-missing=p.id.clone()>
                                        <code>{p.id.clone()}</code>" — "{tr(locale.get(), "bench.not_in_manifest")}" "
                                        {tr(locale.get(), match p.audience.as_str() { "keeper" => "bench.audience_keeper", "players" => "bench.audience_players", _ => "bench.audience_other" })}
                                    </li>
                                }).collect_view()}
                            </ul>
                        })
                    }}
                </section>
            }
        })}
        // Outside the report's closure: a reload must not reset the author's event form.
        <Show when=move || table.bench.with(Option::is_some)>
            <section class="bench-pane bench-tools-row" aria-label=move || tr(locale.get(), "bench.tools_row")>
                <on_engine::OnEngine table=table/>
                <vars::VarsEditor table=table/>
                <forge::Forge table=table/>
                <tools::AuthorTools table=table/>
                {move || bench_dir.get().map(|dir| view! {
                    <engine::EngineVerdict dir=dir/>
                })}
            </section>
        </Show>
    }
}

/// Theme and language for the panels, without leaving the bench (the app's own settings:
/// tier-2 pages get the new `--lw-*` values live and re-mount in the new language).
#[component]
fn Preview() -> impl IntoView {
    use crate::prefs::{Prefs, Theme};
    let prefs = use_context::<Prefs>().expect("prefs");
    let (locale, theme) = (prefs.locale, prefs.theme);
    view! {
        <span class="bench-preview" role="group">
            <button id="bench-light" class:current=move || theme.get() == Theme::Light on:click=move |_| theme.set(Theme::Light)>{move || tr(locale.get(), "bench.light")}</button>
            <button id="bench-dark" class:current=move || theme.get() == Theme::Dark on:click=move |_| theme.set(Theme::Dark)>{move || tr(locale.get(), "bench.dark")}</button>
            <button id="bench-en" class:current=move || locale.get() == Locale::En on:click=move |_| locale.set(Locale::En)>"EN"</button>
            <button id="bench-zh" class:current=move || locale.get() == Locale::Zh on:click=move |_| locale.set(Locale::Zh)>"中文"</button>
        </span>
    }
}

/// One of the lint's findings: where, what, and the fix (a warning drawn quieter).
fn finding(p: &Problem, warning: bool) -> impl IntoView {
    view! {
        <li class="bench-problem" class:bench-warning=warning data-place=p.place()>
            <code class="bench-place">{p.place()}</code>" "
            <span class="bench-message">{p.message.clone()}</span>
            {(!p.hint.is_empty()).then(|| view! { <div class="bench-hint">{p.hint.clone()}</div> })}
        </li>
    }
}
