//! Skills & rules: the room's Keeper skills (on/off), the rule systems, and the forge that
//! generates a new skill, rule system or module from a description.

use leptos::prelude::*;
use protocol::frame::{AdminEnableSkill, AdminGenerate, AdminListSkills, GenerateKind};
use protocol::keeper::Control;
use protocol::ClientFrame;

use super::{locale, Outcome};
use crate::i18n::tr;
use crate::store::{now_ms, Table};

#[component]
pub fn SkillsPage(table: Table) -> impl IntoView {
    let locale = locale();
    let ui_locale = move || Some(locale.get_untracked().code().to_string());
    table.admin(ClientFrame::AdminListSkills(AdminListSkills {
        locale: ui_locale(),
    }));
    table.admin(ClientFrame::AdminListRules);
    let skills = Memo::new(move |_| table.keeper.with(|k| k.skills.clone()));
    let rules = Memo::new(move |_| table.keeper.with(|k| k.rules.clone()));
    let toggle = move |id: String, on: bool| {
        table.admin(ClientFrame::AdminEnableSkill(AdminEnableSkill {
            id,
            on,
            locale: ui_locale(),
        }))
    };

    let kind = RwSignal::new("skill".to_string());
    let description = RwSignal::new(String::new());
    let started = RwSignal::new(0.0);
    let elapsed = RwSignal::new(0u64);
    let generating = move || table.keeper.with(|k| k.is_pending(&Control::Generate));
    // A visible clock while the forge works: a slow LLM call should not look frozen.
    crate::clock::tick_while(
        generating,
        std::time::Duration::from_millis(500),
        move || elapsed.set(((now_ms() - started.get_untracked()) / 1000.0) as u64),
    );
    let generate = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        started.set(now_ms());
        elapsed.set(0);
        table.keeper.update(|k| k.generated = None);
        table.admin(ClientFrame::AdminGenerate(AdminGenerate {
            kind: GenerateKind::from_wire(&kind.get_untracked()),
            description: description.get_untracked().trim().to_string(),
        }));
    };
    view! {
        <h2>{move || tr(locale.get(), "keeper.page.skills")}</h2>
        <section class="card">
            <div class="card-head">
                <h3>{move || tr(locale.get(), "keeper.skills.skills")}</h3>
                <Outcome table=table control=Control::Skills/>
            </div>
            <ul class="skill-list" id="skills">
                {move || skills.get().unwrap_or_default().into_iter().map(|s| {
                    let id = s.id.clone();
                    let control = Control::SkillToggle(s.id.clone());
                    view! {
                        <li class="skill" data-id=s.id.clone() class:enabled=s.enabled>
                            <label class="switch">
                                <input type="checkbox" class="skill-toggle" prop:checked=s.enabled
                                    on:change=move |ev| toggle(id.clone(), event_target_checked(&ev))/>
                                <span class="skill-name">{s.name.clone()}</span>
                            </label>
                            <span class="badge">{s.content_rating.clone()}</span>
                            <p class="hint">{s.description.clone()}</p>
                            <Outcome table=table control=control/>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        <section class="card">
            <div class="card-head">
                <h3>{move || tr(locale.get(), "keeper.skills.rules")}</h3>
                <Outcome table=table control=Control::Rules/>
            </div>
            <ul class="rule-list" id="rules">
                {move || rules.get().unwrap_or_default().into_iter().map(|r| view! {
                    <li data-id=r.id.clone()>
                        <code>{r.id.clone()}</code>" "
                        <span class="badge">{move || tr(locale.get(), if r.built_in { "keeper.skills.built_in" } else { "keeper.skills.installed" })}</span>
                    </li>
                }).collect_view()}
            </ul>
        </section>
        <form class="card keeper-form" id="generate-form" on:submit=generate>
            <h3>{move || tr(locale.get(), "keeper.skills.generate")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.skills.generate_what")}</p>
            <label>{move || tr(locale.get(), "keeper.skills.kind")}
                <select id="generate-kind" prop:value=kind on:change=move |ev| kind.set(event_target_value(&ev))>
                    <option value="skill">{move || tr(locale.get(), "keeper.skills.kind_skill")}</option>
                    <option value="rule">{move || tr(locale.get(), "keeper.skills.kind_rule")}</option>
                    <option value="module">{move || tr(locale.get(), "keeper.skills.kind_module")}</option>
                </select>
            </label>
            <label>{move || tr(locale.get(), "keeper.skills.description")}
                <textarea id="generate-description" rows="3" prop:value=description
                    on:input=move |ev| description.set(event_target_value(&ev))></textarea>
            </label>
            <div class="row">
                <button id="generate" type="submit" class="primary"
                    disabled=move || generating() || description.with(|d| d.trim().is_empty())>
                    {move || tr(locale.get(), "keeper.skills.generate_button")}
                </button>
                {move || generating().then(|| view! {
                    <span class="progress" id="generate-progress">
                        <span class="spinner" aria-hidden="true"></span>
                        {tr(locale.get(), "keeper.skills.generating")}" "{elapsed.get()}" s"
                    </span>
                })}
                <Outcome table=table control=Control::Generate/>
            </div>
            {move || table.keeper.with(|k| k.generated.clone()).map(|g| view! {
                <div class="generated" id="generated">
                    <strong>{tr(locale.get(), "keeper.skills.generated")}</strong>" "
                    {g.kind.as_str().to_string()}" "<code>{g.id.clone()}</code>" — "{g.name.clone()}
                    {(!g.detail.is_empty()).then(|| view! { <p class="hint">{g.detail.clone()}</p> })}
                </div>
            })}
        </form>
    }
}
