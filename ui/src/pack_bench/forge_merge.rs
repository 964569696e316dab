//! A card file changed on disk while its form is open: the file is read again and merged with
//! the form field by field (`docmerge`, over the card as it was opened). What only one side
//! changed lands with no question; what both changed differently is listed, and the author
//! keeps theirs or takes the file's for each before the merge lands in the form (one undo
//! step). The merged form is then saved as any other.

use std::collections::BTreeSet;

use ipc::ForgeDocument;
use leptos::prelude::*;
use serde_json::Value;

use super::forge_form::{text_of, Form};
use crate::i18n::{tr, Locale};

type Status = RwSignal<Option<(bool, String)>>;

/// The file as read again, and the places where the author chose the file's value.
#[derive(Clone)]
pub(super) struct Merging {
    theirs: ForgeDocument,
    take: RwSignal<BTreeSet<String>>,
}

/// Reads the file again and merges: at once when nothing conflicts, else after the author's
/// choices (`merging` holds them meanwhile).
pub(super) fn start(
    form: Form,
    status: Status,
    merging: RwSignal<Option<Merging>>,
    locale: RwSignal<Locale>,
) {
    let Some(path) = form
        .doc
        .with_untracked(|d| d.as_ref().map(|d| d.path.clone()))
    else {
        return;
    };
    leptos::task::spawn_local(async move {
        match crate::bridge::call(&ipc::cmd::ForgeOpen { path }).await {
            Ok(theirs) => {
                let conflicts = run(form, &theirs, &BTreeSet::new()).conflicts;
                if conflicts.is_empty() {
                    apply(
                        form,
                        status,
                        theirs,
                        BTreeSet::new(),
                        locale.get_untracked(),
                    );
                } else {
                    let take = RwSignal::new(BTreeSet::new());
                    let _ = merging.try_set(Some(Merging { theirs, take }));
                }
            }
            Err(e) => {
                let _ = status.try_set(Some((true, e)));
            }
        }
    });
}

fn run(form: Form, theirs: &ForgeDocument, take: &BTreeSet<String>) -> docmerge::Merged {
    let base = form.opened.get_untracked().unwrap_or(Value::Null);
    let ours = form.card().unwrap_or(Value::Null);
    docmerge::merge(&base, &ours, &theirs.card, take)
}

/// The merge put in the form; the file's version is the new base (the next save is checked
/// against it).
fn apply(
    form: Form,
    status: Status,
    theirs: ForgeDocument,
    take: BTreeSet<String>,
    locale: Locale,
) {
    let merged = run(form, &theirs, &take);
    form.reshape(|c| *c = merged.doc);
    form.doc.update_untracked(|d| {
        if let Some(d) = d {
            d.base = theirs.base.clone();
        }
    });
    let _ = form.opened.try_set(Some(theirs.card));
    let said = tr(locale, "forge.merged")
        .replace("{taken}", &merged.taken.to_string())
        .replace("{decided}", &merged.conflicts.len().to_string());
    let _ = status.try_set(Some((false, said)));
}

/// A value as the author reads it in one line.
fn shown(v: &Value, locale: Locale) -> String {
    if v.is_null() {
        return tr(locale, "forge.merge_removed").into();
    }
    let text = text_of(v);
    let mut cut: String = text.chars().take(160).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

/// The choices, one per conflict, and the merge.
pub(super) fn panel(
    form: Form,
    status: Status,
    merging: RwSignal<Option<Merging>>,
) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    move || {
        merging.get().map(|m| {
            let l = move |k: &'static str| tr(locale.get_untracked(), k);
            let conflicts = run(form, &m.theirs, &BTreeSet::new()).conflicts;
            let take = m.take;
            let rows = conflicts
                .into_iter()
                .enumerate()
                .map(|(i, c)| {
                    let name = format!("forge-merge-{i}");
                    let at = c.at.clone();
                    let choose = move |theirs: bool| {
                        let at = at.clone();
                        move |_| {
                            take.update(|t| {
                                if theirs {
                                    t.insert(at.clone());
                                } else {
                                    t.remove(&at);
                                }
                            })
                        }
                    };
                    let (ours, theirs) = (
                        shown(&c.ours, locale.get_untracked()),
                        shown(&c.theirs, locale.get_untracked()),
                    );
                    view! {
                        <li data-conflict=c.at.clone()>
                            <code>{c.at.clone()}</code>
                            <label><input type="radio" name=name.clone() data-choice="mine" checked=true on:change=choose(false)/>
                                " "{l("forge.merge_mine")}" "<q>{ours}</q></label>
                            <label><input type="radio" name=name data-choice="theirs" on:change=choose(true)/>
                                " "{l("forge.merge_theirs")}" "<q>{theirs}</q></label>
                        </li>
                    }
                })
                .collect_view();
            let theirs = m.theirs.clone();
            view! {
                <div class="forge-merge" id="forge-merge" role="group" aria-label=l("forge.merge")>
                    <p>{l("forge.merge_why")}</p>
                    <ul>{rows}</ul>
                    <div class="forge-actions">
                        <button type="button" id="forge-merge-apply" on:click=move |_| {
                            apply(form, status, theirs.clone(), take.get_untracked(), locale.get_untracked());
                            merging.set(None);
                        }>{l("forge.merge_apply")}</button>
                        <button type="button" class="secondary" on:click=move |_| merging.set(None)>{l("forge.cancel")}</button>
                    </div>
                </div>
            }
        })
    }
}
