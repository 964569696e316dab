//! The keeper's screens: every admin frame of the protocol, graphically.
//!
//! The model lives in `protocol::keeper::KeeperConsole` (pure, tested natively); these
//! components only draw it and send requests through [`Table::admin`]. Screens open over the
//! play view, which stays mounted underneath so the table keeps streaming.

mod deck;
mod keys;
mod model;
mod room;
mod skills;
mod switches;
mod var_edit;
pub use var_edit::VarEditor;
pub mod text;

use leptos::prelude::*;
use protocol::keeper::{Control, Failure};

use crate::i18n::{tr, Locale};
use crate::store::Table;

/// One keeper screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Keys,
    Model,
    Room,
    Skills,
    Sound,
    Switches,
}

impl Page {
    const ALL: [Page; 6] = [
        Page::Keys,
        Page::Model,
        Page::Room,
        Page::Skills,
        Page::Sound,
        Page::Switches,
    ];

    fn id(self) -> &'static str {
        match self {
            Page::Keys => "keys",
            Page::Model => "model",
            Page::Room => "room",
            Page::Skills => "skills",
            Page::Sound => "sound",
            Page::Switches => "switches",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Page::Keys => "keeper.page.keys",
            Page::Model => "keeper.page.model",
            Page::Room => "keeper.page.room",
            Page::Skills => "keeper.page.skills",
            Page::Sound => "keeper.page.sound",
            Page::Switches => "keeper.page.switches",
        }
    }
}

/// The keeper feature's own state, provided by the play view for the table it shows: which
/// keeper screen is open over the table (none: the table itself).
#[derive(Clone, Copy)]
pub struct KeeperCtx {
    pub page: RwSignal<Option<Page>>,
}

impl KeeperCtx {
    /// Provides a fresh context (no screen open) to the components below, and returns it.
    pub fn provide() -> Self {
        let ctx = KeeperCtx {
            page: RwSignal::new(None),
        };
        provide_context(ctx);
        ctx
    }
}

fn ctx() -> KeeperCtx {
    use_context::<KeeperCtx>().expect("KeeperCtx is provided by the play view")
}

/// Whether this connection joined with a keeper key (the server's own word, from `welcome`).
pub fn is_keeper(table: Table) -> bool {
    table.model.with(|m| {
        m.welcome
            .as_ref()
            .is_some_and(|w| w.you.role == protocol::frame::Role::Keeper)
    })
}

fn locale() -> RwSignal<Locale> {
    use_context::<RwSignal<Locale>>().expect("locale")
}

/// The top bar's Keeper menu; only a keeper connection has it.
#[component]
pub fn KeeperMenu(table: Table) -> impl IntoView {
    let locale = locale();
    let open = RwSignal::new(false);
    view! {
        <Show when=move || is_keeper(table)>
            <span class="keeper-menu">
                <button class="link" id="keeper-menu" aria-haspopup="menu"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)>
                    {move || tr(locale.get(), "keeper.menu")}" ▾"
                </button>
                <Show when=move || open.get()>
                    <MenuList open=open/>
                </Show>
            </span>
        </Show>
    }
}

/// The Keeper menu's pages: focus on the first when it opens, Escape closes it.
#[component]
fn MenuList(open: RwSignal<bool>) -> impl IntoView {
    let locale = locale();
    let keeper_page = ctx().page;
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, false, move || {
        open.set(false)
    });
    view! {
        <div class="keeper-menu-list" role="menu" node_ref=root>
            {Page::ALL.into_iter().map(|p| view! {
                <button role="menuitem" class="keeper-menu-item" data-page=p.id()
                    on:click=move |_| { keeper_page.set(Some(p)); open.set(false); }>
                    {move || tr(locale.get(), p.title())}
                </button>
            }).collect_view()}
        </div>
    }
}

/// The open keeper screen, full height over the table.
#[component]
pub fn KeeperScreen(table: Table) -> impl IntoView {
    let keeper_page = ctx().page;
    let keeper = Memo::new(move |_| is_keeper(table));
    // Open or not: switching pages keeps the same screen (and its focus).
    let open = Memo::new(move |_| keeper_page.with(Option::is_some) && keeper.get());
    move || open.get().then(|| view! { <Screen table=table/> })
}

