//! One transcript entry as the person sees it: a story line (markdown or plain, growing while
//! it streams), a dice line, a system or error line, a title card, an inline panel, or what the
//! person sent and what became of it.

use leptos::prelude::*;
use protocol::frame::{Speaker, TextFormat};
use protocol::session::{sanitize_text, Entry, EntryBody, InputFailure};

use super::dice::DiceLine;
use crate::i18n::{tr, Locale};
use crate::markdown::{draft_cut, markdown, DraftCut};
use crate::templates::UiBlocksView;

/// A draft's text as it grows. The entry stays the same element while it streams (the
/// transcript keys a draft by its entry, not its revision); what is settled of its markdown
/// is rendered once, and each delta re-renders only the last block, or, while that block is
/// a paragraph of plain text, changes only its text.
#[component]
fn DraftBody(key: u64) -> impl IntoView {
    let table = use_context::<crate::store::Table>().expect("a table");
    // The draft is read again only when it changed (its revision), not on every change of the
    // model (another entry, the party, a sound), and parsed once per delta.
    let rev = Memo::new(move |_| table.model.with(|m| m.entry_by_key(key).map(|e| e.rev)));
    let draft = Memo::new(move |_| {
        // Read, not only tracked: a memo computes (and subscribes to the model) when read, so a
        // `track()` alone left `rev` never computed and the draft frozen at its first words.
        let _ = rev.get();
        table.model.with_untracked(|m| {
            let text = match m.entry_by_key(key).map(|e| &e.body) {
                Some(EntryBody::Narrative(line)) => sanitize_text(&line.text),
                _ => String::new(),
            };
            let DraftCut { cut, plain } = draft_cut(&text);
            let growing = plain.is_none().then(|| text[cut..].to_string());
            (text[..cut].to_string(), growing, plain)
        })
    });
    let settled_part = Memo::new(move |_| draft.with(|(s, _, _)| s.clone()));
    let growing = Memo::new(move |_| draft.with(|(_, g, _)| g.clone()));
    let plain = Memo::new(move |_| draft.with(|(_, _, p)| p.clone()));
    let is_plain = Memo::new(move |_| plain.with(Option::is_some));
    view! {
        {move || settled_part.with(|t| markdown(t))}
        {move || if is_plain.get() {
            view! { <p>{move || plain.get().unwrap_or_default()}</p> }.into_any()
        } else {
            growing.with(|t| markdown(t.as_deref().unwrap_or_default())).into_any()
        }}
    }
}

#[component]
pub(super) fn EntryView(entry: Entry, on_choice: Callback<String>) -> impl IntoView {
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
            let body = if line.draft {
                view! { <DraftBody key=entry.key/> }.into_any()
            } else if line.format == TextFormat::Plain {
                view! { <p>{text}</p> }.into_any()
            } else {
                markdown(&text).into_any()
            };
            view! {
                <div role="listitem" class="entry narrative" data-speaker=speaker class:draft=line.draft>
                    {(!name.is_empty()).then(|| view! { <header class="speaker">{name}</header> })}
                    <div class="body">{body}</div>
                </div>
            }
            .into_any()
        }
        EntryBody::Dice(dice) => view! { <DiceLine dice=*dice/> }.into_any(),
        EntryBody::System {
            level,
            text,
            spinner,
        } => view! {
            <p role="listitem" class="entry system" data-level=level.as_str().to_string() class:spinner=spinner>
                {sanitize_text(&text)}
            </p>
        }
        .into_any(),
        EntryBody::Error { code, message } => view! {
            <p role="listitem" class="entry error" data-code=code.as_str().to_string()>{sanitize_text(&message)}</p>
        }
        .into_any(),
        EntryBody::Ui(ui) => view! {
            <div role="listitem" class="entry ui-inline"><UiBlocksView blocks=ui.blocks on_choice=on_choice/></div>
        }
        .into_any(),
        EntryBody::TitleCard(card) => {
            let mut line = String::new();
            if let Some(act) = card.act.as_deref() {
                line.push_str(&sanitize_text(act));
                line.push_str(" · ");
            }
            line.push_str(&sanitize_text(&card.title));
            view! { <p role="listitem" class="entry title-line">"— "{line}" —"</p> }.into_any()
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
            let table = use_context::<crate::store::Table>();
            view! {
                <div role="listitem" class="entry narrative pending" data-speaker="player" class:failed=failed class:lost=lost>
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
                </div>
            }
            .into_any()
        }
    }
}
