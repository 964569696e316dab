//! The narrative log: drafts grow in place, the stream is followed only when already at the
//! bottom, and only a window at the end is in the DOM (it widens as the player scrolls up), so
//! a 20,000-entry transcript stays smooth without ever dropping entries.

use leptos::html::Div;
use leptos::prelude::*;
use protocol::frame::{Speaker, TextFormat};
use protocol::session::export::entry_matches;
use protocol::session::{sanitize_text, Entry, EntryBody, InputFailure};

use super::dice::DiceLine;
use crate::i18n::{tr, Locale};
use crate::markdown::markdown;
use crate::table::Table;
use crate::templates::UiBlocksView;

/// Entries drawn at the end, and added per step as the reader scrolls up: a join replays up to
/// ~230 lines, and laying out all of them would delay its first paint.
const WINDOW_STEP: usize = 60;

#[component]
pub fn Transcript(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let scroller = NodeRef::<Div>::new();
    let window = RwSignal::new(WINDOW_STEP);
    let at_bottom = StoredValue::new(true);
    let visible = move || {
        let query = table.search.get();
        table.model.with(|m| {
            if !query.trim().is_empty() {
                // A search shows every matching line (the newest window of them).
                let hits: Vec<_> = m.iter().filter(|e| entry_matches(e, &query)).collect();
                let start = hits.len().saturating_sub(window.get());
                return hits[start..]
                    .iter()
                    .map(|e| ((e.key, e.rev), (*e).clone()))
                    .collect::<Vec<_>>();
            }
            let len = m.len();
            let start = len.saturating_sub(window.get());
            m.iter()
                .skip(start)
                .map(|e| ((e.key, e.rev), e.clone()))
                .collect::<Vec<_>>()
        })
    };
    // Follow the stream only if the reader was already at the bottom.
    Effect::new(move |_| {
        table.model.track();
        if at_bottom.get_value() {
            if let Some(el) = scroller.get() {
                request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
            }
        }
    });
    let on_scroll = move |_| {
        if let Some(el) = scroller.get() {
            let bottom = el.scroll_height() - el.scroll_top() - el.client_height() < 40;
            at_bottom.set_value(bottom);
            if el.scroll_top() < 200 {
                let len = table.model.with_untracked(|m| m.len());
                if window.get_untracked() < len {
                    window.update(|w| *w += WINDOW_STEP);
                }
            }
        }
    };
    let on_choice = Callback::new(move |input: String| table.say(input));
    view! {
        <div class="transcript" node_ref=scroller on:scroll=on_scroll role="log" aria-live="polite"
            id="transcript"
            data-replays=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.count)).to_string()
            data-replayed=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.items)).to_string()
            data-replay-known=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.known)).to_string()>
            <div class="transcript-inner">
                {move || table.model.with(|m| m.is_empty()).then(|| view! {
                    <p class="transcript-empty">{tr(locale.get(), "play.empty")}</p>
                })}
                {move || {
                    let query = table.search.get();
                    (!query.trim().is_empty()).then(|| {
                        let n = table.model.with(|m| m.iter().filter(|e| entry_matches(e, &query)).count());
                        view! {
                            <p class="search-summary" id="search-summary" data-count=n>
                                {format!("{n} {}", tr(locale.get(), "story.matches"))}
                                " · "
                                <button class="link" on:click=move |_| table.search.set(String::new())>
                                    {tr(locale.get(), "story.clear")}
                                </button>
                            </p>
                        }
                    })
                }}
                <For each=visible key=|(k, _)| *k let:item>
                    <EntryView entry=item.1 on_choice=on_choice/>
                </For>
                {move || table.model.with(|m| m.turn.clone()).map(|turn| {
                    let l = locale.get();
                    let mut text = format!("{} {}", sanitize_text(&turn.actor), tr(l, "turn.busy"));
                    if let Some(a) = turn.activity.as_ref() {
                        text.push_str(&format!(" · {}", activity_word(l, a)));
                    }
                    if let Some(r) = turn.round {
                        text.push_str(&format!(" · {} {r}", tr(l, "turn.round")));
                    }
                    view! { <p class="turn-indicator" id="turn"><span class="quill"></span>{text}</p> }
                })}
            </div>
        </div>
    }
}

