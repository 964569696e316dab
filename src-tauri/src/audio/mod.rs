//! Sound at the table: the mixer (crate `mixer`), fed in arrival order by the [`director`],
//! and the sound popover's [`commands`].

pub mod commands;
pub mod director;

pub use mixer::{AudioCommand, AudioMixer, Levels, Report};
