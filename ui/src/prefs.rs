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

/// What a zoom key asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Zoom {
    In,
    Out,
    Normal,
}

/// The window's zoom steps, in percent (a browser's own, up to 300%).
pub const ZOOM_STEPS: &[u16] = &[50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300];

/// The zoom key in a key press, if it is one: Ctrl with = or + (in), - (out), 0 (normal size),
/// read by the key's place (`code`) first, so a layout that puts `=` elsewhere still zooms.
pub fn zoom_key(ctrl: bool, alt: bool, key: &str, code: &str) -> Option<Zoom> {
    if !ctrl || alt {
        return None;
    }
    match (code, key) {
        ("Equal" | "NumpadAdd", _) | (_, "=" | "+") => Some(Zoom::In),
        ("Minus" | "NumpadSubtract", _) | (_, "-") => Some(Zoom::Out),
        ("Digit0" | "Numpad0", _) | (_, "0") => Some(Zoom::Normal),
        _ => None,
    }
}

/// The zoom after `z`, from `now` (any value: a stored one between steps goes to the next).
pub fn zoom_step(now: u16, z: Zoom) -> u16 {
    let (first, last) = (ZOOM_STEPS[0], ZOOM_STEPS[ZOOM_STEPS.len() - 1]);
    match z {
        Zoom::Normal => 100,
        Zoom::In => ZOOM_STEPS
            .iter()
            .copied()
            .find(|s| *s > now)
            .unwrap_or(last),
        Zoom::Out => ZOOM_STEPS
            .iter()
            .rev()
            .copied()
            .find(|s| *s < now)
            .unwrap_or(first),
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
    /// The window's zoom in percent (Ctrl+= / Ctrl+- / Ctrl+0), remembered.
    pub zoom: RwSignal<u16>,
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
            zoom: RwSignal::new(
                load("studio.zoom")
                    .and_then(|z| z.parse::<u16>().ok())
                    .map_or(100, |z| {
                        z.clamp(ZOOM_STEPS[0], ZOOM_STEPS[ZOOM_STEPS.len() - 1])
                    }),
            ),
        };
        // The zoom keys work on every screen; the WebView zooms (see `set_zoom` there).
        let zoom = prefs.zoom;
        let _keys = window_event_listener(leptos::ev::keydown, move |ev| {
            if let Some(z) = zoom_key(
                ev.ctrl_key() || ev.meta_key(),
                ev.alt_key(),
                &ev.key(),
                &ev.code(),
            ) {
                ev.prevent_default();
                zoom.update(|now| *now = zoom_step(*now, z));
            }
        });
        Effect::new(move |_| {
            let percent = zoom.get();
            store("studio.zoom", &percent.to_string());
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("data-zoom", &percent.to_string());
            }
            leptos::task::spawn_local(async move {
                let _ = crate::bridge::call(&ipc::cmd::SetZoom { percent }).await;
            });
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_keys_step_through_a_browsers_steps_and_stop_at_the_ends() {
        assert_eq!(zoom_key(true, false, "=", "Equal"), Some(Zoom::In));
        assert_eq!(zoom_key(true, false, "+", ""), Some(Zoom::In));
        assert_eq!(zoom_key(true, false, "-", "Minus"), Some(Zoom::Out));
        assert_eq!(zoom_key(true, false, "0", "Digit0"), Some(Zoom::Normal));
        // Without Ctrl it is typing; with Alt it is someone else's shortcut.
        assert_eq!(zoom_key(false, false, "=", "Equal"), None);
        assert_eq!(zoom_key(true, true, "=", "Equal"), None);
        assert_eq!(zoom_key(true, false, "a", "KeyA"), None);
        // 100 → 200 in five steps, as the e2e presses it.
        let mut z = 100;
        for _ in 0..5 {
            z = zoom_step(z, Zoom::In);
        }
        assert_eq!(z, 200);
        assert_eq!(zoom_step(300, Zoom::In), 300);
        assert_eq!(zoom_step(50, Zoom::Out), 50);
        assert_eq!(zoom_step(115, Zoom::Out), 110);
        assert_eq!(zoom_step(115, Zoom::In), 125);
        assert_eq!(zoom_step(250, Zoom::Normal), 100);
    }
}
