//! The app-wide handles every screen reads: which screen fills the window, the app's owner,
//! and the notices carried from one screen to the next. Here, below the features, so a
//! feature reaches them without importing the app's root.

use leptos::prelude::*;

use super::Table;

/// The app's root owner, for state that must outlive the screen that created it.
#[derive(Clone)]
pub struct AppOwner(pub Owner);

/// Why the connect screen is showing again (a refusal from the table), shown once.
#[derive(Clone, Copy)]
pub struct ConnectNotice(pub RwSignal<Option<String>>);

/// The titles of the panel pages that were running when one froze the window (the backend's
/// watchdog reloaded it and the table was rejoined with the room's panel code off).
#[derive(Clone, Copy)]
pub struct StallNotice(pub RwSignal<Option<Vec<protocol::frame::Localized>>>);

/// The hosting strip's **Copy invite…** was pressed: the keeper's invites screen opens with a
/// player key to mint, and the minted key is copied with the ticket as one invite.
#[derive(Clone, Copy)]
pub struct InviteAsked(pub RwSignal<bool>);

/// Which screen fills the window.
#[derive(Clone, Copy)]
pub enum Screen {
    Connect,
    Play(Table),
}
