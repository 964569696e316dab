//! A dice line: actor, expression, rolls, total, target, outcome; coloured by the semantic
//! flags and shaded by tier, never by the rule system's own rank id.

use leptos::prelude::*;
use protocol::frame::{Dice, DiceKind, Outcome};
use protocol::session::export::number;
use protocol::session::{dice_chips, key_words, sanitize_text, DiceChip};

use crate::i18n::{t, Locale};

fn tone(outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        Some(o) if o.critical => "critical",
        Some(o) if o.fumble => "fumble",
        Some(o) if o.success => "success",
        Some(_) => "failure",
        None => "plain",
    }
}

/// A detail key in the player's language: the words the engines use most, else the key itself
/// in words.
fn chip_word(locale: Locale, key: &str) -> String {
    let known = match key {
        "critical_success" => Some(("Critical success", "大成功")),
        "critical_failure" => Some(("Critical failure", "大失败")),
        "proficient" => Some(("Proficient", "熟练")),
        "advantage" => Some(("Advantage", "优势")),
        "disadvantage" => Some(("Disadvantage", "劣势")),
        "modifier" => Some(("Modifier", "调整值")),
        "bonus" => Some(("Bonus", "奖励骰")),
        "penalty" => Some(("Penalty", "惩罚骰")),
        "loss" => Some(("Loss", "损失")),
        "loss_expr" => Some(("Loss roll", "损失骰")),
        "remaining" => Some(("Remaining", "剩余")),
        _ => None,
    };
    match (known, locale) {
        (Some((_, zh)), Locale::Zh) => zh.to_string(),
        (Some((en, _)), _) => en.to_string(),
        (None, _) => key_words(key),
    }
}

fn chip_view(locale: Locale, chip: DiceChip) -> impl IntoView {
    let word = chip_word(locale, chip.key());
    match chip {
        DiceChip::Flag { .. } => view! { <span class="chip flag">{word}</span> }.into_any(),
        DiceChip::Value { text, .. } => {
            view! { <span class="chip">{word}": "{text}</span> }.into_any()
        }
    }
}

#[component]
pub fn DiceLine(dice: Dice) -> impl IntoView {
    if dice.kind == DiceKind::Opposed {
        return opposed(&dice).into_any();
    }
    let tone = tone(dice.outcome.as_ref());
    let tier = dice.outcome.as_ref().map(|o| o.tier).unwrap_or(0.0);
    let rolls = dice
        .rolls
        .iter()
        .map(|r| number(*r))
        .collect::<Vec<_>>()
        .join(" ");
    let target = match (dice.target, dice.effective_target) {
        (Some(t), Some(e)) if e != t => Some(format!("≤ {} ({})", number(e), number(t))),
        (Some(t), _) => Some(format!("≤ {}", number(t))),
        (None, Some(e)) => Some(format!("≤ {}", number(e))),
        _ => None,
    };
    let locale = use_context::<RwSignal<Locale>>()
        .map(|l| l.get_untracked())
        .unwrap_or(Locale::En);
    let chips = dice.detail.as_ref().map(dice_chips).unwrap_or_default();
    view! {
        <div role="listitem" class="entry dice" data-tone=tone style=format!("--tier:{}", tier.clamp(-4.0, 6.0))>
            <span class="die-icon" aria-hidden="true"></span>
            <span class="actor">{sanitize_text(&dice.actor)}</span>
            {dice.subsystem.as_deref().map(|s| view! { <span class="subsystem">{sanitize_text(s)}</span> })}
            <span class="expr">{sanitize_text(&dice.expr)}</span>
            <span class="rolls">"["{rolls}"]"</span>
            <span class="total">{number(dice.total)}</span>
            {target.map(|t| view! { <span class="target">{t}</span> })}
            {dice.outcome.as_ref().map(|o| view! { <span class="outcome">{sanitize_text(&o.label)}</span> })}
            <span class="chips">
                {chips.into_iter().map(|c| chip_view(locale, c)).collect_view()}
            </span>
        </div>
    }
    .into_any()
}

fn opposed(dice: &Dice) -> impl IntoView {
    let winner = dice.opposed_winner().map(|w| w.as_str().to_string());
    let side = |side: Option<protocol::frame::OpposedSide>, which: &'static str| {
        side.map(|s| {
            let won = winner.as_deref() == Some(which);
            view! {
                <div class="side" class:won=won data-tone=tone(s.outcome.as_ref())>
                    <span class="actor">{sanitize_text(&s.name)}</span>
                    <span class="total">{number(s.total)}</span>
                    {s.target.map(|t| view! { <span class="target">"≤ "{number(t)}</span> })}
                    {s.outcome.as_ref().map(|o| view! { <span class="outcome">{sanitize_text(&o.label)}</span> })}
                </div>
            }
        })
    };
    view! {
        <div role="listitem" class="entry dice opposed">
            <span class="expr">{sanitize_text(&dice.expr)}</span>
            <div class="sides">
                {side(dice.opposed_left(), "left")}
                <span class="versus">{t("dice.vs")}</span>
                {side(dice.opposed_right(), "right")}
            </div>
            {(winner.as_deref() == Some("tie")).then(|| view! { <span class="tie">{t("dice.tie")}</span> })}
        </div>
    }
}
