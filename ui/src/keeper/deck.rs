//! The keeper's audio deck: the room's audio library played to music, ambience or effects, and
//! each layer paused, resumed, stopped or turned up or down — sent as the keeper commands the
//! engine accepts (`.bgm play <hash-prefix> loop vol N fade MS`, `.bgm pause`, `.bgm volume N`).

use leptos::prelude::*;

use super::locale;
use crate::i18n::tr;
use crate::store::Table;

/// Enough of the hash to name one item (the engine takes a prefix of 8 or more).
fn prefix(hash: &str) -> String {
    hash.chars().take(16).collect()
}

/// The command line for playing `hash` on `layer`.
pub fn play_line(layer: &str, hash: &str, volume_pct: u32, fade_ms: u32) -> String {
    let mode = if layer == "sfx" { "once" } else { "loop" };
    let mut line = format!(".{layer} play {} {mode}", prefix(hash));
    if volume_pct != 100 {
        line.push_str(&format!(" vol {volume_pct}"));
    }
    if layer != "sfx" && fade_ms > 0 {
        line.push_str(&format!(" fade {fade_ms}"));
    }
    line
}

#[component]
pub fn DeckPage(table: Table) -> impl IntoView {
    let locale = locale();
    let volume = RwSignal::new(100u32);
    let fade = RwSignal::new(1500u32);
    let items = move || table.model.with(|m| m.audio_library.clone());
    let now = move || table.model.with(|m| m.now_playing.0.clone());
    view! {
        <h2>{move || tr(locale.get(), "keeper.page.sound")}</h2>
        <section class="card keeper-form deck-layers">
            {["bgm", "ambience"].into_iter().map(|layer| {
                let playing = move || now().get(layer).cloned();
                view! {
                    <div class="row deck-layer" data-layer=layer>
                        <strong class="deck-layer-name">{move || tr(locale.get(), if layer == "bgm" { "sound.bgm" } else { "sound.ambience" })}</strong>
                        <span class="deck-now">{move || playing().map(|p| protocol::session::sanitize_text(&p.title))
                            .unwrap_or_else(|| tr(locale.get(), "keeper.deck.silent").to_string())}</span>
                        <Show when=move || playing().is_some()>
                            {move || if playing().is_some_and(|p| p.paused) {
                                view! { <button class="secondary deck-resume" on:click=move |_| table.say(format!(".{layer} resume"))>
                                    {move || tr(locale.get(), "keeper.deck.resume")}</button> }.into_any()
                            } else {
                                view! { <button class="secondary deck-pause" on:click=move |_| table.say(format!(".{layer} pause"))>
                                    {move || tr(locale.get(), "keeper.deck.pause")}</button> }.into_any()
                            }}
                            <button class="secondary deck-stop" on:click=move |_| {
                                let f = fade.get_untracked();
                                table.say(if f > 0 { format!(".{layer} stop fade {f}") } else { format!(".{layer} stop") });
                            }>{move || tr(locale.get(), "keeper.deck.stop")}</button>
                            <label class="small">{move || tr(locale.get(), "keeper.deck.volume")}
                                <input type="range" min="0" max="100" value="100" class="deck-layer-volume"
                                    on:change=move |ev| {
                                        let v = event_target_value(&ev).parse::<u32>().unwrap_or(100);
                                        table.say(format!(".{layer} volume {v}"));
                                    }/>
                            </label>
                        </Show>
                    </div>
                }
            }).collect_view()}
        </section>
        <section class="card keeper-form">
            <div class="row">
                <label>{move || tr(locale.get(), "keeper.deck.play_volume")}
                    <input type="number" id="deck-volume" min="0" max="100" prop:value=move || volume.get().to_string()
                        on:input=move |ev| volume.set(event_target_value(&ev).parse::<u32>().unwrap_or(100).min(100))/>
                </label>
                <label>{move || tr(locale.get(), "keeper.deck.fade")}
                    <input type="number" id="deck-fade" min="0" max="20000" step="100" prop:value=move || fade.get().to_string()
                        on:input=move |ev| fade.set(event_target_value(&ev).parse::<u32>().unwrap_or(0).min(20_000))/>
                </label>
            </div>
            {move || {
                let list = items();
                if list.is_empty() {
                    view! { <p class="hint" id="deck-empty">{tr(locale.get(), "keeper.deck.empty")}</p> }.into_any()
                } else {
                    view! {
                        <ul class="deck-list">
                            {list.into_iter().map(|item| {
                                let hash = item.hash.clone();
                                let title = protocol::session::sanitize_text(item.title.as_deref().unwrap_or(&item.name));
                                view! {
                                    <li class="deck-item" data-hash=hash.clone()>
                                        <span class="deck-title">{title}</span>
                                        {["bgm", "ambience", "sfx"].into_iter().map(|layer| {
                                            let hash = hash.clone();
                                            view! {
                                                <button class="secondary deck-play" data-layer=layer
                                                    on:click=move |_| table.say(play_line(layer, &hash, volume.get_untracked(), fade.get_untracked()))>
                                                    "▶ "{move || tr(locale.get(), match layer { "bgm" => "sound.bgm", "ambience" => "sound.ambience", _ => "sound.sfx" })}
                                                </button>
                                            }
                                        }).collect_view()}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any()
                }
            }}
        </section>
    }
}
