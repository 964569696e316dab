//! The import preview's MVU leaves: each `[InitVar]` leaf with the typed variable it would
//! become (or why it cannot), a checkbox per leaf. Nothing is promoted unless ticked: a
//! promoted leaf leaves the MVU tree the model updates by text.

use ipc::ForgeInitVar;
use leptos::prelude::*;

use crate::i18n::{tr, Locale};

pub fn choice(rows: Vec<ForgeInitVar>, chosen: RwSignal<Vec<String>>) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let l = move |k: &'static str| tr(locale.get_untracked(), k);
    let typed: Vec<String> = rows
        .iter()
        .filter(|r| !r.id.is_empty())
        .map(|r| r.path.clone())
        .collect();
    let any = !typed.is_empty();
    let body = rows
        .into_iter()
        .map(|r| {
            let path = r.path.clone();
            let ticked = {
                let path = path.clone();
                move || chosen.with(|c| c.contains(&path))
            };
            let toggle = move |on: bool| {
                chosen.update(|c| {
                    c.retain(|p| *p != path);
                    if on {
                        c.push(path.clone());
                    }
                })
            };
            let becomes = if r.id.is_empty() {
                r.why.clone()
            } else {
                let range = match (r.minimum, r.maximum) {
                    (Some(a), Some(b)) => format!(" [{a}, {b}]"),
                    _ => String::new(),
                };
                format!("{} ({}{range})", r.id, r.kind)
            };
            view! {
                <tr data-initvar=r.path.clone() class:forge-initvar-no=r.id.is_empty()>
                    <td><input type="checkbox" disabled=r.id.is_empty() aria-label=r.path.clone()
                        prop:checked=ticked on:change=move |ev| toggle(event_target_checked(&ev))/></td>
                    <td><code>{r.path.clone()}</code></td>
                    <td><code>{r.value.clone()}</code>{(!r.description.is_empty()).then(|| view! { <br/><small>{r.description.clone()}</small> })}</td>
                    <td data-becomes="">{becomes}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div id="forge-initvar">
            <p>{l("forge.initvar")}</p>
            <table class="forge-initvar">
                <thead><tr><th>{l("forge.initvar_take")}</th><th>{l("forge.initvar_path")}</th><th>{l("forge.default")}</th><th>{l("forge.initvar_becomes")}</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
            {any.then(|| view! {
                <button type="button" class="secondary small" id="forge-initvar-all"
                    on:click=move |_| chosen.set(typed.clone())>{l("forge.initvar_all")}</button>
            })}
        </div>
    }
}
