//! Every frame of wire protocol 2.3 as Rust types. Field names are the wire's;
//! optional fields are `Option`s that are omitted when `None`; unknown fields are
//! ignored, and on the objects where the engine already sends extras they are kept
//! in `extra` so a re-encode loses nothing.

#[macro_use]
mod macros;

mod admin;
mod client;
mod codes;
mod common;
mod media;
pub(crate) mod num;
mod server;
mod state;
pub(crate) mod tagged;
mod ui_block;

pub use admin::*;
pub use client::*;
pub use codes::*;
pub use common::{Localized, MediaRef, PanelFallback, Role, Scalar};
pub use media::*;
pub use server::*;
pub use state::*;
pub use ui_block::*;
