//! The sidebar: character, party, initiative, scene and clock, variables, pregens, usage,
//! presence, then the `ui` sidebar regions. Labels are shown exactly as sent, in wire order.

use leptos::prelude::*;
use protocol::frame::{Resource, Scalar, State, Variable, VariableKind};
use protocol::session::sanitize_text;

use crate::i18n::{tr, Locale};
use crate::store::Table;
use crate::templates::{media_url, UiBlocksView};

fn scalar(v: &Scalar) -> String {
    match v {
        Scalar::Null => "—".into(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(n) if n.fract() == 0.0 => format!("{}", *n as i64),
        Scalar::Number(n) => n.to_string(),
        Scalar::Text(t) => sanitize_text(t),
    }
}

fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => sanitize_text(s),
        other => sanitize_text(&other.to_string()),
    }
}

fn meters(resources: &[Resource]) -> impl IntoView {
    resources
        .iter()
        .map(|r| {
            let pct = r
                .max
                .filter(|m| *m > 0.0)
                .map(|m| (r.value / m * 100.0).clamp(0.0, 100.0));
            let value = match r.max {
                Some(m) => format!("{} / {}", r.value, m),
                None => r.value.to_string(),
            };
            view! {
                <div class="meter resource" data-id=sanitize_text(&r.id)>
                    <div class="meter-head"><span>{sanitize_text(&r.label)}</span><span class="value">{value}</span></div>
                    {pct.map(|p| view! { <div class="meter-track"><div class="meter-fill" style=format!("width:{p:.1}%")></div></div> })}
                </div>
            }
        })
        .collect_view()
}

fn variable_row(v: &Variable) -> impl IntoView {
    let keeper_only = use_context::<RwSignal<Locale>>()
        .map(|l| tr(l.get_untracked(), "sidebar.keeper_only"))
        .unwrap_or("keeper only");
    let hidden = v.hidden.unwrap_or(false);
    let label = sanitize_text(&v.label);
    let body = match (&v.kind, &v.value, v.min, v.max) {
        (VariableKind::Number, Scalar::Number(n), Some(min), Some(max)) if max > min => {
            let pct = ((n - min) / (max - min) * 100.0).clamp(0.0, 100.0);
            view! {
                <div class="meter-head"><span>{label}</span><span class="value">{scalar(&v.value)}" / "{max}</span></div>
                <div class="meter-track"><div class="meter-fill" style=format!("width:{pct:.1}%")></div></div>
            }
            .into_any()
        }
        (_, Scalar::Bool(b), _, _) => view! {
            <label class="var-bool"><input type="checkbox" disabled=true prop:checked=*b/>{label}</label>
        }
        .into_any(),
        _ => view! { <div class="meter-head"><span>{label}</span><span class="value">{scalar(&v.value)}</span></div> }
            .into_any(),
    };
    view! {
        <div class="variable" class:hidden-var=hidden title=if hidden { keeper_only } else { "" }>
            {hidden.then(|| view! { <span class="lock" role="img" title=keeper_only aria-label=keeper_only></span> })}
            {body}
        </div>
    }
}

