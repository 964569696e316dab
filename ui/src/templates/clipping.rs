//! `clipping`: a cutting from a newspaper — masthead line with source and date, a serif
//! headline, the story set in columns when it runs long, torn top and bottom edges.

use leptos::prelude::*;
use protocol::frame::Clipping;

use super::paragraphs;

/// Past this many characters the story is set in two columns.
const COLUMNS_FROM: usize = 420;

#[component]
pub fn ClippingView(clipping: Clipping) -> impl IntoView {
    let Clipping {
        headline,
        body,
        source,
        date,
    } = clipping;
    let long = body.chars().count() >= COLUMNS_FROM;
    // A slight, stable tilt per clipping so a stack of them looks pasted by hand.
    let tilt = match headline.len() % 3 {
        0 => "-0.9deg",
        1 => "0.7deg",
        _ => "-0.4deg",
    };
    let masthead = (source.is_some() || date.is_some()).then(|| {
        view! {
            <div class="lw-clip-mast">
                <span class="lw-clip-source">{source}</span>
                <span class="lw-clip-date">{date}</span>
            </div>
        }
    });
    let body = paragraphs(&body)
        .into_iter()
        .map(|p| view! { <p>{p}</p> })
        .collect_view();
    view! {
        <figure class="lw-clipping" style=format!("--lw-clip-tilt: {tilt}")>
            <div class="lw-clip-paper">
                {masthead}
                <h3 class="lw-clip-headline">{headline}</h3>
                <div class="lw-clip-body" class:columns=long>{body}</div>
            </div>
        </figure>
    }
}
