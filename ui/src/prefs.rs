//! The player's own settings (language, theme), kept in the WebView's local storage.

use leptos::prelude::*;

use crate::i18n::Locale;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    /// Lamplit dark (the default).
    Dark,
    /// Parchment light.
    Light,
    /// High contrast: pure black and white, strong borders, a bright accent.
    Contrast,
}

impl Theme {
    pub fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
            Theme::Contrast => "contrast",
        }
    }

    /// The theme the switch goes to next.
    pub fn next(self) -> Theme {
        match self {
            Theme::Dark => Theme::Light,
            Theme::Light => Theme::Contrast,
            Theme::Contrast => Theme::Dark,
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

/// Whether desktop notifications are on (readable outside any component: the frame pump).
pub fn notify_enabled() -> bool {
    load("studio.notify").as_deref() != Some("off")
}

/// The language the person chose (readable outside any component).
pub fn stored_locale() -> Locale {
    match load("studio.locale").as_deref() {
        Some("zh") => Locale::Zh,
        Some("en") => Locale::En,
        _ => Locale::detect(),
    }
}

/// Reactive settings, provided as context by the app.
#[derive(Clone, Copy)]
pub struct Prefs {
    pub locale: RwSignal<Locale>,
    pub theme: RwSignal<Theme>,
    /// Desktop notifications while Studio is in the background (on unless switched off).
    pub notify: RwSignal<bool>,
    /// Nothing moves (title cards, pins, crossfades, spinners), whatever the system says; the
    /// system's own `prefers-reduced-motion` does the same without it.
    pub still: RwSignal<bool>,
}

impl Prefs {
    pub fn load() -> Self {
        let locale = match load("studio.locale").as_deref() {
            Some("zh") => Locale::Zh,
            Some("en") => Locale::En,
            _ => Locale::detect(),
        };
        let theme = match load("studio.theme").as_deref() {
            Some("light") => Theme::Light,
            Some("contrast") => Theme::Contrast,
            _ => Theme::Dark,
        };
        let prefs = Prefs {
            locale: RwSignal::new(locale),
            theme: RwSignal::new(theme),
            notify: RwSignal::new(load("studio.notify").as_deref() != Some("off")),
            still: RwSignal::new(load("studio.motion").as_deref() == Some("reduce")),
        };
        Effect::new(move |_| {
            let still = prefs.still.get();
            store("studio.motion", if still { "reduce" } else { "full" });
            if let Some(root) = document().document_element() {
                let _ = if still {
                    root.set_attribute("data-motion", "reduce")
                } else {
                    root.remove_attribute("data-motion")
                };
            }
        });
        Effect::new(move |_| {
            store(
                "studio.notify",
                if prefs.notify.get() { "on" } else { "off" },
            );
        });
        // Apply to the document and remember every change.
        Effect::new(move |_| {
            let l = prefs.locale.get();
            store("studio.locale", l.code());
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("lang", l.code());
            }
        });
        Effect::new(move |_| {
            let t = prefs.theme.get();
            let name = t.name();
            store("studio.theme", name);
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("data-theme", name);
            }
        });
        prefs
    }
}

/// The language and theme switches, for the connect screen's footer and the status bar.
#[component]
pub fn PrefSwitches() -> impl IntoView {
    let prefs = use_context::<Prefs>().expect("prefs");
    let locale = prefs.locale;
    let theme = prefs.theme;
    view! {
        <button class="link" id="locale-switch" type="button"
            on:click=move |_| locale.update(|l| *l = if *l == Locale::En { Locale::Zh } else { Locale::En })>
            {move || crate::i18n::tr(locale.get(), "locale.switch")}
        </button>
        <button class="link" id="notify-switch" type="button" aria-pressed=move || prefs.notify.get().to_string()
            title=move || crate::i18n::tr(locale.get(), if prefs.notify.get() { "prefs.notify_on" } else { "prefs.notify_off" })
            aria-label=move || crate::i18n::tr(locale.get(), if prefs.notify.get() { "prefs.notify_on" } else { "prefs.notify_off" })
            on:click=move |_| prefs.notify.update(|n| *n = !*n)>
            <span class="icon" class:icon-bell=move || prefs.notify.get() class:icon-bell-off=move || !prefs.notify.get() aria-hidden="true"></span>
        </button>
        <button class="link" id="motion-switch" type="button" aria-pressed=move || prefs.still.get().to_string()
            title=move || crate::i18n::tr(locale.get(), "prefs.still_hint")
            on:click=move |_| prefs.still.update(|s| *s = !*s)>
            {move || crate::i18n::tr(locale.get(), if prefs.still.get() { "prefs.motion_off" } else { "prefs.motion_on" })}
        </button>
        <button class="link" id="theme-switch" type="button"
            on:click=move |_| theme.update(|t| *t = t.next())>
            {move || crate::i18n::tr(locale.get(), match theme.get().next() {
                Theme::Dark => "theme.dark",
                Theme::Light => "theme.light",
                Theme::Contrast => "theme.contrast",
            })}
        </button>
    }
}

/// "Log folder": opens it in the file manager and says where it is (for a bug report).
#[component]
pub fn LogFolder() -> impl IntoView {
    let prefs = use_context::<Prefs>().expect("prefs");
    let locale = prefs.locale;
    let shown = RwSignal::new(None::<String>);
    let open = move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(dir) = crate::bridge::call(&ipc::cmd::OpenLogFolder {}).await {
                let _ = shown.try_set(Some(dir));
            }
        });
    };
    view! {
        <button class="link" id="log-folder" type="button" title=move || shown.get().unwrap_or_default()
            on:click=open>
            {move || crate::i18n::tr(locale.get(), "prefs.logs")}
        </button>
        {move || shown.get().map(|d| view! { <code id="log-folder-path" class="log-path">{d}</code> })}
    }
}
