//! The sound popover: what plays at the table, and the person's own levels on top of the
//! table's — master and per layer, each with a mute — remembered across restarts (in this
//! profile's WebView storage) and applied by the backend's mixer.

use leptos::prelude::*;
use sound::levels::Levels;

use crate::i18n::{tr, Locale};
use crate::store::Table;

const KEY: &str = "studio.sound";
const LAYERS: [&str; 3] = ["bgm", "ambience", "sfx"];

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load() -> Levels {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn apply(levels: &Levels) {
    if let Some(s) = storage() {
        if let Ok(t) = serde_json::to_string(levels) {
            let _ = s.set_item(KEY, &t);
        }
    }
    let set = ipc::cmd::SetSoundLevels {
        levels: levels.clone(),
    };
    leptos::task::spawn_local(async move {
        let _ = crate::bridge::call(&set).await;
    });
}

/// The remembered levels go to the mixer when the app starts.
pub fn restore() {
    let levels = load();
    if levels != Levels::default() {
        apply(&levels);
    }
}

fn layer_word(layer: &str) -> &'static str {
    match layer {
        "bgm" => "sound.bgm",
        "ambience" => "sound.ambience",
        "sfx" => "sound.sfx",
        _ => "sound.master",
    }
}

/// The status bar's sound item: what plays (if anything), and the popover.
#[component]
pub fn SoundMenu(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let open = RwSignal::new(false);
    let levels = RwSignal::new(load());
    let report = RwSignal::new(ipc::SoundReport::default());
    // Meters refresh while the popover is open.
    crate::clock::tick_while(
        move || open.get(),
        std::time::Duration::from_millis(250),
        move || {
            leptos::task::spawn_local(async move {
                if let Ok(r) = crate::bridge::call(&ipc::cmd::GetSoundReport {}).await {
                    let _ = report.try_set(r);
                }
            });
        },
    );
    let change = move |f: &dyn Fn(&mut Levels)| {
        levels.update(|l| f(l));
        apply(&levels.get_untracked());
    };
    let playing = move || table.model.with(|m| m.now_playing.0.clone());
    let all_muted = move || levels.with(|l| l.muted);
    view! {
        <span class="sound-menu">
            <button class="link" id="sound-button" aria-haspopup="dialog"
                aria-expanded=move || open.get().to_string()
                title=move || tr(locale.get(), "status.audio")
                on:click=move |_| open.update(|o| *o = !*o)>
                <span class="icon" class:icon-sound=move || !all_muted() class:icon-sound-off=all_muted aria-hidden="true"></span>
                // Its name is its words: "Audio", then what plays (a label would hide the title).
                <span class="visually-hidden">{move || tr(locale.get(), "status.audio")}</span>
                {move || {
                    let p = playing();
                    (!p.is_empty()).then(|| view! {
                        <span class="now-playing" id="now-playing">
                            {p.into_iter().map(|(layer, p)| view! {
                                <span class="layer" data-layer=layer class:paused=p.paused
                                    title=protocol::session::sanitize_text(&p.title)>
                                    "♪ "{super::clip::clip(&protocol::session::sanitize_text(&p.title), 24)}
                                </span>
                            }).collect_view()}
                        </span>
                    })
                }}
            </button>
            <Show when=move || open.get()>
                <crate::focus::Scope on_escape=Callback::new(move |_| open.set(false))>
                <div class="sound-popover" id="sound-popover" role="dialog"
                    aria-label=move || tr(locale.get(), "status.audio")
                    data-output-peak=move || report.with(|r| r.output_peak.map(|p| format!("{p:.3}")).unwrap_or_default())>
                    <div class="sound-row master">
                        <span class="sound-name">{move || tr(locale.get(), "sound.master")}</span>
                        <input type="range" id="vol-master" min="0" max="100"
                            aria-label=move || tr(locale.get(), "sound.master")
                            prop:value=move || (levels.with(|l| l.master) * 100.0).round().to_string()
                            on:input=move |ev| {
                                let v = event_target_value(&ev).parse::<f32>().unwrap_or(100.0) / 100.0;
                                change(&|l| l.set("master", v));
                            }/>
                        <button class="link" id="mute-all" aria-pressed=move || all_muted().to_string()
                            on:click=move |_| change(&|l| l.muted = !l.muted)>
                            {move || tr(locale.get(), if all_muted() { "sound.unmute" } else { "sound.mute" })}
                        </button>
                    </div>
                    {LAYERS.into_iter().map(|layer| {
                        let muted = move || levels.with(|l| l.layer_muted(layer));
                        let level = move || report.with(|r| r.layers.iter().find(|(n, _)| n == layer).map_or(0.0, |(_, v)| *v));
                        let title = move || playing().get(layer).map(|p| protocol::session::sanitize_text(&p.title)).unwrap_or_default();
                        view! {
                            <div class="sound-row" data-layer=layer>
                                <span class="sound-name">{move || tr(locale.get(), layer_word(layer))}
                                    <span class="sound-title">{title}</span>
                                </span>
                                <input type="range" min="0" max="100" id=format!("vol-{layer}")
                                    aria-label=move || tr(locale.get(), layer_word(layer))
                                    prop:value=move || (levels.with(|l| l.get(layer)) * 100.0).round().to_string()
                                    on:input=move |ev| {
                                        let v = event_target_value(&ev).parse::<f32>().unwrap_or(100.0) / 100.0;
                                        change(&|l| l.set(layer, v));
                                    }/>
                                <label class="mute-layer small">
                                    <input type="checkbox" class="mute-layer-box" data-layer=layer prop:checked=muted
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            change(&|l| {
                                                l.muted_layers.retain(|x| x != layer);
                                                if on { l.muted_layers.push(layer.to_string()); }
                                            });
                                        }/>
                                    {move || tr(locale.get(), "sound.mute")}
                                </label>
                                <span class="level" data-layer=layer data-level=move || format!("{:.3}", level())>
                                    <span class="level-bar" style=move || format!("width: {:.0}%", (level() * 100.0).clamp(0.0, 100.0))></span>
                                </span>
                            </div>
                        }
                    }).collect_view()}
                </div>
                </crate::focus::Scope>
            </Show>
        </span>
    }
}
