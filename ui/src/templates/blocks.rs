//! The plain blocks: meter, stat, badge, text, divider and choices.

use leptos::prelude::*;
use protocol::frame::{Badge, BadgeTone, Choices, Meter, Stat, TextBlock, TextStyle};

use super::number;

/// A labelled bar; the fill is `(value - min) / (max - min)`, clamped.
#[component]
pub fn MeterView(meter: Meter) -> impl IntoView {
    let Meter {
        label,
        value,
        min,
        max,
    } = meter;
    let span = max - min;
    let fraction = if span.is_finite() && span > 0.0 && value.is_finite() {
        ((value - min) / span).clamp(0.0, 1.0)
    } else if value.is_finite() && max.is_finite() && value >= max {
        1.0
    } else {
        0.0
    };
    let readout = format!("{} / {}", number(value), number(max));
    let width = format!("width: {:.2}%", fraction * 100.0);
    view! {
        <div class="lw-meter">
            <div class="lw-meter-head">
                <span class="lw-meter-label">{label.clone()}</span>
                <span class="lw-meter-value">{readout.clone()}</span>
            </div>
            <div
                class="lw-meter-track"
                role="meter"
                aria-label=label
                aria-valuemin=number(min)
                aria-valuemax=number(max)
                aria-valuenow=number(value)
                aria-valuetext=readout
            >
                <div class="lw-meter-fill" style=width></div>
            </div>
        </div>
    }
}

/// `label: value` on one line; the value in tabular figures.
#[component]
pub fn StatView(stat: Stat) -> impl IntoView {
    view! {
        <div class="lw-stat">
            <span class="lw-stat-label">{stat.label}</span>
            <span class="lw-stat-value">{stat.value.to_display_string()}</span>
        </div>
    }
}

/// A pill in one of three tones (an unknown tone reads as info).
#[component]
pub fn BadgeView(badge: Badge) -> impl IntoView {
    let tone = match badge.tone {
        Some(BadgeTone::Warn) => "warn",
        Some(BadgeTone::Danger) => "danger",
        _ => "info",
    };
    view! {
        <span class="lw-badge" data-tone=tone>
            <span class="lw-badge-dot" aria-hidden="true"></span>
            {badge.label}
        </span>
    }
}

/// Prose, a quotation, or a warning.
#[component]
pub fn TextView(text: TextBlock) -> impl IntoView {
    match text.style {
        Some(TextStyle::Quote) => view! {
            <blockquote class="lw-text lw-quote">{text.text}</blockquote>
        }
        .into_any(),
        Some(TextStyle::Warning) => view! {
            <div class="lw-text lw-warning" role="note">
                <span class="lw-warning-icon" aria-hidden="true">"⚠"</span>
                <span>{text.text}</span>
            </div>
        }
        .into_any(),
        _ => view! { <p class="lw-text">{text.text}</p> }.into_any(),
    }
}

/// An ornamental rule.
#[component]
pub fn DividerView() -> impl IntoView {
    view! {
        <div class="lw-divider" role="separator">
            <span class="lw-divider-line"></span>
            <span class="lw-divider-mark" aria-hidden="true">"❦"</span>
            <span class="lw-divider-line"></span>
        </div>
    }
}

/// A prompt and its options. One pick sends that option's `input` and settles the block:
/// the picked option stays marked and every button disables.
#[component]
pub fn ChoicesView(choices: Choices, on_choice: Callback<String>) -> impl IntoView {
    let picked = RwSignal::new(None::<usize>);
    let prompt = choices
        .prompt
        .map(|p| view! { <p class="lw-choices-prompt">{p}</p> });
    let options = choices
        .options
        .into_iter()
        .enumerate()
        .map(|(i, option)| {
            let input = option.input;
            // The exact words this option sends, before the person picks it.
            let input_shown = input.clone();
            let pick = move |_| {
                if picked.get_untracked().is_none() {
                    picked.set(Some(i));
                    on_choice.run(input.clone());
                }
            };
            let is_picked = move || picked.get() == Some(i);
            view! {
                <button
                    type="button"
                    class="lw-choice"
                    title=input_shown.clone()
                    class:picked=is_picked
                    aria-pressed=move || is_picked().to_string()
                    disabled=move || picked.get().is_some()
                    on:click=pick
                >
                    <span class="lw-choice-mark" aria-hidden="true">
                        {move || if is_picked() { "✓" } else { "›" }}
                    </span>
                    <span class="lw-choice-label">{option.label}</span>
                </button>
            }
        })
        .collect_view();
    view! {
        <div class="lw-choices" class:settled=move || picked.get().is_some()>
            {prompt}
            <div class="lw-choices-options">{options}</div>
        </div>
    }
}
