//! The variables editor: every variable of the bench's room, hidden (keeper-only) ones too,
//! whatever the viewer. An edit goes to the table, which pushes a fresh `state`; the panels
//! re-resolve from it like at a real table.

use leptos::prelude::*;
use serde_json::{json, Value};

use crate::i18n::{tr, Locale};
use crate::store::Table;

pub use ipc::PackBenchVar;

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Sends one edit; the answer is the room's whole list, or why it was refused.
fn set(
    list: RwSignal<Vec<PackBenchVar>>,
    problem: RwSignal<Option<String>>,
    id: String,
    kind: String,
    value: String,
) {
    leptos::task::spawn_local(async move {
        let args = ipc::cmd::PackBenchSetVar { id, kind, value };
        match crate::bridge::call(&args).await {
            Ok(l) => {
                let _ = list.try_set(l);
                let _ = problem.try_set(None);
            }
            Err(e) => {
                let _ = problem.try_set(Some(e));
            }
        }
    });
}

#[component]
pub fn VarsEditor(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let list = RwSignal::new(Vec::<PackBenchVar>::new());
    let problem = RwSignal::new(None::<String>);
    // Fetched again after every reload: a world card may have brought new variables.
    let reloads = Memo::new(move |_| table.bench.with(|b| b.as_ref().map(|b| b.reloads)));
    Effect::new(move |_| {
        reloads.get();
        leptos::task::spawn_local(async move {
            // A list that could not be read says why, never shows as an empty room.
            match crate::bridge::call(&ipc::cmd::PackBenchVars {}).await {
                Ok(l) => {
                    let _ = list.try_set(l);
                }
                Err(e) => {
                    let _ = problem.try_set(Some(e));
                }
            }
        });
    });
    let new_id = RwSignal::new(String::new());
    let new_kind = RwSignal::new("number".to_string());
    let new_value = RwSignal::new(String::new());
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        set(
            list,
            problem,
            new_id.get_untracked(),
            new_kind.get_untracked(),
            new_value.get_untracked(),
        );
        new_id.set(String::new());
        new_value.set(String::new());
    };
    view! {
        <section class="bench-vars" id="bench-vars">
            <h3>{move || tr(locale.get(), "bench.vars")}</h3>
            {move || problem.get().map(|p| view! { <p class="bench-var-error" role="alert">{p}</p> })}
            <table>
                <For each=move || list.get() key=|v| format!("{}={}", v.id, v.value) let:v>
                    <VarRow v=v list=list problem=problem/>
                </For>
            </table>
            <form class="bench-var-add" on:submit=add>
                <input id="bench-var-new-id" placeholder=move || tr(locale.get(), "bench.var_id")
                    aria-label=move || tr(locale.get(), "bench.var_id")
                    prop:value=new_id on:input=move |ev| new_id.set(event_target_value(&ev))/>
                <select id="bench-var-new-kind" aria-label=move || tr(locale.get(), "bench.var_kind") on:change=move |ev| new_kind.set(event_target_value(&ev))>
                    <option value="number">"number"</option>
                    <option value="bool">"bool"</option>
                    <option value="text">"text"</option>
                </select>
                <input id="bench-var-new-value" placeholder=move || tr(locale.get(), "bench.var_value")
                    aria-label=move || tr(locale.get(), "bench.var_value")
                    prop:value=new_value on:input=move |ev| new_value.set(event_target_value(&ev))/>
                <button type="submit" class="secondary" id="bench-var-add">{move || tr(locale.get(), "bench.var_add")}</button>
            </form>
        </section>
    }
}

#[component]
fn VarRow(
    v: PackBenchVar,
    list: RwSignal<Vec<PackBenchVar>>,
    problem: RwSignal<Option<String>>,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let id = v.id.clone();
    let kind = v.kind.clone();
    let bounds = match (v.min, v.max) {
        (Some(a), Some(b)) => format!("{a}…{b}"),
        (Some(a), None) => format!("≥ {a}"),
        (None, Some(b)) => format!("≤ {b}"),
        _ => String::new(),
    };
    let input = if v.kind == "bool" {
        let checked = v.value == json!(true);
        let (id, kind) = (id.clone(), kind.clone());
        view! {
            <input type="checkbox" data-var=v.id.clone() checked=checked aria-label=v.id.clone()
                on:change=move |ev| set(list, problem, id.clone(), kind.clone(), event_target_checked(&ev).to_string())/>
        }
        .into_any()
    } else {
        let (id, kind) = (id.clone(), kind.clone());
        let number = v.kind == "number";
        view! {
            <input type=if number { "number" } else { "text" } data-var=v.id.clone() value=shown(&v.value)
                aria-label=v.id.clone()
                on:change=move |ev| set(list, problem, id.clone(), kind.clone(), event_target_value(&ev))/>
        }
        .into_any()
    };
    view! {
        <tr data-var-row=v.id.clone()>
            <td><code>{v.id.clone()}</code><br/><small>{v.label.clone()}</small></td>
            <td>{input}</td>
            <td class="bench-var-meta">
                {v.kind.clone()}" "{bounds}
                {v.hidden.then(|| view! { <span class="bench-var-hidden">{move || tr(locale.get(), "bench.var_hidden")}</span> })}
            </td>
        </tr>
    }
}
