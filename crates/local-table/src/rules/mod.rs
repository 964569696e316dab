//! The middle layer: what a frame or a command does to a room, decided against the room's
//! state and the table's [`context::Context`]. Nothing here knows about connections or the
//! running table, so the same rules answer the wire, the table and the unit tests.

pub mod admin;
pub mod admin_config;
pub mod admin_rooms;
pub mod audio;
pub mod backup;
pub mod commands;
pub mod config;
pub mod context;
pub mod dice;
pub mod keeper;
pub mod keystore;
pub mod media;
pub mod packs;
pub mod reply;
pub mod skills;
pub mod snapshot;
pub mod state;
pub mod story;
pub mod svg;
pub mod systems;
pub mod vars;