#[component]
pub fn Sidebar(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let state = Memo::new(move |_| table.model.with(|m| m.state.clone()));
    let regions = Memo::new(move |_| table.model.with(|m| m.sidebar().to_vec()));
    // Drawn anew only when they change, not on every change of the model (a delta, a pong):
    // redrawing the shared pictures made new images each time, and work for the collector
    // while the table sat idle.
    let shared = Memo::new(move |_| {
        let sounds = table.model.with(|m| m.audio_library.clone());
        (super::gallery::pictures(table), sounds)
    });
    let presence = Memo::new(move |_| table.model.with(|m| m.presence.clone()));
    let on_choice = Callback::new(move |input: String| table.say(input));
    let section = move |key: &'static str| tr(locale.get(), key);
    let claim = move |name: String| table.say(format!(".pc claim {name}"));
    let super::gallery::Gallery(gallery) = use_context().expect("gallery");
    view! {
        <aside class="sidebar" aria-labelledby="sidebar-title">
            <h2 class="visually-hidden" id="sidebar-title">{move || tr(locale.get(), "sidebar.label")}</h2>
            <super::character::NewCharacter table=table/>
            {move || state.get().map(|s: State| view! {
                {s.character.clone().map(|c| view! {
                    <section class="card character" id="character">
                        <div class="char-head">
                            {c.avatar.as_ref().map(|a| view! {
                                <img class="avatar" alt="" src=media_url(&a.hash, Some(&a.mime), Some(a.size))/>
                            })}
                            <div><h3>{sanitize_text(&c.name)}</h3><span class="system">{sanitize_text(&c.system)}</span></div>
                        </div>
                        {meters(&c.resources)}
                        {(!c.attributes.is_empty()).then(|| view! {
                            <dl class="attributes">
                                {c.attributes.iter().map(|(k, v)| view! { <div><dt>{sanitize_text(k)}</dt><dd>{json_text(v)}</dd></div> }).collect_view()}
                            </dl>
                        })}
                        {(!c.status_effects.is_empty()).then(|| view! {
                            <div class="effects">{c.status_effects.iter().map(|e| view! { <span class="chip">{json_text(e)}</span> }).collect_view()}</div>
                        })}
                    </section>
                })}
                {(!s.party.is_empty()).then(|| view! {
                    <section class="card party" id="party">
                        <h3 class="card-label">{section("side.party")}</h3>
                        {s.party.iter().map(|p| view! {
                            <div class="member" class:online=p.online class:active=p.active>
                                <span class="presence-dot"></span>
                                {p.avatar.as_ref().map(|a| view! {
                                    <img class="avatar small" alt="" src=media_url(&a.hash, Some(&a.mime), Some(a.size))/>
                                })}
                                <span class="name">{sanitize_text(&p.name)}</span>
                                {p.ai.unwrap_or(false).then(|| view! { <span class="chip">"AI"</span> })}
                                {p.resources.as_deref().map(meters)}
                            </div>
                        }).collect_view()}
                    </section>
                })}
                {(!s.initiative.is_empty()).then(|| view! {
                    <section class="card initiative">
                        <h3 class="card-label">{section("side.initiative")}</h3>
                        <ol>{s.initiative.iter().map(|i| view! {
                            <li class:current=i.current><span>{sanitize_text(&i.name)}</span><span class="value">{i.value}</span></li>
                        }).collect_view()}</ol>
                    </section>
                })}
                {(s.scene.is_some() || s.clock.is_some()).then(|| view! {
                    <section class="card scene">
                        {s.scene.as_ref().map(|sc| view! {
                            <h3 class="card-label">{sanitize_text(&sc.name)}</h3>
                            {sc.focus.as_deref().map(|f| view! { <p class="focus">{sanitize_text(f)}</p> })}
                        })}
                        {s.clock.as_ref().map(|c| view! {
                            <p class="clock"><span class="clock-icon" aria-hidden="true"></span>{scalar(&c.time)}{c.round.map(|r| format!(" · {} {r}", tr(locale.get_untracked(), "turn.round")))}</p>
                        })}
                    </section>
                })}
                {s.variables.clone().filter(|v| !v.is_empty()).map(|vars| view! {
                    <section class="card variables" id="variables">
                        <h3 class="card-label">{section("side.variables")}</h3>
                        {vars.iter().map(|v| view! {
                            <div class="variable-row" data-var=v.id.clone()>
                                {variable_row(v)}
                                <crate::keeper::VarEditor table=table var=v.clone()/>
                            </div>
                        }).collect_view()}
                    </section>
                })}
                {s.pregens.clone().filter(|p| !p.is_empty()).map(|pregens| view! {
                    <section class="card pregens">
                        <h3 class="card-label">{section("side.pregens")}</h3>
                        {pregens.into_iter().map(|p| {
                            let name = p.name.clone();
                            let claimed = !p.claimed_by.is_empty();
                            view! {
                                <div class="pregen">
                                    <span>{sanitize_text(&p.name)}</span>
                                    <button class="link" disabled=claimed on:click=move |_| claim(name.clone())>
                                        {if claimed { section("side.claimed") } else { section("side.claim") }}
                                    </button>
                                </div>
                            }
                        }).collect_view()}
                    </section>
                })}
                {s.usage.clone().map(|u| {
                    let pct = if u.context_window > 0 { (u.context_tokens as f64 / u.context_window as f64 * 100.0).min(100.0) } else { 0.0 };
                    view! {
                        <section class="card usage">
                            <h3 class="card-label">{section("side.usage")}</h3>
                            <div class="meter-track"><div class="meter-fill" style=format!("width:{pct:.1}%")></div></div>
                            <p class="small">{u.context_tokens}" / "{u.context_window}" · in "{u.input_tokens}" · out "{u.output_tokens}" · cache "{u.cache_hit_tokens}"/"{u.cache_miss_tokens}</p>
                        </section>
                    }
                })}
            })}
            {move || {
                let (all, sounds) = shared.get();
                let total = all.len();
                // The newest nine as thumbnails (each opens the viewer); the gallery has them all.
                let pictures: Vec<(usize, _)> = all.into_iter().enumerate().rev().take(9).collect();
                (!pictures.is_empty() || !sounds.is_empty()).then(|| view! {
                    <section class="card shared" id="shared">
                        <h3 class="card-label">{section("side.shared")}</h3>
                        <div class="shared-media">
                            {pictures.into_iter().map(|(i, p)| view! {
                                <button class="thumb" data-index=i.to_string()
                                    on:click=move |_| gallery.set(Some(super::gallery::Showing::Picture(i)))>
                                    <img src=media_url(&p.hash, Some(&p.mime), Some(p.size)) alt=sanitize_text(&p.name)
                                        title=format!("{} · {}", sanitize_text(&p.name), sanitize_text(&p.from))/>
                                </button>
                            }).collect_view()}
                        </div>
                        <button class="link" id="open-gallery" on:click=move |_| gallery.set(Some(super::gallery::Showing::Grid))>
                            {move || tr(locale.get(), "gallery.all").replace("{n}", &total.to_string())}
                        </button>
                        {(!sounds.is_empty()).then(|| view! {
                            <ul class="shared-audio">
                                {sounds.into_iter().map(|a| view! {
                                    <li>{sanitize_text(a.title.as_deref().unwrap_or(&a.name))}</li>
                                }).collect_view()}
                            </ul>
                        })}
                    </section>
                })
            }}
            {move || presence.get().map(|p| view! {
                <section class="card presence">
                    <h3 class="card-label">{section("side.presence")}" · "{p.online}</h3>
                    {p.players.iter().map(|pl| view! {
                        <span class="member" class:online=pl.online><span class="presence-dot"></span>{sanitize_text(&pl.name)}</span>
                    }).collect_view()}
                </section>
            })}
            // Keyed by region and revision: an unchanged region keeps its DOM (and its images'
            // loaded state) however often the model changes; a changed one is built afresh.
            <For each=move || regions.get() key=|r| (r.key, r.rev) let:region>
                <section class="card ui-region"><UiBlocksView blocks=region.blocks on_choice=on_choice/></section>
            </For>
            <crate::panels::SidebarPanels table=table/>
        </aside>
    }
}
