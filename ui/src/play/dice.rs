//! A dice line: actor, expression, rolls, total, target, outcome; coloured by the semantic
//! flags and shaded by tier, never by the rule system's own rank id.

use leptos::prelude::*;
use protocol::frame::{Dice, DiceKind, Outcome};
use protocol::session::sanitize_text;
use serde_json::Value;

fn tone(outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        Some(o) if o.critical => "critical",
        Some(o) if o.fumble => "fumble",
        Some(o) if o.success => "success",
        Some(_) => "failure",
        None => "plain",
    }
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn chip_text(v: &Value) -> String {
    match v {
        Value::String(s) => sanitize_text(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => items.iter().map(chip_text).collect::<Vec<_>>().join(", "),
        Value::Null => "—".into(),
        Value::Object(_) => "…".into(),
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
    let chips: Vec<(String, String)> = dice
        .detail
        .iter()
        .flatten()
        .map(|(k, v)| (sanitize_text(k), chip_text(v)))
        .collect();
    view! {
        <div class="entry dice" data-tone=tone style=format!("--tier:{}", tier.clamp(-4.0, 6.0))>
            <span class="die-icon" aria-hidden="true"></span>
            <span class="actor">{sanitize_text(&dice.actor)}</span>
            {dice.subsystem.as_deref().map(|s| view! { <span class="subsystem">{sanitize_text(s)}</span> })}
            <span class="expr">{sanitize_text(&dice.expr)}</span>
            <span class="rolls">"["{rolls}"]"</span>
            <span class="total">{number(dice.total)}</span>
            {target.map(|t| view! { <span class="target">{t}</span> })}
            {dice.outcome.as_ref().map(|o| view! { <span class="outcome">{sanitize_text(&o.label)}</span> })}
            <span class="chips">
                {chips.into_iter().map(|(k, v)| view! { <span class="chip">{k}": "{v}</span> }).collect_view()}
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
        <div class="entry dice opposed">
            <span class="expr">{sanitize_text(&dice.expr)}</span>
            <div class="sides">
                {side(dice.opposed_left(), "left")}
                <span class="versus">"vs"</span>
                {side(dice.opposed_right(), "right")}
            </div>
            {(winner.as_deref() == Some("tie")).then(|| view! { <span class="tie">"tie"</span> })}
        </div>
    }
}
