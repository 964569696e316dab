//! A keeper's inline edit of a module variable, sent as the command the engine accepts
//! (`.var set <id> <value>`). The row changes when the next `state` says so, never before.

use leptos::prelude::*;
use protocol::frame::{Scalar, Variable, VariableKind};

use super::{is_keeper, locale};
use crate::i18n::tr;
use crate::store::Table;

fn initial(v: &Scalar) -> String {
    match v {
        Scalar::Null => String::new(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(n) if n.fract() == 0.0 => format!("{}", *n as i64),
        Scalar::Number(n) => n.to_string(),
        Scalar::Text(t) => t.clone(),
    }
}

/// An enum variable's choices, where the server lists them.
fn options(v: &Variable) -> Vec<String> {
    ["options", "choices", "values"]
        .iter()
        .find_map(|k| v.extra.get(*k).and_then(|o| o.as_array()))
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[component]
pub fn VarEditor(table: Table, var: Variable) -> impl IntoView {
    let locale = locale();
    let open = RwSignal::new(false);
    let value = RwSignal::new(String::new());
    let id = StoredValue::new(var.id.clone());
    let send = move |v: String| {
        let v = v.trim().to_string();
        if !v.is_empty() {
            table.say(format!(".var set {} {v}", id.get_value()));
        }
        open.set(false);
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        send(value.get_untracked());
    };
    let var = StoredValue::new(var);
    // Built afresh each time the editor opens, from the row's latest value.
    let input = move || {
        let var = var.get_value();
        value.set(initial(&var.value));
        let choices = options(&var);
        match (&var.kind, &var.value) {
            (VariableKind::Bool, _) | (_, Scalar::Bool(_)) => view! {
                <input type="checkbox" class="var-input" prop:checked=value.get_untracked() == "true"
                    on:change=move |ev| send(event_target_checked(&ev).to_string())/>
            }
            .into_any(),
            (VariableKind::Number, _) => view! {
                <input type="number" class="var-input" step="any"
                    min=var.min.map(|m| m.to_string()) max=var.max.map(|m| m.to_string())
                    prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
            }
            .into_any(),
            (VariableKind::Enum, _) if !choices.is_empty() => view! {
                <select class="var-input" prop:value=value on:change=move |ev| value.set(event_target_value(&ev))>
                    {choices.into_iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            }
            .into_any(),
            _ => view! {
                <input type="text" class="var-input" prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
            }
            .into_any(),
        }
    };
    view! {
        <Show when=move || is_keeper(table)>
            {move || if open.get() {
                view! {
                    <form class="var-edit" data-var=id.get_value() on:submit=submit>
                        {input()}
                        <button type="submit" class="primary small var-set">{tr(locale.get(), "keeper.var.set")}</button>
                        <button type="button" class="link small" on:click=move |_| open.set(false)>{tr(locale.get(), "keeper.cancel")}</button>
                    </form>
                }.into_any()
            } else {
                view! {
                    <button class="link small var-edit-open" data-var=id.get_value()
                        title=tr(locale.get(), "keeper.var.edit") on:click=move |_| open.set(true)>"✎"</button>
                }.into_any()
            }}
        </Show>
    }
}
