//! The card forge's formats, with no window and no engine: what a pack author's cards are on
//! disk and how they travel.
//!
//! - [`card`]: the engine's native card (`"format": "loreweaver.card"`, version 1, the shape
//!   `core/lorecard.py` parses): name, description, personality, scenario, opening and
//!   alternates, dialogue examples, author notes, tags, typed variables, worldbook entries
//!   with their triggers and `condition`s, pregens and hooks. [`card::read`] keeps every field
//!   it does not know, so [`card::write`] loses nothing; the keys come out in one stable order.
//! - [`st`]: SillyTavern's V2/V3 JSON. Export in two flavours ([`st::Flavour::Safe`] strips
//!   keeper-only lore and variables, [`st::Flavour::Release`] keeps them where SillyTavern and
//!   the engine both read them); import lists every field it could not carry.
//! - [`png`]: a card inside a PNG: the `chara` (V2) and `ccv3` (V3) text chunks read, and
//!   written exactly once each on a chosen image, older ones replaced.
//! - [`world`]: world card or character card, by what the card carries, as the engine decides.
//!
//! The engine is the judge of every byte: the tests run Studio's exports through the engine's
//! own parsers (`tests/engine.rs`).

pub mod card;
pub mod png;
pub mod st;
pub mod world;

pub use card::{Entry, Lorecard, Variable};

/// Why a card could not be read. Said for the author, with the place where it helps.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    #[error("not JSON at line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{0}")]
    Shape(String),
    #[error("{0}")]
    Png(String),
}

impl Error {
    fn json(e: serde_json::Error) -> Error {
        Error::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        }
    }
}
