//! A character of the player's own, without knowing the table's dialect: the rule systems the
//! server offers (each with its character word), a name, Create; or a card from an installed
//! pack (character cards for everyone, world cards for keepers only). Shown while the viewer
//! has no character; the pregens to claim are listed below it in the sidebar.

use leptos::prelude::*;
use protocol::frame::{ClientFrame, Role};
use protocol::session::characters::{creatable, import_command, make_char_command};
use protocol::session::sanitize_text;

use crate::i18n::{tr, Locale};
use crate::store::Table;

#[component]
pub fn NewCharacter(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let systems = Memo::new(move |_| {
        table.model.with(|m| {
            m.state
                .as_ref()
                .and_then(|s| s.systems.as_deref())
                .map(creatable)
                .unwrap_or_default()
        })
    });
    let needed = Memo::new(move |_| {
        table
            .model
            .with(|m| m.state.as_ref().is_some_and(|s| s.character.is_none()))
    });
    let role = Memo::new(move |_| {
        table.model.with(|m| {
            m.welcome
                .as_ref()
                .map(|w| w.you.role.clone())
                .unwrap_or(Role::Player)
        })
    });
    let word = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let asked = RwSignal::new(false);
    let create = move || {
        let chosen = word.get_untracked();
        let chosen = if chosen.is_empty() {
            systems
                .get_untracked()
                .first()
                .map(|(_, w)| w.clone())
                .unwrap_or_default()
        } else {
            chosen
        };
        if let Some(line) = make_char_command(&chosen, &name.get_untracked()) {
            table.say(line);
            name.set(String::new());
        }
    };
    let cards = move || {
        let role = role.get();
        table.model.with(|m| {
            m.pack_cards
                .clone()
                .unwrap_or_default()
                .into_iter()
                .filter_map(|c| import_command(&c, &role).map(|line| (c, line)))
                .collect::<Vec<_>>()
        })
    };
    move || {
        needed.get().then(|| {
            let l = locale.get();
            view! {
                <section class="card new-character" id="new-character">
                    <h3 class="card-label">{tr(l, "char.title")}</h3>
                    {(!systems.get().is_empty()).then(|| view! {
                        <form class="char-create" on:submit=move |ev| { ev.prevent_default(); create(); }>
                            <select id="char-system" aria-label=tr(l, "char.system")
                                on:change=move |ev| word.set(event_target_value(&ev))>
                                {systems.get().into_iter().map(|(id, w)| view! {
                                    <option value=w.clone()>{sanitize_text(&id)}</option>
                                }).collect_view()}
                            </select>
                            <input id="char-name" type="text" maxlength="60" placeholder=tr(l, "char.name")
                                prop:value=name on:input=move |ev| name.set(event_target_value(&ev))/>
                            <button id="char-create" type="submit" class="primary"
                                disabled=move || name.get().trim().is_empty()>{tr(l, "char.create")}</button>
                        </form>
                    })}
                    <button class="link" id="char-import" type="button" on:click=move |_| {
                        asked.set(true);
                        table.send(ClientFrame::ListPackCards);
                    }>{tr(l, "char.import")}</button>
                    {move || asked.get().then(|| {
                        let list = cards();
                        if list.is_empty() {
                            return view! { <p class="small" id="pack-cards-none">{tr(locale.get(), "char.no_cards")}</p> }.into_any();
                        }
                        view! {
                            <ul class="pack-cards" id="pack-cards">
                                {list.into_iter().map(|(c, line)| {
                                    let world = line.ends_with(" world");
                                    let title = line.clone();
                                    view! {
                                        <li data-ref=c.r#ref.clone()>
                                            <span class="card-name">{sanitize_text(&c.name)}</span>
                                            <span class="card-pack">{sanitize_text(&c.pack)}</span>
                                            {world.then(|| view! { <span class="chip">{tr(locale.get(), "char.world")}</span> })}
                                            <button class="link import" title=title on:click=move |_| table.say(line.clone())>
                                                {tr(locale.get(), "char.do_import")}
                                            </button>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        }
                        .into_any()
                    })}
                </section>
            }
        })
    }
}
