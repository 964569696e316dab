//! The engine's verdict beside ours: **Check with the engine** runs its packer on the pack
//! folder and lists what it says next to our lint, with a disagreement called out (a pack only
//! one of them accepts is always a finding); **Build pack…** writes the `.lwpack` through the
//! engine's packer and says its size, id, version and hash; **Install to the hosted table**
//! puts that build on the table Studio hosts now, enabled in its room.

use ipc::{cmd, PackBuilt, PackEngineCheck, PackInstalled, Problem};
use leptos::prelude::*;

use crate::bridge;
use crate::i18n::{sentence, tr, Locale};

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

#[component]
fn ProblemRow(p: Problem) -> impl IntoView {
    view! {
        <li class="bench-problem" data-place=p.place()>
            <code class="bench-place">{p.place()}</code>" "
            <span class="bench-message">{p.message.clone()}</span>
        </li>
    }
}

#[component]
pub fn EngineVerdict(dir: String) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let dir = StoredValue::new(dir);
    let busy = RwSignal::new(false);
    let check = RwSignal::new(None::<PackEngineCheck>);
    let built = RwSignal::new(None::<PackBuilt>);
    let problem = RwSignal::new(None::<String>);
    let installed = RwSignal::new(None::<PackInstalled>);
    let install = move |_| {
        let Some(b) = built.get_untracked() else {
            return;
        };
        busy.set(true);
        problem.set(None);
        installed.set(None);
        leptos::task::spawn_local(async move {
            match bridge::call(&cmd::InstallPackToHosted { path: b.path }).await {
                Ok(i) => {
                    let _ = installed.try_set(Some(i));
                }
                Err(e) => {
                    let _ = problem.try_set(Some(sentence(&e)));
                }
            }
            let _ = busy.try_set(false);
        });
    };
    let run_check = move |_| {
        busy.set(true);
        problem.set(None);
        leptos::task::spawn_local(async move {
            match bridge::call(&cmd::CheckPackOnEngine {
                dir: dir.get_value(),
            })
            .await
            {
                Ok(c) => {
                    let _ = check.try_set(Some(c));
                }
                Err(e) => {
                    let _ = problem.try_set(Some(sentence(&e)));
                }
            }
            let _ = busy.try_set(false);
        });
    };
    let build = move |_| {
        busy.set(true);
        problem.set(None);
        leptos::task::spawn_local(async move {
            match bridge::call(&cmd::BuildPackOnEngine {
                dir: dir.get_value(),
            })
            .await
            {
                Ok(Some(b)) => {
                    let _ = built.try_set(Some(b));
                }
                Ok(None) => {}
                Err(e) => {
                    let _ = problem.try_set(Some(sentence(&e)));
                }
            }
            let _ = busy.try_set(false);
        });
    };
    view! {
        <details class="bench-engine" id="bench-engine">
            <summary>{move || tr(locale.get(), "bench.engine")}</summary>
            <div class="row">
                <button id="bench-engine-check" type="button" class="secondary small" disabled=move || busy.get()
                    on:click=run_check>{move || tr(locale.get(), "bench.engine.check")}</button>
                <button id="bench-engine-build" type="button" class="secondary small" disabled=move || busy.get()
                    on:click=build>{move || tr(locale.get(), "bench.engine.build")}</button>
                {move || busy.get().then(|| view! { <span class="hint">{tr(locale.get(), "bench.engine.running")}</span> })}
            </div>
            <p class="failure" role="alert">{move || problem.get()}</p>
            {move || check.get().map(|c| {
                let l = locale.get();
                let verdict = if c.engine_accepts {
                    format!("{} {} {}", tr(l, "bench.engine.accepts"), c.id.clone().unwrap_or_default(), c.version.clone().unwrap_or_default())
                } else {
                    tr(l, "bench.engine.refuses").to_string()
                };
                let ours = if c.ours.is_empty() { tr(l, "bench.engine.ours_accepts") } else { tr(l, "bench.engine.ours_refuses") };
                view! {
                    <div class="bench-engine-verdict" id="bench-engine-verdict"
                        data-engine=c.engine_accepts.to_string() data-ours=c.ours.is_empty().to_string()
                        data-disagree=c.disagree().to_string()>
                        <p class="small">{tr(l, "bench.engine.by")}" "<code>{c.engine.clone()}</code>" · "{format!("{} ms", c.ms)}</p>
                        {c.disagree().then(|| view! {
                            <p class="warning" id="bench-engine-disagree" role="alert">{tr(l, "bench.engine.disagree")}</p>
                        })}
                        <div class="bench-engine-cols">
                            <div class="bench-engine-col" id="bench-engine-theirs">
                                <strong>{tr(l, "bench.engine.theirs")}</strong>" "<span class="verdict">{verdict}</span>
                                <ul>{c.engine_problem.clone().map(|p| view! { <ProblemRow p=p/> })}</ul>
                            </div>
                            <div class="bench-engine-col" id="bench-engine-ours">
                                <strong>{tr(l, "bench.engine.lint")}</strong>" "<span class="verdict">{ours}</span>
                                <ul>{c.ours.iter().cloned().map(|p| view! { <ProblemRow p=p/> }).collect_view()}</ul>
                            </div>
                        </div>
                    </div>
                }
            })}
            {move || built.get().map(|b| view! {
                <p class="bench-built" id="bench-built" data-path=b.path.clone()>
                    {tr(locale.get(), "bench.engine.built")}" "<code>{b.path.clone()}</code>" · "
                    {size(b.bytes)}" · "{b.id.clone()}" "{b.version.clone()}" · sha256 "
                    <code class="hash" title=b.sha256.clone()>{b.sha256.chars().take(12).collect::<String>()}"…"</code>
                    " · "{format!("{} ms", b.ms)}
                    " "<button id="bench-engine-install" type="button" class="secondary small" disabled=move || busy.get()
                        on:click=install>{tr(locale.get(), "bench.engine.install")}</button>
                </p>
            })}
            {move || installed.get().map(|i| view! {
                <p class="bench-installed" id="bench-installed" role="status">
                    {tr(locale.get(), "bench.engine.installed")}" "<strong>{i.table.clone()}</strong>": "
                    {i.answer.clone()}" · "{format!("{} ms", i.ms)}
                </p>
            })}
        </details>
    }
}