/// The screen itself: it takes focus when it opens (its Back button), Tab stays in it, Escape
/// closes it and gives focus back to where it was (the Keeper menu). It is the page's main
/// landmark while open (the table under it is hidden).
#[component]
fn Screen(table: Table) -> impl IntoView {
    let locale = locale();
    let keeper_page = ctx().page;
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, false, move || {
        keeper_page.set(None)
    });
    let close = move |_| keeper_page.set(None);
    // A page is built once per opening, not on every frame the table sends (building one
    // sends its requests).
    let page = Memo::new(move |_| keeper_page.get());
    let id = move || page.get().map_or("", Page::id);
    view! {
        <div class="keeper-screen" id="keeper-screen" data-page=id node_ref=root tabindex="-1"
            role="main" aria-label=move || page.get().map(|p| tr(locale.get(), p.title()).to_string()).unwrap_or_default()>
            <nav class="keeper-nav" aria-label=move || tr(locale.get(), "keeper.menu")>
                <button class="link keeper-back" id="keeper-back" on:click=close>
                    "← "{move || tr(locale.get(), "keeper.back")}
                </button>
                {Page::ALL.into_iter().map(|p| view! {
                    <button class="keeper-tab" class:current=move || page.get() == Some(p) data-page=p.id()
                        aria-current=move || (page.get() == Some(p)).then_some("page")
                        on:click=move |_| keeper_page.set(Some(p))>
                        {move || tr(locale.get(), p.title())}
                    </button>
                }).collect_view()}
            </nav>
            <div class="keeper-body">
                {move || page.get().map(|page| match page {
                    Page::Keys => view! { <keys::KeysPage table=table/> }.into_any(),
                    Page::Model => view! { <model::ModelPage table=table/> }.into_any(),
                    Page::Room => view! { <room::RoomPage table=table/> }.into_any(),
                    Page::Skills => view! { <skills::SkillsPage table=table/> }.into_any(),
                    Page::Sound => view! { <deck::DeckPage table=table/> }.into_any(),
                    Page::Switches => view! { <switches::SwitchesPage table=table/> }.into_any(),
                })}
            </div>
        </div>
    }
}

/// Beside a control: "working…" while its request is in flight, else its failure, if any.
#[component]
pub fn Outcome(table: Table, control: Control) -> impl IntoView {
    let locale = locale();
    let c = StoredValue::new(control);
    let pending = move || c.with_value(|c| table.keeper.with(|k| k.is_pending(c)));
    let failure = move || c.with_value(|c| table.keeper.with(|k| k.failure(c).cloned()));
    view! {
        <span class="outcome" aria-live="polite">
            {move || pending().then(|| view! {
                <span class="pending"><span class="spinner" aria-hidden="true"></span>{tr(locale.get(), "keeper.working")}</span>
            })}
            {move || failure().map(|f| view! {
                <span class="failure" role="alert">{failure_text(locale.get(), &f)}</span>
            })}
        </span>
    }
}

/// A failure as a sentence a keeper can act on.
pub fn failure_text(l: Locale, f: &Failure) -> String {
    use protocol::frame::AdminErrorCode as C;
    match f {
        Failure::Refused { code, message } => {
            let explained = match code {
                C::LastKeeper => Some("keeper.err.last_keeper"),
                C::Forbidden => Some("keeper.err.forbidden"),
                C::UnknownProvider => Some("keeper.err.unknown_provider"),
                C::NotConfigured => Some("keeper.err.not_configured"),
                C::NotFound => Some("keeper.err.not_found"),
                _ => None,
            };
            let server = message.clone().unwrap_or_default();
            match explained {
                Some(key) if server.is_empty() => tr(l, key).to_string(),
                Some(key) => format!("{} ({server})", tr(l, key)),
                None if server.is_empty() => format!("{} {code}", tr(l, "keeper.err.refused")),
                None => format!("{} {server}", tr(l, "keeper.err.refused")),
            }
        }
        Failure::Error { message, .. } => message.clone(),
        Failure::TimedOut { after_s } => {
            tr(l, "keeper.err.timeout").replace("{s}", &after_s.to_string())
        }
        Failure::GenerateFailed { error } => {
            format!("{} {error}", tr(l, "keeper.err.generate"))
        }
        Failure::UpdateFailed { .. } => tr(l, "keeper.err.update").to_string(),
    }
}

/// The room this connection is bound to (`welcome.room`).
pub fn own_room(table: Table) -> String {
    table
        .model
        .with(|m| m.welcome.as_ref().map(|w| w.room.clone()))
        .unwrap_or_default()
}

/// An input that arms a destructive button once the room's name is typed exactly.
#[component]
pub fn Arm(table: Table, armed: RwSignal<bool>, id: &'static str) -> impl IntoView {
    let locale = locale();
    let typed = RwSignal::new(String::new());
    Effect::new(move |_| armed.set(typed.with(|t| t.trim() == own_room(table))));
    view! {
        <label class="arm">
            <span>{move || tr(locale.get(), "keeper.arm").replace("{room}", &own_room(table))}</span>
            <input type="text" id=id autocomplete="off" spellcheck="false"
                prop:value=typed on:input=move |ev| typed.set(event_target_value(&ev))/>
        </label>
    }
}
