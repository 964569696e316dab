//! Studio's sound, decided without a sound card.
//!
//! The table never plays audio: it sends `audio_control` (play, stop, pause, resume, volume on
//! the `bgm`, `ambience` and `sfx` layers) and, on join and after every bgm/ambience control,
//! an `audio_state`. Each client plays the verified bytes itself. This crate is the part of
//! that which needs no device:
//!
//! - [`plan::Plan`] remembers what this client plays on each layer and turns frames into
//!   [`plan::Action`]s. A repeated `audio_state` does not restart a track; a paused one is not
//!   started on join (pause and stop both read `playing:false`); a joining listener starts at
//!   the table's position, computed from `started_at`.
//! - [`position`] places that start inside a looped or one-shot track.
//! - [`order::Latest`] keeps each layer in arrival order while sounds are still being fetched.
//! - [`envelope::Envelope`] is the gain ramp every fade and crossfade uses: linear, per frame,
//!   so no step is larger than the whole change divided by the fade's length (no clicks).
//!
//! - [`levels::Levels`] are the person's own master and layer levels and mutes.
//!
//! The mixer (rodio, in the app) applies the actions; the tests here read no audio at all.

pub mod envelope;
pub mod levels;
pub mod order;
pub mod plan;
pub mod position;
