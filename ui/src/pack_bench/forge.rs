//! The card forge: the pack's cards by kind, a native card opened in a form (its text, its
//! worldbook entries with keys, `@@if` condition and keeper-only flag, its typed variables),
//! saved to the card file itself; the bench then reloads as for any save. The form edits the
//! card's whole document, so fields it does not show are written back untouched; a save that
//! fails keeps everything typed and says why.

use ipc::{ForgeCardInfo, ForgeImportView};
use leptos::prelude::*;
use serde_json::{json, Value};

use super::forge_form::{call_list, list_mut, open_saying, split_words, text_of, Form};
use crate::i18n::{tr, Locale};
use crate::store::Table;

/// A number as JSON: an integer when it is one (`3`, not `3.0`), nothing when empty.
fn number(text: &str) -> Option<Value> {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(json!(i));
    }
    t.parse::<f64>().ok().map(|f| json!(f))
}

fn open_card(form: Form, status: RwSignal<Option<(bool, String)>>, path: String) {
    open_saying(form, status, path, None);
}

#[component]
pub fn Forge(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let cards = RwSignal::new(Vec::<ForgeCardInfo>::new());
    let status = RwSignal::new(None::<(bool, String)>);
    let form = Form::new();
    let merging = RwSignal::new(None::<super::forge_merge::Merging>);
    let new_name = RwSignal::new(String::new());
    // Listed again after every reload: a new card, a card's kind changed by what it carries.
    let reloads = Memo::new(move |_| table.bench.with(|b| b.as_ref().map(|b| b.reloads)));
    Effect::new(move |_| {
        reloads.get();
        call_list(cards, status);
    });
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let name = new_name.get_untracked();
        leptos::task::spawn_local(async move {
            match crate::bridge::call(&ipc::cmd::ForgeNew { name }).await {
                Ok(path) => {
                    let _ = new_name.try_set(String::new());
                    call_list(cards, status);
                    open_card(form, status, path);
                }
                Err(e) => {
                    let _ = status.try_set(Some((true, e)));
                }
            }
        });
    };
    let save = move |overwrite: bool| {
        let Some(doc) = form.doc.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let args = ipc::cmd::ForgeSave {
                path: doc.path.clone(),
                card: doc.card.clone(),
                base: doc.base.clone(),
                overwrite,
            };
            match crate::bridge::call(&args).await {
                Ok(written) => {
                    form.doc.update_untracked(|d| {
                        if let Some(d) = d {
                            d.base = written.base;
                        }
                    });
                    let _ = form.opened.try_set(Some(written.card));
                    let _ = status.try_set(Some((
                        false,
                        tr(locale.get_untracked(), "forge.saved").into(),
                    )));
                }
                // Nothing typed is lost: the form keeps its content.
                Err(e) => {
                    let _ = status.try_set(Some((true, e)));
                }
            }
        });
    };
    let preview = RwSignal::new(None::<ForgeImportView>);
    let promote = RwSignal::new(Vec::<String>::new());
    let import_notes = RwSignal::new(Vec::<String>::new());
    let split = RwSignal::new(false);
    let import = move |source: Option<String>, accept: bool| {
        let chosen = if accept {
            promote.get_untracked()
        } else {
            vec![]
        };
        leptos::task::spawn_local(async move {
            let call = ipc::cmd::ForgeImport {
                source,
                accept,
                promote: chosen,
                split: split.get_untracked(),
            };
            match crate::bridge::call(&call).await {
                Ok(Some(view)) if accept => {
                    let _ = preview.try_set(None);
                    call_list(cards, status);
                    if let Some(path) = view.written {
                        open_card(form, status, path);
                    }
                    let _ = import_notes.try_set(view.notes);
                }
                Ok(view) => {
                    let _ = promote.try_set(vec![]);
                    let _ = split.try_set(false);
                    let _ = preview.try_set(view);
                }
                Err(e) => {
                    let _ = status.try_set(Some((true, e)));
                }
            }
        });
    };
    let export_form = RwSignal::new("native".to_string());
    let export = move || {
        let Some(path) = form
            .doc
            .with_untracked(|d| d.as_ref().map(|d| d.path.clone()))
        else {
            return;
        };
        let form_name = export_form.get_untracked();
        leptos::task::spawn_local(async move {
            match crate::bridge::call(&ipc::cmd::ForgeExport {
                path,
                form: form_name,
            })
            .await
            {
                Ok(Some(to)) => {
                    let said = format!("{} {to}", tr(locale.get_untracked(), "forge.exported"));
                    let _ = status.try_set(Some((false, said)));
                }
                Ok(None) => {}
                Err(e) => {
                    let _ = status.try_set(Some((true, e)));
                }
            }
        });
    };
    let changed_on_disk = move || {
        merging.with(Option::is_none)
            && status.with(|s| {
                s.as_ref()
                    .is_some_and(|(bad, t)| *bad && t.contains("changed on disk"))
            })
    };
    view! {
        <section class="forge" id="forge">
            <h3>{move || tr(locale.get(), "forge.title")}</h3>
            <ul class="forge-cards">
                <For each=move || cards.get() key=|c| format!("{}:{}:{}", c.path, c.kind, c.name) let:c>
                    <li>
                        <button type="button" class="link" data-forge-card=c.path.clone() disabled=!c.native
                            title=if c.native { c.path.clone() } else { tr(locale.get_untracked(), "forge.not_native").to_string() }
                            on:click={ let path = c.path.clone(); move |_| open_card(form, status, path.clone()) }>
                            {if c.name.is_empty() { c.path.clone() } else { c.name.clone() }}
                        </button>" "
                        <span class="forge-kind" data-kind=c.kind.clone()>{tr(locale.get_untracked(), if c.kind == "world" { "forge.world" } else { "forge.character" })}</span>
                    </li>
                </For>
            </ul>
            <form class="forge-new" on:submit=create>
                <input id="forge-new-name" placeholder=move || tr(locale.get(), "forge.new_name")
                    aria-label=move || tr(locale.get(), "forge.new_name")
                    prop:value=new_name on:input=move |ev| new_name.set(event_target_value(&ev))/>
                <button type="submit" class="secondary" id="forge-new">{move || tr(locale.get(), "forge.new")}</button>
                <button type="button" class="secondary" id="forge-import" on:click=move |_| import(None, false)>
                    {move || tr(locale.get(), "forge.import")}
                </button>
            </form>
            {move || preview.get().map(|v| {
                let l = move |k: &'static str| tr(locale.get_untracked(), k);
                let source = v.source.clone();
                view! {
                    <div class="forge-preview" id="forge-preview" role="group" aria-label=l("forge.import")>
                        <p><strong>{v.name.clone()}</strong>" · "<span id="forge-preview-kind" data-kind=v.kind.clone()>{l(if v.kind == "world" { "forge.world" } else { "forge.character" })}</span></p>
                        <p class="forge-counts" id="forge-preview-counts">
                            {format!("{} {} · {} {} · {} {} · {} {} · {} {}",
                                l("forge.entries"), v.entries, l("forge.declarations"), v.declarations,
                                l("forge.hooks"), v.hooks, l("forge.ejs"), v.ejs, l("forge.secret"), v.secret)}
                        </p>
                        {(!v.left_out.is_empty()).then(|| view! {
                            <div id="forge-left-out">{l("forge.left_out")}
                                <ul>{v.left_out.iter().map(|f| view! { <li><code>{f.clone()}</code></li> }).collect_view()}</ul>
                            </div>
                        })}
                        {(!v.initvar.is_empty()).then(|| super::forge_initvar::choice(v.initvar.clone(), promote))}
                        {v.splittable.then(|| view! {
                            <label class="forge-split"><input type="checkbox" id="forge-split" prop:checked=split
                                on:change=move |ev| split.set(event_target_checked(&ev))/>" "{l("forge.split")}
                                <span class="forge-counts">{l("forge.split_halves").replace("{n}", &v.character_entries.to_string())}</span></label>
                        })}
                        <div class="forge-actions">
                            <button type="button" id="forge-accept" on:click=move |_| import(Some(source.clone()), true)>{l("forge.accept")}</button>
                            <button type="button" class="secondary" on:click=move |_| preview.set(None)>{l("forge.cancel")}</button>
                        </div>
                    </div>
                }
            })}
            {move || import_notes.with(|n| !n.is_empty()).then(|| view! {
                <div id="forge-import-notes" role="status">{tr(locale.get_untracked(), "forge.imported_notes")}
                    <ul>{import_notes.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                    <button type="button" class="link" on:click=move |_| import_notes.set(vec![])>{tr(locale.get_untracked(), "forge.dismiss")}</button>
                </div>
            })}
            {move || status.get().map(|(bad, text)| view! {
                <p id="forge-status" class:forge-error=bad role=if bad { "alert" } else { "status" }>{text}</p>
            })}
            {move || changed_on_disk().then(|| view! {
                <div class="forge-conflict">
                    <button type="button" class="small" id="forge-merge-start"
                        on:click=move |_| super::forge_merge::start(form, status, merging, locale)>
                        {tr(locale.get_untracked(), "forge.merge")}
                    </button>
                    <button type="button" class="secondary small" id="forge-reload"
                        on:click=move |_| { if let Some(d) = form.doc.get_untracked() { open_card(form, status, d.path) } }>
                        {tr(locale.get_untracked(), "forge.reload")}
                    </button>
                    <button type="button" class="secondary small" id="forge-overwrite" on:click=move |_| save(true)>
                        {tr(locale.get_untracked(), "forge.overwrite")}
                    </button>
                </div>
            })}
            {super::forge_merge::panel(form, status, merging)}
            {move || {
                form.track_shape();
                form.doc.with_untracked(|d| d.as_ref().map(|d| d.path.clone())).map(|path| { let shown = path.clone(); view! {
                    <form class="forge-card" id="forge-card" data-path=path
                        on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); save(false) }>
                        <code class="forge-path">{shown}</code>
                        {super::forge_fields::field(form, "name", "forge.name", false)}
                        {super::forge_fields::field(form, "description", "forge.description", true)}
                        {super::forge_fields::field(form, "scenario", "forge.scenario", true)}
                        {super::forge_fields::field(form, "personality", "forge.personality", true)}
                        {super::forge_fields::field(form, "opening", "forge.opening", true)}
                        {super::forge_fields::alternates(form)}
                        {super::forge_fields::field(form, "dialogue_examples", "forge.dialogue_examples", true)}
                        {super::forge_fields::field(form, "author_notes", "forge.author_notes", true)}
                        {super::forge_fields::tags(form)}
                        <h4>{tr(locale.get_untracked(), "forge.worldbook")}</h4>
                        {entries(form)}
                        <button type="button" class="secondary small" id="forge-add-entry"
                            on:click=move |_| form.reshape(|c| list_mut(c, "worldbook").push(json!({"title": "", "content": "", "keys": []})))>
                            {tr(locale.get_untracked(), "forge.add_entry")}
                        </button>
                        <h4>{tr(locale.get_untracked(), "forge.pregens")}</h4>
                        {pregens(form)}
                        <button type="button" class="secondary small" id="forge-add-pregen"
                            disabled=form.doc.with_untracked(|d| d.as_ref().and_then(|d| d.card["pregens"].as_array().map(Vec::len)).unwrap_or(0) >= 8)
                            on:click=move |_| form.reshape(|c| list_mut(c, "pregens").push(json!({"name": ""})))>
                            {tr(locale.get_untracked(), "forge.add_pregen")}
                        </button>
                        <h4>{tr(locale.get_untracked(), "forge.variables")}</h4>
                        {variables(form)}
                        <button type="button" class="secondary small" id="forge-add-var"
                            on:click=move |_| form.reshape(|c| list_mut(c, "variables").push(json!({"id": "", "kind": "number", "visibility": "player", "default": 0})))>
                            {tr(locale.get_untracked(), "forge.add_var")}
                        </button>
                        <h4>{tr(locale.get_untracked(), "forge.hook_scripts")}</h4>
                        {super::forge_hooks::hooks(form)}
                        <div class="forge-actions">
                            <button type="submit" id="forge-save">{tr(locale.get_untracked(), "forge.save")}</button>
                            <button type="button" class="secondary" id="forge-undo" on:click=move |_| form.step(true)
                                disabled=move || !form.can_step(true)>{tr(locale.get_untracked(), "forge.undo")}</button>
                            <button type="button" class="secondary" id="forge-redo" on:click=move |_| form.step(false)
                                disabled=move || !form.can_step(false)>{tr(locale.get_untracked(), "forge.redo")}</button>
                            <select id="forge-export-form" aria-label=tr(locale.get_untracked(), "forge.export")
                                on:change=move |ev| export_form.set(event_target_value(&ev))>
                                {[("native", "forge.as_native"), ("st-release", "forge.as_st_release"), ("st-safe", "forge.as_st_safe"),
                                  ("png-release", "forge.as_png_release"), ("png-safe", "forge.as_png_safe")]
                                    .map(|(v, k)| view! { <option value=v selected=move || export_form.get() == v>{tr(locale.get_untracked(), k)}</option> })}
                            </select>
                            <button type="button" class="secondary" id="forge-export" on:click=move |_| export()>{tr(locale.get_untracked(), "forge.export")}</button>
                            {move || super::forge_fields::splittable(form, &cards.get()).then(|| view! {
                                <button type="button" class="secondary" id="forge-split-card"
                                    title=tr(locale.get_untracked(), "forge.split_card_why")
                                    on:click=move |_| super::forge_fields::split_card(form, cards, status, locale)>
                                    {tr(locale.get_untracked(), "forge.split_card")}
                                </button>
                            })}
                        </div>
                    </form>
                }})
            }}
        </section>
    }
}

