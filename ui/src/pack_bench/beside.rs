//! Side by side: the audience the window does not show, beside it — the player's panels while
//! the author looks as keeper (or the keeper's while as player), on whichever table the window
//! shows, resolved against that audience's own variables. A preview: its buttons send nothing,
//! and a tier-2 page shows its fallback (the page itself runs once, in the main view).

use ipc::PackBenchBeside;
use leptos::prelude::*;
use protocol::frame::UiManifestPanel;

use crate::i18n::{tr, Locale};
use crate::panels::resolve;
use crate::templates::UiBlocksView;

#[component]
fn BesidePanel(panel: UiManifestPanel, variables: Vec<serde_json::Value>) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let blocks = panel.text_first_blocks().map(<[serde_json::Value]>::to_vec);
    let id = panel.id.clone();
    let title = panel.title.clone();
    let tier2 = panel.tier == 2;
    view! {
        <section class="card lw-panel bench-beside-panel" data-beside-panel=id data-tier=panel.tier>
            <strong class="panel-title">{move || title.pick(locale.get().code()).to_owned()}</strong>
            {move || match blocks.as_deref().map(|b| resolve(b, &variables, locale.get())) {
                Some(Ok(blocks)) => view! { <UiBlocksView blocks=blocks on_choice=Callback::new(|_: String| {})/> }.into_any(),
                Some(Err(_)) => view! { <p class="panel-notice">{tr(locale.get(), "panels.failed")}</p> }.into_any(),
                None => ().into_any(),
            }}
            {tier2.then(|| view! { <p class="hint small">{move || tr(locale.get(), "bench.beside.page")}</p> })}
        </section>
    }
}

#[component]
pub fn Beside(beside: PackBenchBeside) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let heading = if beside.viewer == "keeper" {
        "bench.beside.keeper"
    } else {
        "bench.beside.player"
    };
    let panels: Vec<UiManifestPanel> = beside
        .panels
        .iter()
        .filter_map(|p| serde_json::from_value(p.clone()).ok())
        .collect();
    let variables = beside.variables.clone();
    view! {
        <aside class="bench-beside" id="bench-beside" data-viewer=beside.viewer.clone()
            aria-label=move || tr(locale.get(), heading)>
            <strong>{move || tr(locale.get(), heading)}</strong>
            {if panels.is_empty() {
                view! { <p class="small">{move || tr(locale.get(), "bench.run.none")}</p> }.into_any()
            } else {
                view! {
                    <div class="bench-beside-panels">
                        {panels.into_iter().map(|p| view! { <BesidePanel panel=p variables=variables.clone()/> }).collect_view()}
                    </div>
                }.into_any()
            }}
        </aside>
    }
}
