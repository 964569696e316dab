//! The play view: the table as a player sees it.

mod announce;
mod character;
mod clip;
mod dice;
mod drop_offer;
mod entry;
mod gallery;
mod input;
mod keys;
mod place;
mod sidebar;
mod sound;
pub use sound::restore as restore_sound;
mod status;
mod story_tools;
pub mod text;
mod transcript;
mod uploads;
mod virtual_list;
mod warm;
pub use warm::warm_fonts;

use leptos::prelude::*;

use crate::store::Table;
use crate::templates::TitleCardOverlay;

#[component]
pub fn PlayView(table: Table) -> impl IntoView {
    // Turn, pending-line and replay timeouts need a clock; the model itself never reads one.
    // It runs only while one of them is ahead: an idle table wakes for nothing.
    let awaits = Memo::new(move |_| {
        table.model.with(|m| m.awaits_clock()) || table.keeper.with(|k| k.any_pending())
    });
    crate::clock::tick_while(
        move || awaits.get(),
        std::time::Duration::from_secs(5),
        move || {
            // Most ticks change nothing: then nothing that reads the model is woken.
            table
                .model
                .maybe_update(|m| !m.tick(crate::store::now_ms()).is_empty());
            let now = crate::store::now_ms();
            if table.keeper.with_untracked(|k| k.any_pending()) {
                table.keeper.update(|k| {
                    k.tick(now);
                });
            }
        },
    );
    // Each feature's own state for this table; the bench's tap before the panels read it.
    let keeper = crate::keeper::KeeperCtx::provide();
    crate::pack_bench::PackBenchCtx::provide(table);
    provide_context(crate::panels::PanelsCtx::new(table));
    provide_context(gallery::Gallery(RwSignal::new(None)));
    provide_context(table);
    provide_context(keys::HelpOpen(RwSignal::new(false)));
    provide_context(keys::History(StoredValue::new(Vec::new())));
    // The hosting strip's Copy invite… opens the invites screen (a keeper's own table only).
    let invite = use_context::<crate::store::InviteAsked>().expect("invite context");
    Effect::new(move |_| {
        if invite.0.get() {
            if crate::keeper::is_keeper(table) {
                keeper.page.set(Some(crate::keeper::Page::Keys));
            } else {
                invite.0.set(false);
            }
        }
    });
    // A refusal is final (revoked key, version mismatch): back to the connect screen, saying why.
    let screen = use_context::<RwSignal<crate::store::Screen>>().expect("screen");
    let notice = use_context::<crate::store::ConnectNotice>().expect("connect notice");
    Effect::new(move |_| {
        if let crate::store::Status::Refused { reason } = table.status.get() {
            notice.0.set(Some(reason));
            leptos::task::spawn_local(async move {
                let _ = crate::bridge::call(&ipc::cmd::LeaveTable {}).await;
                screen.set(crate::store::Screen::Connect);
            });
        }
    });
    // A deleted room sends nothing more: say so and go back to the connect screen.
    Effect::new(move |_| {
        if table.keeper.with(|k| k.room_gone) {
            let l = use_context::<RwSignal<crate::i18n::Locale>>()
                .map(|l| l.get_untracked())
                .unwrap_or(crate::i18n::Locale::En);
            notice
                .0
                .set(Some(crate::i18n::tr(l, "keeper.room_gone").to_string()));
            leptos::task::spawn_local(async move {
                let _ = crate::bridge::call(&ipc::cmd::LeaveTable {}).await;
                screen.set(crate::store::Screen::Connect);
            });
        }
    });
    let locale = use_context::<RwSignal<crate::i18n::Locale>>().expect("locale");
    view! {
        <section class="play">
            <status::StatusBar table=table/>
            <crate::keeper::KeeperScreen table=table/>
            <crate::pack_bench::BenchPane table=table/>
            <div class="play-body" class:under-keeper=move || keeper.page.with(Option::is_some)
                class:bench-stale=move || table.bench.with(|b| b.as_ref().is_some_and(|b| !b.problems.is_empty()))>
                <main class="play-main" aria-labelledby="play-main-title">
                    // The outline a screen reader walks: h1 the app, h2 the story and the
                    // sheet, h3 each panel and card.
                    <h2 class="visually-hidden" id="play-main-title">{move || crate::i18n::tr(locale.get(), "play.story")}</h2>
                    <transcript::Transcript table=table/>
                    <announce::StoryAnnouncer table=table/>
                    <crate::panels::TrayPanels table=table/>
                    <input::InputBox table=table/>
                    {move || table.overlay.get().map(|card| view! {
                        <TitleCardOverlay
                            title=card.title
                            subtitle=card.subtitle
                            act=card.act
                            on_dismiss=move |_| table.overlay.set(None)/>
                    })}
                </main>
                <sidebar::Sidebar table=table/>
            </div>
            <crate::panels::ModalHost table=table/>
            <gallery::GalleryOverlay table=table/>
            <keys::Shortcuts table=table/>
            <div class="lw-intent-host"><crate::panels::IntentPrompt table=table/><drop_offer::DropConfirm table=table/></div>
        </section>
    }
}
