//! The hosted tables this profile keeps, under the host form: each can be hosted again (its
//! rooms, keys and saved story intact), opened as a folder, or deleted once its name is typed.

use ipc::{cmd, HostedTable};
use leptos::prelude::*;

use crate::bridge;
use crate::i18n::{sentence, t, tr, Locale};

/// "3 Dec 2026, 08:15" in the person's local time; "never" for a table with no record.
fn when(l: Locale, ms: u64) -> String {
    if ms == 0 {
        return tr(l, "host.tables.never").to_string();
    }
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    let lang = if l == Locale::Zh { "zh-CN" } else { "en-GB" };
    d.to_locale_string(lang, &wasm_bindgen::JsValue::UNDEFINED)
        .as_string()
        .unwrap_or_default()
}

/// The list. `host_again(name, local_only)` hosts that table; `busy` disables it while a host
/// runs.
#[component]
pub fn HostedTables(
    host_again: impl Fn(String, bool) + Copy + Send + Sync + 'static,
    busy: RwSignal<bool>,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let refresh = RwSignal::new(0u32);
    let tables = LocalResource::new(move || {
        refresh.track();
        bridge::call(&cmd::HostedTables {})
    });
    let problem = RwSignal::new(None::<String>);
    let rows = move || match tables.get() {
        Some(Ok(list)) => list,
        _ => Vec::new(),
    };
    view! {
        {move || (!rows().is_empty()).then(|| view! {
            <section id="hosted-tables" class="hosted-tables" aria-labelledby="hosted-title">
                <h3 id="hosted-title">{t("host.tables")}</h3>
                <p class="problem" role="alert">{move || problem.get()}</p>
                <ul class="hosted-list">
                    {move || rows().into_iter().map(|table| view! {
                        <Row table=table host_again=host_again busy=busy problem=problem refresh=refresh/>
                    }).collect_view()}
                </ul>
            </section>
        })}
        {move || match tables.get() {
            Some(Err(e)) => Some(view! { <p class="problem" role="alert">{tr(locale.get(), "host.tables.unread")}" "{sentence(&e)}</p> }),
            _ => None,
        }}
    }
}

#[component]
fn Row(
    table: HostedTable,
    host_again: impl Fn(String, bool) + Copy + Send + Sync + 'static,
    busy: RwSignal<bool>,
    problem: RwSignal<Option<String>>,
    refresh: RwSignal<u32>,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    let name = StoredValue::new(table.name.clone());
    let arming = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let open = move |_| {
        let name = name.get_value();
        leptos::task::spawn_local(async move {
            if let Err(e) = bridge::call(&cmd::OpenHostedFolder { name }).await {
                let _ = problem.try_set(Some(sentence(&e)));
            }
        });
    };
    let delete = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (name, typed) = (name.get_value(), typed.get_untracked());
        leptos::task::spawn_local(async move {
            match bridge::call(&cmd::DeleteHostedTable { name, typed }).await {
                Ok(()) => {
                    let _ = problem.try_set(None);
                    let _ = refresh.try_update(|n| *n += 1);
                }
                Err(e) => {
                    let _ = problem.try_set(Some(sentence(&e)));
                }
            }
        });
    };
    let armed = move || typed.with(|t| t.trim() == name.get_value());
    let local = table.local_only;
    view! {
        <li class="hosted-table" data-name=table.name.clone()>
            <div class="hosted-row">
                <strong class="hosted-name">{table.name.clone()}</strong>
                <code class="hosted-folder" title=table.folder.clone()>{table.folder.clone()}</code>
                <span class="hosted-mode" data-local=local.to_string()>
                    {move || tr(locale.get(), if local { "host.tables.local" } else { "host.tables.internet" })}
                </span>
                <span class="hosted-used">{move || format!("{} {}", tr(locale.get(), "host.tables.used"), when(locale.get(), table.last_used_ms))}</span>
                <button type="button" class="primary small hosted-host" disabled=move || busy.get()
                    on:click=move |_| host_again(name.get_value(), local)>{t("host.tables.host")}</button>
                <button type="button" class="secondary small hosted-open" on:click=open>{t("host.tables.open")}</button>
                <button type="button" class="link small hosted-delete" aria-expanded=move || arming.get().to_string()
                    on:click=move |_| { typed.set(String::new()); arming.update(|a| *a = !*a) }>{t("host.tables.delete")}</button>
            </div>
            {move || arming.get().then(|| view! {
                <form class="hosted-arm" on:submit=delete>
                    <label>{tr(locale.get(), "host.tables.type")}" "<strong>{name.get_value()}</strong>
                        <input class="hosted-typed" type="text" spellcheck="false" prop:value=typed
                            on:input=move |ev| typed.set(event_target_value(&ev))/>
                    </label>
                    <p class="warning">{t("host.tables.gone")}</p>
                    <button type="submit" class="danger small hosted-delete-yes" disabled=move || !armed()>
                        {t("host.tables.delete_yes")}
                    </button>
                </form>
            })}
        </li>
    }
}