fn entries(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let count = form.doc.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.card["worldbook"].as_array().map(Vec::len))
            .unwrap_or(0)
    });
    (0..count)
        .map(|i| {
            let text = move |key: &'static str| form.read(|c| text_of(&c["worldbook"][i][key]));
            let words = move |key: &'static str| {
                form.read(|c| {
                    c["worldbook"][i][key]
                        .as_array()
                        .map(|k| k.iter().map(text_of).collect::<Vec<_>>().join(", "))
                        .unwrap_or_default()
                })
            };
            let flag_or = move |key: &'static str, default: bool| {
                form.read(|c| c["worldbook"][i][key].as_bool().unwrap_or(default).to_string()) == "true"
            };
            let flag = move |key: &'static str| flag_or(key, false);
            let set = move |key: &'static str, v: Value| {
                form.edit(&format!("worldbook.{i}.{key}"), |c| c["worldbook"][i][key] = v)
            };
            let l = move |k: &'static str| tr(locale.get_untracked(), k);
            view! {
                <fieldset class="forge-entry" data-entry=i.to_string()>
                    <input data-field="title" placeholder=l("forge.entry_title") aria-label=l("forge.entry_title") prop:value=text("title")
                        on:input=move |ev| set("title", event_target_value(&ev).into())/>
                    <input data-field="keys" placeholder=l("forge.keys") aria-label=l("forge.keys") prop:value=words("keys")
                        on:input=move |ev| set("keys", split_words(&event_target_value(&ev)))/>
                    <input data-field="condition" placeholder=l("forge.condition") aria-label=l("forge.condition") prop:value=text("condition")
                        on:input=move |ev| set("condition", event_target_value(&ev).into())/>
                    <textarea data-field="content" rows="2" placeholder=l("forge.content") aria-label=l("forge.content") prop:value=text("content")
                        on:input=move |ev| set("content", event_target_value(&ev).into())></textarea>
                    <label><input type="checkbox" data-field="secret" prop:checked=flag("secret")
                        on:change=move |ev| set("secret", event_target_checked(&ev).into())/>" "{l("forge.secret")}</label>
                    <label><input type="checkbox" data-field="constant" prop:checked=flag("constant")
                        on:change=move |ev| set("constant", event_target_checked(&ev).into())/>" "{l("forge.constant")}</label>
                    <details class="forge-more">
                        <summary>{l("forge.triggers")}</summary>
                        <input data-field="secondary_keys" placeholder=l("forge.secondary_keys") aria-label=l("forge.secondary_keys")
                            prop:value=words("secondary_keys") on:input=move |ev| set("secondary_keys", split_words(&event_target_value(&ev)))/>
                        <select data-field="selective_logic" aria-label=l("forge.logic") on:change=move |ev| set("selective_logic", event_target_value(&ev).into())>
                            {["and_any", "and_all", "not_any", "not_all"].map(|v| {
                                let now = text("selective_logic");
                                view! { <option value=v selected=now == v || (now.is_empty() && v == "and_any")>{v}</option> }
                            })}
                        </select>
                        <select data-field="position" aria-label=l("forge.position") on:change=move |ev| set("position", event_target_value(&ev).into())>
                            {[("", "forge.position_none"), ("before", "forge.position_before"), ("after", "forge.position_after")].map(|(v, k)| {
                                let now = text("position");
                                view! { <option value=v selected=now == v>{l(k)}</option> }
                            })}
                        </select>
                        {[("priority", "forge.priority"), ("probability", "forge.probability"), ("scan_depth", "forge.scan_depth")].map(|(key, label)| view! {
                            <input data-field=key type="number" placeholder=l(label) aria-label=l(label) prop:value=text(key)
                                on:input=move |ev| { if let Some(n) = number(&event_target_value(&ev)) { set(key, n) } }/>
                        })}
                        <input data-field="id" placeholder=l("forge.entry_id") aria-label=l("forge.entry_id") prop:value=text("id")
                            on:input=move |ev| set("id", event_target_value(&ev).into())/>
                        <label><input type="checkbox" data-field="enabled" prop:checked=flag_or("enabled", true)
                            on:change=move |ev| set("enabled", event_target_checked(&ev).into())/>" "{l("forge.enabled")}</label>
                    </details>
                    <button type="button" class="link" data-field="remove"
                        on:click=move |_| form.reshape(|c| { list_mut(c, "worldbook").remove(i); })>{l("forge.remove")}</button>
                </fieldset>
            }
        })
        .collect_view()
}