#[component]
fn EntryView(entry: Entry, on_choice: Callback<String>) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    match entry.body {
        EntryBody::Narrative(line) => {
            let speaker = line.speaker.as_str().to_string();
            let name =
                line.name
                    .as_deref()
                    .map(sanitize_text)
                    .unwrap_or_else(|| match line.speaker {
                        Speaker::Kp => "Keeper".into(),
                        Speaker::System => String::new(),
                        _ => String::new(),
                    });
            let text = sanitize_text(&line.text);
            let body = if line.format == TextFormat::Plain && !line.draft {
                view! { <p>{text}</p> }.into_any()
            } else {
                markdown(&text).into_any()
            };
            view! {
                <article class="entry narrative" data-speaker=speaker class:draft=line.draft>
                    {(!name.is_empty()).then(|| view! { <header class="speaker">{name}</header> })}
                    <div class="body">{body}</div>
                </article>
            }
            .into_any()
        }
        EntryBody::Dice(dice) => view! { <DiceLine dice=*dice/> }.into_any(),
        EntryBody::System {
            level,
            text,
            spinner,
        } => view! {
            <p class="entry system" data-level=level.as_str().to_string() class:spinner=spinner>
                {sanitize_text(&text)}
            </p>
        }
        .into_any(),
        EntryBody::Error { code, message } => view! {
            <p class="entry error" data-code=code.as_str().to_string()>{sanitize_text(&message)}</p>
        }
        .into_any(),
        EntryBody::Ui(ui) => view! {
            <div class="entry ui-inline"><UiBlocksView blocks=ui.blocks on_choice=on_choice/></div>
        }
        .into_any(),
        EntryBody::TitleCard(card) => {
            let mut line = String::new();
            if let Some(act) = card.act.as_deref() {
                line.push_str(&sanitize_text(act));
                line.push_str(" · ");
            }
            line.push_str(&sanitize_text(&card.title));
            view! { <p class="entry title-line">"— "{line}" —"</p> }.into_any()
        }
        EntryBody::PendingInput(pending) => {
            let lost = pending.failed == Some(InputFailure::NotDelivered);
            let failure = pending.failed.map(|f| match f {
                InputFailure::Refused { message, .. } => sanitize_text(&message),
                InputFailure::TimedOut => tr(locale.get_untracked(), "input.timeout").to_string(),
                InputFailure::NotDelivered => {
                    tr(locale.get_untracked(), "input.not_delivered").to_string()
                }
            });
            let failed = failure.is_some();
            let key = entry.key;
            let text = pending.text.clone();
            let table = use_context::<crate::table::Table>();
            view! {
                <article class="entry narrative pending" data-speaker="player" class:failed=failed class:lost=lost>
                    <div class="body"><p>{sanitize_text(&pending.text)}</p></div>
                    <footer class="pending-note">
                        {failure.unwrap_or_else(|| tr(locale.get_untracked(), "input.sending").to_string())}
                        {(lost && table.is_some()).then(|| {
                            let table = table.expect("checked");
                            let again = text.clone();
                            view! {
                                " · "
                                <button class="link retry-line" on:click=move |_| table.retry(key, again.clone(), false)>
                                    {tr(locale.get_untracked(), "input.retry")}
                                </button>
                                " · "
                                <button class="link edit-line" on:click=move |_| table.retry(key, text.clone(), true)>
                                    {tr(locale.get_untracked(), "input.edit")}
                                </button>
                            }
                        })}
                    </footer>
                </article>
            }
            .into_any()
        }
    }
}

/// What the Keeper is doing, in the player's words (an activity Studio does not know shows as
/// the engine named it).
fn activity_word(l: crate::i18n::Locale, a: &protocol::frame::Activity) -> String {
    use protocol::frame::Activity;
    let key = match a {
        Activity::Reading => "turn.reading",
        Activity::Dice => "turn.dice",
        Activity::Cast => "turn.cast",
        Activity::Bookkeeping => "turn.bookkeeping",
        other => return sanitize_text(other.as_str()),
    };
    tr(l, key).to_string()
}
