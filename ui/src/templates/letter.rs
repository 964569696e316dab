//! `letter`: a hand-written page of stationery — date top right, the salutation, the
//! body in a hand-lettered face, the signature, and a wax seal bearing the writer's initial.

use leptos::prelude::*;
use protocol::frame::Letter;

use super::paragraphs;

#[component]
pub fn LetterView(letter: Letter) -> impl IntoView {
    let Letter {
        body,
        from,
        to,
        date,
    } = letter;
    // The seal's initial: the writer's first letter, or a fleuron for an anonymous hand.
    let initial = from
        .as_deref()
        .and_then(|f| f.trim().chars().find(|c| c.is_alphanumeric()))
        .map(|c| c.to_uppercase().collect::<String>())
        .unwrap_or_else(|| "❧".into());
    let date = date.map(|d| view! { <time class="lw-letter-date">{d}</time> });
    let to = to.map(|t| view! { <p class="lw-letter-to">{t}</p> });
    let from = from.map(|f| {
        view! {
            <p class="lw-letter-from">
                <span class="lw-letter-dash" aria-hidden="true">"~ "</span>
                {f}
            </p>
        }
    });
    let body = paragraphs(&body)
        .into_iter()
        .map(|p| view! { <p>{p}</p> })
        .collect_view();
    view! {
        <article class="lw-letter">
            <div class="lw-letter-sheet">
                <div class="lw-letter-folds" aria-hidden="true"></div>
                <header class="lw-letter-head">{date}</header>
                {to}
                <div class="lw-letter-body">{body}</div>
                <footer class="lw-letter-sign">{from}</footer>
                <div class="lw-letter-seal" aria-hidden="true">
                    <span>{initial}</span>
                </div>
            </div>
        </article>
    }
}
