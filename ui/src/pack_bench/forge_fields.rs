//! The forge form's card-level fields (text fields, tags, alternate openings), and splitting
//! the open card in two when it has a persona but carries world machinery.

use ipc::ForgeCardInfo;
use leptos::prelude::*;
use serde_json::json;

use super::forge_form::{call_list, list_mut, open_saying, split_words, text_of, Form};
use crate::i18n::{tr, Locale};

/// The card's tags, typed as a comma-separated list.
pub(super) fn tags(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let value = form.read(|c| {
        c["tags"]
            .as_array()
            .map(|t| t.iter().map(text_of).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    });
    view! {
        <label class="forge-field">
            <span>{tr(locale.get_untracked(), "forge.tags")}</span>
            <input id="forge-tags" prop:value=value
                on:input=move |ev| form.edit("tags", |c| c["tags"] = split_words(&event_target_value(&ev)))/>
        </label>
    }
}

/// The alternate openings, one text box each.
pub(super) fn alternates(form: Form) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let l = move |k: &'static str| tr(locale.get_untracked(), k);
    let count = form.doc.with_untracked(|d| {
        d.as_ref()
            .and_then(|d| d.card["alternate_openings"].as_array().map(Vec::len))
            .unwrap_or(0)
    });
    view! {
        <fieldset class="forge-alternates">
            <legend>{l("forge.alternates")}</legend>
            {(0..count).map(|i| view! {
                <div class="forge-alternate" data-alternate=i.to_string()>
                    <textarea rows="2" aria-label=format!("{} {}", l("forge.alternates"), i + 1)
                        prop:value=form.read(|c| text_of(&c["alternate_openings"][i]))
                        on:input=move |ev| form.edit(&format!("alternate_openings.{i}"),
                            |c| c["alternate_openings"][i] = event_target_value(&ev).into())></textarea>
                    <button type="button" class="link" on:click=move |_| form.reshape(|c| { list_mut(c, "alternate_openings").remove(i); })>
                        {l("forge.remove")}
                    </button>
                </div>
            }).collect_view()}
            <button type="button" class="secondary small" id="forge-add-alternate"
                on:click=move |_| form.reshape(|c| list_mut(c, "alternate_openings").push(json!("")))>
                {l("forge.add_alternate")}
            </button>
        </fieldset>
    }
}

/// One of the card's top-level text fields.
pub(super) fn field(
    form: Form,
    key: &'static str,
    label: &'static str,
    long: bool,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let value = form.read(|c| text_of(&c[key]));
    let id = format!("forge-{key}");
    let set = move |text: String| form.edit(key, |c| c[key] = text.into());
    view! {
        <label class="forge-field">
            <span>{tr(locale.get_untracked(), label)}</span>
            {if long {
                view! { <textarea id=id rows="2" prop:value=value on:input=move |ev| set(event_target_value(&ev))></textarea> }.into_any()
            } else {
                view! { <input id=id prop:value=value on:input=move |ev| set(event_target_value(&ev))/> }.into_any()
            }}
        </label>
    }
}

/// The open card is a world card with a persona: it can be split in two.
pub(super) fn splittable(form: Form, cards: &[ForgeCardInfo]) -> bool {
    form.doc.with_untracked(|d| {
        d.as_ref().is_some_and(|d| {
            let persona = ["personality", "dialogue_examples"]
                .iter()
                .any(|k| d.card[k].as_str().is_some_and(|t| !t.trim().is_empty()));
            persona && cards.iter().any(|c| c.path == d.path && c.kind == "world")
        })
    })
}

/// The open card split in two: its file becomes the character half (opened again), the world
/// half a new card.
pub(super) fn split_card(
    form: Form,
    cards: RwSignal<Vec<ForgeCardInfo>>,
    status: RwSignal<Option<(bool, String)>>,
    locale: RwSignal<Locale>,
) {
    let Some(doc) = form.doc.get_untracked() else {
        return;
    };
    leptos::task::spawn_local(async move {
        let args = ipc::cmd::ForgeSplit {
            path: doc.path.clone(),
            base: doc.base.clone(),
        };
        match crate::bridge::call(&args).await {
            Ok(world) => {
                call_list(cards, status);
                let said = format!("{} {world}", tr(locale.get_untracked(), "forge.split_done"));
                open_saying(form, status, doc.path, Some(said));
            }
            Err(e) => {
                let _ = status.try_set(Some((true, e)));
            }
        }
    });
}
