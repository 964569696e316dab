//! Run on the engine: the bench's pack on the real engine's dev room beside the offline table.
//! The author switches which table the window shows (the seat rejoins as the same viewer), sees
//! how long the engine took to follow the last save, its own refusal when a save does not
//! parse, the panels each audience receives there, and every difference with the offline
//! table (with the file it comes from; the ones Studio keeps on purpose say why).

use ipc::{PackBenchDifference, PackBenchEngine};
use leptos::prelude::*;

use crate::i18n::{sentence, tr, Locale};
use crate::store::{Screen, Table};

/// Rejoins the bench on the engine (`engine`) or the offline table, on a fresh table model.
fn switch_table(
    engine: bool,
    stop_engine: bool,
    busy: RwSignal<bool>,
    failure: RwSignal<Option<String>>,
) {
    let screen = use_context::<RwSignal<Screen>>().expect("screen");
    let owner = use_context::<crate::store::AppOwner>().expect("app owner");
    let table = owner.0.with(Table::new);
    let channel = table.channel();
    let call = ipc::cmd::PackBenchTable {
        engine,
        stop_engine,
    };
    busy.set(true);
    failure.set(None);
    leptos::task::spawn_local(async move {
        match crate::bridge::call_streaming(&call, &channel).await {
            Ok(joined) => {
                table.bench_report(joined.pack_bench);
                screen.set(Screen::Play(table));
            }
            Err(e) => {
                let _ = failure.try_set(Some(sentence(&e)));
            }
        }
        let _ = busy.try_set(false);
    });
}

#[component]
fn DifferenceRow(d: PackBenchDifference) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    view! {
        <li class="bench-difference" class:known=d.known.is_some() data-audience=d.audience.clone()
            data-subject=d.subject.clone() data-id=d.id.clone()>
            <code class="bench-place">{d.file.clone()}</code>" "
            <span class="small">{format!("{} · {} ", d.audience, d.subject)}</span>
            <code>{d.id.clone()}</code>": "
            <span class="bench-message">{d.what.clone()}</span>
            {d.known.clone().map(|why| view! {
                <div class="bench-hint">{tr(locale.get_untracked(), "bench.run.known")}" "{why}</div>
            })}
        </li>
    }
}

fn panels_line(list: &[String], none: &str) -> String {
    if list.is_empty() {
        none.to_string()
    } else {
        list.join(", ")
    }
}

#[component]
fn EngineReport(e: PackBenchEngine) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let l = locale.get_untracked();
    let findings = e.differences.iter().filter(|d| d.known.is_none()).count();
    let followed = match e.reload_ms {
        Some(ms) => format!("{} {ms} ms", tr(l, "bench.run.followed")),
        None => tr(l, "bench.run.waiting").to_string(),
    };
    view! {
        <div class="bench-engine-run" id="bench-engine-run" data-state=e.state.clone()
            data-showing=e.showing.to_string() data-findings=findings.to_string()>
            <p class="small">
                <strong>{tr(l, "bench.run.title")}</strong>" "<code>{e.engine.clone()}</code>
                {(e.state == "ended").then(|| view! { " · "<span class="failure">{tr(l, "bench.run.ended")}</span> })}
            </p>
            {e.message.clone().map(|m| view! { <p class="small" id="bench-engine-message">{m}</p> })}
            <p class="small" id="bench-engine-reload" data-ms=e.reload_ms.map(|m| m.to_string()).unwrap_or_default()
                data-reloads=e.reloads.to_string()>
                {format!("{} {:.1} s; {followed}", tr(l, "bench.run.polls"), e.poll_ms as f64 / 1000.0)}
            </p>
            {e.refusal.clone().map(|r| view! {
                <p class="warning" id="bench-engine-refusal" role="alert">{tr(l, "bench.run.refused")}" "{r}</p>
            })}
            <p class="small" id="bench-engine-keeper" data-panels=e.keeper_panels.join(" ")>
                {tr(l, "bench.run.keeper_sees")}" "{panels_line(&e.keeper_panels, tr(l, "bench.run.none"))}
            </p>
            <p class="small" id="bench-engine-player" data-panels=e.player_panels.join(" ")>
                {tr(l, "bench.run.player_sees")}" "{panels_line(&e.player_panels, tr(l, "bench.run.none"))}
            </p>
            {if e.differences.is_empty() {
                view! { <p class="small" id="bench-differences-none">{tr(l, "bench.run.agree")}</p> }.into_any()
            } else {
                view! {
                    <div id="bench-differences">
                        <strong>{format!("{} ({findings})", tr(l, "bench.run.differences"))}</strong>
                        <ul>{e.differences.iter().cloned().map(|d| view! { <DifferenceRow d=d/> }).collect_view()}</ul>
                    </div>
                }.into_any()
            }}
        </div>
    }
}

/// The bench's "On the engine" block: which table the window shows, and what the engine says.
#[component]
pub fn OnEngine(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let owner = use_context::<crate::store::AppOwner>().expect("app owner");
    let screen = use_context::<RwSignal<Screen>>().expect("screen");
    let busy = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let engine = Memo::new(move |_| {
        table
            .bench
            .with(|b| b.as_ref().and_then(|b| b.engine.as_deref().cloned()))
    });
    let showing = move || engine.with(|e| e.as_ref().is_some_and(|e| e.showing));
    let running = move || engine.with(|e| e.as_ref().is_some_and(|e| e.state == "running"));
    let go = move |engine: bool, stop: bool| {
        let owner = owner.clone();
        move |_| {
            // Run with the app's context so the new table outlives this view.
            owner.0.with(|| {
                provide_context(screen);
                switch_table(engine, stop, busy, failure)
            })
        }
    };
    view! {
        <div class="bench-on-engine" id="bench-on-engine">
            <span class="bench-viewer" role="group">
                <button id="bench-on-offline" type="button" class:current=move || !showing()
                    disabled=move || busy.get() on:click=go(false, false)>{move || tr(locale.get(), "bench.run.offline")}</button>
                <button id="bench-on-engine-run" type="button" class:current=showing
                    disabled=move || busy.get() on:click=go(true, false)>
                    {move || tr(locale.get(), if engine.with(Option::is_some) { "bench.run.show_engine" } else { "bench.run.engine" })}
                </button>
            </span>
            {move || running().then(|| view! {
                <button id="bench-engine-stop" type="button" class="secondary small" disabled=move || busy.get()
                    on:click=go(false, true)>{move || tr(locale.get(), "bench.run.stop")}</button>
            })}
            {move || busy.get().then(|| view! { <span class="hint" id="bench-engine-starting">{tr(locale.get(), "bench.run.starting")}</span> })}
            <p class="failure" id="bench-engine-failure" role="alert">{move || failure.get()}</p>
            {move || engine.get().map(|e| view! { <EngineReport e=e/> })}
        </div>
    }
}
