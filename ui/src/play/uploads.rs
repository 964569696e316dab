//! My uploads above the input: one row per upload, keyed by its id and state, so a progress
//! report moves the bar and the words of the row that is there (its Cancel button stays the
//! same element under the pointer) instead of drawing every row again once per percent.

use leptos::prelude::*;

use crate::i18n::{tr, Locale};
use crate::store::Table;

/// The row's state, as `data-state` says it.
fn state_of(u: &ipc::Upload) -> &'static str {
    if u.cancelled {
        "cancelled"
    } else if u.error.is_some() {
        "failed"
    } else if u.done.is_some() {
        "done"
    } else {
        "sending"
    }
}

fn percent(u: &ipc::Upload) -> u64 {
    (u.sent * 100).checked_div(u.total).unwrap_or(100).min(100)
}

/// The rows, newest last; a row is drawn anew only when its state changes.
#[component]
pub fn Uploads(table: Table) -> impl IntoView {
    view! {
        <For
            each=move || table.uploads.get()
            key=|u| (u.id, state_of(u))
            children=move |u| view! { <UploadRow table id=u.id state=state_of(&u) /> }
        />
    }
}

#[component]
fn UploadRow(table: Table, id: u64, state: &'static str) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let report = Memo::new(move |_| {
        table
            .uploads
            .with(|l| l.iter().find(|x| x.id == id).map(|x| x.report.clone()))
    });
    let pct = move || report.with(|r| r.as_ref().map(percent).unwrap_or(0));
    let name = move || report.with(|r| r.as_ref().map(|r| r.name.clone()).unwrap_or_default());
    let label = move || {
        report.with(|r| match r {
            Some(ipc::Upload { error: Some(e), .. }) => e.clone(),
            Some(ipc::Upload { done: Some(_), .. }) => tr(locale.get(), "upload.done").to_string(),
            _ => format!("{}%", pct()),
        })
    };
    let button = if state == "sending" {
        view! {
            <button class="link upload-cancel" on:click=move |_| {
                leptos::task::spawn_local(async move {
                    let _ = crate::bridge::call(&ipc::cmd::CancelUpload { id }).await;
                });
            }>{move || tr(locale.get(), "upload.cancel")}</button>
        }
        .into_any()
    } else {
        view! {
            <button class="link upload-dismiss" on:click=move |_| table.uploads.update(|l| l.retain(|x| x.id != id))>
                "×"
            </button>
        }
        .into_any()
    };
    view! {
        <div class="upload" data-state=state data-id=id.to_string()>
            <span class="upload-name">{name}</span>
            <div class="meter-track"><div class="meter-fill" style=move || format!("width:{}%", pct())></div></div>
            <span class="upload-state">{label}</span>
            {button}
        </div>
    }
}
