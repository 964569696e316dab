//! The one string lookup: `tr(locale, key)` (and `t(key)` in a component). Server strings
//! arrive already localized; the UI's own live in one table per feature (`keeper::text`,
//! `pack_bench::text`, ...), installed once at startup by `main.rs`, so this module knows no
//! feature and no feature knows another's strings. A key no table owns is shown as itself: a
//! visible defect, never a blank (the tests check that every key in the source resolves).

use std::sync::OnceLock;

use leptos::prelude::*;

pub mod text;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Locale {
    En,
    Zh,
}

impl Locale {
    /// The WebView's language, English unless it is Chinese.
    pub fn detect() -> Self {
        let lang = web_sys::window()
            .and_then(|w| w.navigator().language())
            .unwrap_or_default();
        if lang.starts_with("zh") {
            Locale::Zh
        } else {
            Locale::En
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Zh => "zh",
        }
    }
}

/// One feature's strings table: English and Chinese for the keys it owns, `None` for the rest.
pub type Strings = fn(&str) -> Option<(&'static str, &'static str)>;

static TABLES: OnceLock<&'static [Strings]> = OnceLock::new();

/// Installs every strings table, once, before the app mounts. A second call is ignored.
pub fn install(tables: &'static [Strings]) {
    let _ = TABLES.set(tables);
}

/// Looks up a UI string in the current locale.
pub fn t(key: &'static str) -> impl Fn() -> &'static str + Copy {
    let locale = use_context::<RwSignal<Locale>>().expect("locale context");
    move || tr(locale.get(), key)
}

pub fn tr(locale: Locale, key: &'static str) -> &'static str {
    lookup(TABLES.get().copied().unwrap_or_default(), locale, key)
}

/// `key` in `locale` from the first table that owns it; the key itself when none does.
pub fn lookup(tables: &[Strings], locale: Locale, key: &'static str) -> &'static str {
    let (en, zh) = tables
        .iter()
        .find_map(|table| table(key))
        .unwrap_or((key, key));
    match locale {
        Locale::En => en,
        Locale::Zh => zh,
    }
}

/// A backend's reason as a sentence: capitalized, ending with a full stop.
pub fn sentence(reason: &str) -> String {
    let reason = reason.trim();
    let mut chars = reason.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?', '。']) {
        out.push('.');
    }
    out
}
