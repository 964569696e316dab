//! `title_card`: a full-bleed act card over the play area, and the compact line the
//! transcript keeps once it has been dismissed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use leptos::prelude::*;
use protocol::frame::TitleCard;

/// How long the card holds before it leaves by itself.
const HOLD: Duration = Duration::from_millis(5200);
/// The fade-out, matching `.lw-act-card.leaving` in templates.css.
const FADE: Duration = Duration::from_millis(600);

/// The act card: covers its positioned parent (`position: absolute; inset: 0`), fades in,
/// and leaves on a click, Escape/Enter/Space, or after a few seconds — then `on_dismiss`
/// runs once, and the caller keeps a compact line (`UiBlockView` renders one) instead.
#[component]
pub fn TitleCardOverlay(
    title: String,
    subtitle: Option<String>,
    act: Option<String>,
    #[prop(into)] on_dismiss: Callback<()>,
) -> impl IntoView {
    let leaving = RwSignal::new(false);
    // Timers may outlive the card; once it is gone they must do nothing.
    let alive = Arc::new(AtomicBool::new(true));
    let fired = Arc::new(AtomicBool::new(false));
    let finish = {
        let alive = alive.clone();
        move || {
            if alive.load(Ordering::Relaxed) && !fired.swap(true, Ordering::Relaxed) {
                on_dismiss.run(());
            }
        }
    };
    let leave = {
        let alive = alive.clone();
        move || {
            if alive.load(Ordering::Relaxed) && leaving.try_get_untracked() == Some(false) {
                leaving.try_set(true);
                set_timeout(finish.clone(), FADE);
            }
        }
    };
    set_timeout(leave.clone(), HOLD);
    // Escape dismisses from anywhere; Enter/Space when the card itself has focus.
    let escape = window_event_listener(leptos::ev::keydown, {
        let leave = leave.clone();
        move |ev| {
            if ev.key() == "Escape" {
                leave();
            }
        }
    });
    on_cleanup(move || {
        alive.store(false, Ordering::Relaxed);
        escape.remove();
    });
    let on_key = {
        let leave = leave.clone();
        move |ev: leptos::ev::KeyboardEvent| {
            if matches!(ev.key().as_str(), "Enter" | " ") {
                ev.prevent_default();
                leave();
            }
        }
    };
    let act = act.map(|a| {
        view! {
            <p class="lw-act-card-act">
                <span class="lw-act-card-rule" aria-hidden="true"></span>
                <span>{a}</span>
                <span class="lw-act-card-rule" aria-hidden="true"></span>
            </p>
        }
    });
    let subtitle = subtitle.map(|s| view! { <p class="lw-act-card-subtitle">{s}</p> });
    let label = title.clone();
    view! {
        <div
            class="lw-act-card"
            class:leaving=move || leaving.get()
            role="dialog"
            aria-label=label
            tabindex="0"
            on:click=move |_| leave()
            on:keydown=on_key
        >
            <div class="lw-act-card-vignette" aria-hidden="true"></div>
            <div class="lw-act-card-inner">
                {act}
                <h1 class="lw-act-card-title">{title}</h1>
                <span class="lw-act-card-ornament" aria-hidden="true">"✦"</span>
                {subtitle}
            </div>
            <div class="lw-act-card-timer" aria-hidden="true"></div>
        </div>
    }
}

/// The transcript's record of an act card: "— Act I · The Lighthouse —", centred.
#[component]
pub fn TitleCardLine(card: TitleCard) -> impl IntoView {
    let TitleCard {
        title,
        subtitle,
        act,
    } = card;
    let act = act.map(|a| {
        view! {
            <span class="lw-act-line-act">{a}</span>
            <span class="lw-act-line-sep" aria-hidden="true">" · "</span>
        }
    });
    let subtitle = subtitle.map(|s| view! { <span class="lw-act-line-sub">{s}</span> });
    view! {
        <h2 class="lw-act-line">
            <span class="lw-act-line-rule" aria-hidden="true"></span>
            <span class="lw-act-line-text">
                <span class="lw-act-line-main">{act} <span class="lw-act-line-title">{title}</span></span>
                {subtitle}
            </span>
            <span class="lw-act-line-rule" aria-hidden="true"></span>
        </h2>
    }
}
