//! The confirmation a drop on the window waits for: the files by name, size and kind, what was
//! refused and why, and Share / Cancel. Drawn by the host; only the person's click shares.

use leptos::prelude::*;

use ipc::{cmd, DropOffer};

use crate::bridge;
use crate::i18n::{tr, Locale};
use crate::store::Table;

fn answer(table: Table, id: u64, share: bool) {
    table.drop_offer.set(None);
    leptos::task::spawn_local(async move {
        let outcome = if share {
            bridge::call(&cmd::ShareDropped { id }).await.map(|_| ())
        } else {
            bridge::call(&cmd::DiscardDrop { id }).await
        };
        if let Err(e) = outcome {
            table.problem(e);
        }
    });
}

#[component]
pub fn DropConfirm(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    view! {
        {move || table.drop_offer.get().map(|DropOffer { id, files, refused }| {
            let n = files.len();
            let rows = files.into_iter().map(|f| view! {
                <li class="drop-file">
                    <span class="drop-name">{f.name}</span>
                    <span class="drop-size">{crate::panels::size_text(f.size)}</span>
                    <span class="drop-kind">{f.mime}</span>
                </li>
            }).collect_view();
            let refusals = (!refused.is_empty()).then(|| {
                let items = refused.into_iter().map(|r| view! {
                    <li class="drop-refused-item"><span class="drop-name">{r.name}</span>" — "{r.why}</li>
                }).collect_view();
                view! {
                    <p>{move || tr(locale.get(), "drop.refused")}</p>
                    <ul class="drop-refused">{items}</ul>
                }
            });
            view! {
                <div class="lw-drop-offer card" role="alertdialog" aria-modal="true"
                    aria-labelledby="drop-title" id="drop-offer" data-files=n.to_string()>
                    <h2 id="drop-title">{move || if n > 0 { tr(locale.get(), "drop.title") } else { tr(locale.get(), "drop.none") }}</h2>
                    <ul class="drop-files">{rows}</ul>
                    {refusals}
                    <div class="lw-intent-actions">
                        {(n > 0).then(|| view! {
                            <button id="drop-share" on:click=move |_| answer(table, id, true)>
                                {move || tr(locale.get(), "drop.share").replace("{n}", &n.to_string())}
                            </button>
                        })}
                        <button class="link" id="drop-cancel" on:click=move |_| answer(table, id, false)>
                            {move || tr(locale.get(), "drop.cancel")}
                        </button>
                    </div>
                </div>
            }
        })}
    }
}
