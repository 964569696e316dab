//! The story for a screen reader (#29 item 2): a polite live region that hears each entry
//! once, when it is final, with who said it (`protocol::session::Announcer` decides), and the
//! turn changing hands (`turn_news`). The
//! transcript itself is not live: it would be read out at every streamed delta.

use leptos::prelude::*;
use protocol::session::{sanitize_text, turn_news, Announcer, TurnNews};

use crate::i18n::tr;
use crate::store::Table;

/// How many announcements stay in the region (a screen reader reads additions only).
const KEPT: usize = 8;

#[component]
pub fn StoryAnnouncer(table: Table) -> impl IntoView {
    // The region's state belongs to the app, like the table it follows: the view closing
    // while the table still talks (Leave) must find nothing of it disposed. Its effect is the
    // view's and ends with it.
    let owner = use_context::<crate::store::AppOwner>().expect("app owner");
    let (said, announcer, count) = owner.0.with(|| {
        (
            RwSignal::new(Vec::<(u64, String)>::new()),
            StoredValue::new(None::<Announcer>),
            StoredValue::new(0u64),
        )
    });
    let say = move |fresh: Vec<String>| {
        let Some(first) = count.try_get_value() else {
            return;
        };
        count.try_set_value(first + fresh.len() as u64);
        said.try_update(|list| {
            for (i, s) in fresh.into_iter().enumerate() {
                list.push((first + 1 + i as u64, s));
            }
            let over = list.len().saturating_sub(KEPT);
            list.drain(..over);
        });
    };
    Effect::new(move |_| {
        let fresh = table.model.try_with(|m| {
            let t = m.transcript();
            // Until the table's first state (and during a rejoin's replay) the lines are the
            // story so far, not news.
            let history = m.state.is_none() || m.is_replaying();
            announcer
                .try_update_value(|a| {
                    let a = a.get_or_insert_with(|| Announcer::start(t));
                    if history {
                        a.skip(t);
                        Vec::new()
                    } else {
                        a.next(t)
                    }
                })
                .unwrap_or_default()
        });
        let Some(fresh) = fresh.filter(|f| !f.is_empty()) else {
            return;
        };
        say(fresh);
    });
    // The turn, politely: who took it, and when it is the person's again. What was going on
    // when they arrived is not news.
    let locale = use_context::<RwSignal<crate::i18n::Locale>>().expect("locale");
    let actor = Memo::new(move |_| {
        table
            .model
            .try_with(|m| m.turn.as_ref().map(|t| sanitize_text(&t.actor)))
            .flatten()
    });
    let told = owner.0.with(|| StoredValue::new(None::<Option<String>>));
    Effect::new(move |_| {
        let now = actor.get();
        let Some(before) = told.try_get_value() else {
            return;
        };
        told.try_set_value(Some(now.clone()));
        let Some(before) = before else { return };
        let l = locale.get_untracked();
        match turn_news(before.as_deref(), now.as_deref()) {
            Some(TurnNews::Taken(who)) => say(vec![format!("{who} {}", tr(l, "turn.busy"))]),
            Some(TurnNews::Yours) => say(vec![tr(l, "turn.yours").to_string()]),
            None => {}
        }
    });
    view! {
        <div class="visually-hidden" id="story-announcer" aria-live="polite" aria-relevant="additions">
            // Keyed: a line already there stays the same node, so only additions are read.
            <For each=move || said.try_get().unwrap_or_default() key=|(n, _)| *n let:item>
                <p data-n=item.0>{item.1}</p>
            </For>
        </div>
    }
}
