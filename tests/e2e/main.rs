//! The end-to-end scenarios, one module each, built as ONE test binary: one link instead of one
//! per scenario (`cargo test -p studio-e2e --test e2e <module>::` runs one of them).
//!
//! Every scenario starts with `let _scenario = studio_e2e::scenario();`, which keeps them one
//! at a time as separate binaries were (see `studio_e2e::scenario`). Linux only (see the crate).
#![cfg(target_os = "linux")]

mod accessibility;
mod card_forge;
mod characters;
mod connect_screen;
mod demo_performances;
mod demo_replay_reset;
mod demo_table;
mod engine_pending;
mod engine_revoked;
mod hosting;
mod join_errors;
mod keeper_console;
mod keeper_invites;
mod keyboard_only;
mod log_flood;
mod notify;
mod pack_bench;
mod pack_bench_engine;
mod pack_bench_on_engine;
mod panel_focus_theft;
mod panel_limits;
mod panel_stall;
mod panels_hostile;
mod private_profiles;
mod reconnect;
mod release_smoke;
mod saved_tables;
mod secrets_never_print;
mod sound_deck;
mod steady_view;
mod story_streams;
mod story_tools;
mod transcript_follows;
mod undelivered;
mod untrusted_text;
mod upload;
mod version_refusal;
mod webview_figures;
mod zoom;