fn variables(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let count = form.doc.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.card["variables"].as_array().map(Vec::len))
            .unwrap_or(0)
    });
    (0..count)
        .map(|i| {
            let text = move |key: &'static str| form.read(|c| text_of(&c["variables"][i][key]));
            let kind = text("kind");
            let keeper = text("visibility") == "keeper";
            let set = move |key: &'static str, v: Option<Value>| {
                form.edit(&format!("variables.{i}.{key}"), |c| match v {
                    Some(v) => c["variables"][i][key] = v,
                    None => {
                        if let Some(o) = c["variables"][i].as_object_mut() {
                            o.remove(key);
                        }
                    }
                })
            };
            // The default typed by the variable's kind, as the engine reads it.
            let set_default = move |raw: String| {
                let kind = form.read(|c| text_of(&c["variables"][i]["kind"]));
                let value = match kind.as_str() {
                    "number" => number(&raw).unwrap_or(json!(0)),
                    "bool" => json!(raw.trim() == "true"),
                    _ => json!(raw),
                };
                set("default", Some(value));
            };
            let l = move |k: &'static str| tr(locale.get_untracked(), k);
            view! {
                <fieldset class="forge-var" data-var=i.to_string()>
                    <input data-field="id" placeholder=l("forge.var_id") aria-label=l("forge.var_id") prop:value=text("id")
                        on:input=move |ev| set("id", Some(event_target_value(&ev).into()))/>
                    <select data-field="kind" aria-label=l("bench.var_kind")
                        on:change=move |ev| set("kind", Some(event_target_value(&ev).into()))>
                        {["number", "bool", "text", "enum"].map(|k| view! { <option value=k selected=kind == k>{k}</option> })}
                    </select>
                    <input data-field="default" placeholder=l("forge.default") aria-label=l("forge.default") prop:value=text("default")
                        on:input=move |ev| set_default(event_target_value(&ev))/>
                    <input data-field="minimum" type="number" placeholder=l("forge.min") aria-label=l("forge.min") prop:value=text("minimum")
                        on:input=move |ev| set("minimum", number(&event_target_value(&ev)))/>
                    <input data-field="maximum" type="number" placeholder=l("forge.max") aria-label=l("forge.max") prop:value=text("maximum")
                        on:input=move |ev| set("maximum", number(&event_target_value(&ev)))/>
                    <label><input type="checkbox" data-field="keeper" prop:checked=keeper
                        on:change=move |ev| set("visibility", Some(if event_target_checked(&ev) { "keeper" } else { "player" }.into()))/>" "{l("forge.secret")}</label>
                    <button type="button" class="link" data-field="remove"
                        on:click=move |_| form.reshape(|c| { list_mut(c, "variables").remove(i); })>{l("forge.remove")}</button>
                </fieldset>
            }
        })
        .collect_view()
}

