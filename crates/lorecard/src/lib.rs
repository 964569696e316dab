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
//! - [`initvar`]: an MVU `[InitVar]` tree read as the engine reads it, each leaf offered as a
//!   typed variable; the author's choice moves those leaves out of the tree.
//! - [`world`]: world card or character card, by what the card carries, as the engine decides.
//! - [`split`]: a world-kind card split into a character card and a world card, the character
//!   half as the engine's `split_card` makes it, the world half keeping the rest whole.
//! - [`ejs`]: EJS spans in card text, counted and cut as the engine's split does.
//! - [`hooks`]: hook scripts checked as the engine's QuickJS will load them (syntax, limits,
//!   events that never fire).
//!
//! The engine is the judge of every byte: the tests run Studio's exports through the engine's
//! own parsers (`tests/engine.rs`).

pub mod card;
pub mod ejs;
pub mod hooks;
pub mod initvar;
pub mod png;
pub mod split;
pub mod st;
pub mod world;

pub use card::{Entry, Lorecard, Variable};

/// Any card file made native: a PNG card, SillyTavern JSON, or a native card (taken as is),
/// with what could not be carried.
pub fn import_bytes(bytes: &[u8]) -> Result<st::Imported, Error> {
    if bytes.starts_with(b"\x89PNG") {
        return st::import(&png::read_card(bytes)?);
    }
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let json: serde_json::Value = serde_json::from_slice(text).map_err(Error::json)?;
    if json.get("format").and_then(serde_json::Value::as_str) == Some(card::FORMAT) {
        return Ok(st::Imported {
            card: card::read(bytes)?,
            left_out: vec![],
        });
    }
    st::import(&json)
}

/// The forms a card is exported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    Native,
    Json(st::Flavour),
    /// On a chosen image.
    Png(st::Flavour),
}

impl Export {
    /// `native`, `st-safe`, `st-release`, `png-safe`, `png-release`.
    pub fn named(name: &str) -> Option<Export> {
        use st::Flavour::{Release, Safe};
        Some(match name {
            "native" => Export::Native,
            "st-safe" => Export::Json(Safe),
            "st-release" => Export::Json(Release),
            "png-safe" => Export::Png(Safe),
            "png-release" => Export::Png(Release),
            _ => return None,
        })
    }

    /// The file's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Export::Native => "lorecard.json",
            Export::Json(_) => "json",
            Export::Png(_) => "png",
        }
    }
}

/// `card` as a file in `form`; `image` is the PNG a PNG card is written on.
pub fn export(card: &Lorecard, form: Export, image: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    Ok(match form {
        Export::Native => card::write(card).into_bytes(),
        Export::Json(flavour) => {
            let mut text = serde_json::to_string_pretty(&st::export_v3(card, flavour))
                .expect("a card is JSON");
            text.push('\n');
            text.into_bytes()
        }
        Export::Png(flavour) => {
            let image = image.ok_or_else(|| Error::Png("a PNG card needs an image".into()))?;
            png::embed(
                image,
                &st::export_v2(card, flavour),
                &st::export_v3(card, flavour),
            )?
        }
    })
}

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