/// Pregenerated investigators: name, concept, notes, and skills typed as `Name=60, …`.
fn pregens(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let count = form.doc.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.card["pregens"].as_array().map(Vec::len))
            .unwrap_or(0)
    });
    (0..count)
        .map(|i| {
            let text = move |key: &'static str| form.read(|c| text_of(&c["pregens"][i][key]));
            let skills = form.read(|c| {
                c["pregens"][i]["skills"]
                    .as_object()
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k}={}", text_of(v)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default()
            });
            let set = move |key: &'static str, v: Value| {
                form.edit(&format!("pregens.{i}.{key}"), |c| c["pregens"][i][key] = v)
            };
            let l = move |k: &'static str| tr(locale.get_untracked(), k);
            view! {
                <fieldset class="forge-pregen" data-pregen=i.to_string()>
                    <input data-field="name" placeholder=l("forge.name") aria-label=l("forge.name") prop:value=text("name")
                        on:input=move |ev| set("name", event_target_value(&ev).into())/>
                    <input data-field="concept" placeholder=l("forge.concept") aria-label=l("forge.concept") prop:value=text("concept")
                        on:input=move |ev| set("concept", event_target_value(&ev).into())/>
                    <input data-field="notes" placeholder=l("forge.notes") aria-label=l("forge.notes") prop:value=text("notes")
                        on:input=move |ev| set("notes", event_target_value(&ev).into())/>
                    <input data-field="skills" placeholder=l("forge.skills") aria-label=l("forge.skills") prop:value=skills
                        on:input=move |ev| set("skills", skills_of(&event_target_value(&ev)))/>
                    <button type="button" class="link" data-field="remove"
                        on:click=move |_| form.reshape(|c| { list_mut(c, "pregens").remove(i); })>{l("forge.remove")}</button>
                </fieldset>
            }
        })
        .collect_view()
}

/// `Swim=60, Spot Hidden=45` as the skills map (a part without a whole number is left out).
fn skills_of(text: &str) -> Value {
    let mut map = serde_json::Map::new();
    for part in text.split([',', '，']) {
        if let Some((name, value)) = part.split_once('=') {
            if let Ok(n) = value.trim().parse::<i64>() {
                map.insert(name.trim().to_string(), json!(n));
            }
        }
    }
    Value::Object(map)
}
