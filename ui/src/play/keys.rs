//! The shortcuts a player uses all evening, and the Keyboard help that lists them (`?` or F1).
//! Each takes Alt with a letter (by the key's place, so any layout or input method works), so
//! no single letter typed anywhere does anything (WCAG 2.1.4); `?` only outside a text field.
//! While focus is in a dialog, its keys belong to it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::{tr, Locale};
use crate::store::Table;

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Put the caret in the input.
    Input,
    /// Scroll to the newest line and put focus on it (a screen reader reads it).
    Newest,
    /// The character sheet in the sidebar.
    Sheet,
    /// My last roll, back in the input to send again (or `.r ` to type one).
    RollAgain,
    /// The Keyboard help.
    Help,
}

/// One key press as the window saw it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Press<'a> {
    /// `KeyboardEvent.key`.
    pub key: &'a str,
    /// `KeyboardEvent.code`: the key's place on the keyboard.
    pub code: &'a str,
    pub alt: bool,
    pub ctrl: bool,
    pub meta: bool,
    /// Focus is in a place that takes typing (input, text area, select, editable).
    pub in_field: bool,
}

/// The shortcut a press means, if any.
pub fn shortcut(p: Press) -> Option<Shortcut> {
    if p.key == "F1" && !p.alt && !p.ctrl && !p.meta {
        return Some(Shortcut::Help);
    }
    if p.alt && !p.ctrl && !p.meta {
        // By the key's place; the letter itself only where the place is unknown.
        let letter = match p.code.strip_prefix("Key") {
            Some(l) => l.to_ascii_lowercase(),
            None if p.code.is_empty() || p.code == "Unidentified" => p.key.to_ascii_lowercase(),
            None => return None,
        };
        return match letter.as_str() {
            "i" => Some(Shortcut::Input),
            "n" => Some(Shortcut::Newest),
            "s" => Some(Shortcut::Sheet),
            "r" => Some(Shortcut::RollAgain),
            _ => None,
        };
    }
    (p.key == "?" && !p.ctrl && !p.meta && !p.alt && !p.in_field).then_some(Shortcut::Help)
}

/// The engine's dice words (its command router): `.r 1d20`, `.ra Spot Hidden`, `.rh`, `.rav`…
const ROLL_WORDS: &[&str] = &[
    "r", "rd", "roll", "rh", "hroll", "ra", "rc", "check", "save", "attack", "cast", "rav", "rcv",
    "opposed",
];

/// Whether a line the person sent was a roll (`.r1d20` included: the word ends at a digit).
pub fn is_roll(line: &str) -> bool {
    let t = line.trim_start();
    let Some(rest) = t
        .strip_prefix('.')
        .or_else(|| t.strip_prefix('。'))
        .or_else(|| t.strip_prefix('/'))
    else {
        return false;
    };
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    ROLL_WORDS.contains(&word.as_str())
}

/// What Alt+R puts in the input: the newest roll the person sent, or `.r ` to type one.
pub fn roll_again(history: &[String]) -> String {
    history
        .iter()
        .rev()
        .find(|l| is_roll(l))
        .cloned()
        .unwrap_or_else(|| ".r ".to_owned())
}

fn in_field(el: Option<&web_sys::Element>) -> bool {
    el.is_some_and(|e| {
        matches!(
            e.tag_name().to_ascii_lowercase().as_str(),
            "input" | "textarea" | "select"
        ) || e
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(|h| h.is_content_editable())
    })
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Focus an element that is not a control (a section, a line): it becomes focusable by script
/// only, and scrolls into view.
fn focus_on(el: &web_sys::Element) {
    if !el.has_attribute("tabindex") {
        let _ = el.set_attribute("tabindex", "-1");
    }
    if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = h.focus();
    }
}

fn focus_input() {
    if let Some(el) = document().and_then(|d| d.get_element_by_id("input")) {
        focus_on(&el);
    }
}

/// The newest line, once the transcript has drawn the end.
fn focus_newest() {
    let Some(list) = document().and_then(|d| d.get_element_by_id("transcript")) else {
        return;
    };
    list.set_scroll_top(list.scroll_height());
    // The list draws what is in view after the scroll: look on the next frames.
    request_animation_frame(move || {
        request_animation_frame(move || {
            let last = list
                .query_selector_all(".transcript-inner > .entry")
                .ok()
                .and_then(|all| all.get(all.length().checked_sub(1)?))
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok());
            if let Some(last) = last {
                focus_on(&last);
            }
        })
    });
}

fn focus_sheet() {
    let Some(doc) = document() else { return };
    if let Some(el) = doc
        .get_element_by_id("character")
        .or_else(|| doc.get_element_by_id("new-character"))
    {
        focus_on(&el);
    }
}

/// The person's sent lines this session, shared by the input (↑/↓) and Alt+R.
#[derive(Clone, Copy)]
pub struct History(pub StoredValue<Vec<String>>);

/// Listens for the shortcuts while the table is open, and draws the Keyboard help.
#[component]
pub fn Shortcuts(table: Table) -> impl IntoView {
    let help = use_context::<HelpOpen>().expect("help").0;
    let History(history) = use_context::<History>().expect("history");
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented() || crate::focus::in_dialog() {
            return;
        }
        let active = document().and_then(|d| d.active_element());
        let (key, code) = (ev.key(), ev.code());
        let press = Press {
            key: &key,
            code: &code,
            alt: ev.alt_key(),
            ctrl: ev.ctrl_key(),
            meta: ev.meta_key(),
            in_field: in_field(active.as_ref()),
        };
        let Some(s) = shortcut(press) else { return };
        ev.prevent_default();
        match s {
            Shortcut::Input => focus_input(),
            Shortcut::Newest => focus_newest(),
            Shortcut::Sheet => focus_sheet(),
            Shortcut::RollAgain => {
                table.draft.set(Some(history.with_value(|h| roll_again(h))));
                focus_input();
            }
            Shortcut::Help => help.set(true),
        }
    });
    on_cleanup(move || keys.remove());
    move || help.get().then(|| view! { <KeyboardHelp/> })
}

/// Whether the Keyboard help is open (the status bar's button opens it too).
#[derive(Clone, Copy)]
pub struct HelpOpen(pub RwSignal<bool>);

/// Every key the table knows, in words.
#[component]
fn KeyboardHelp() -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let help = use_context::<HelpOpen>().expect("help").0;
    let root = NodeRef::<leptos::html::Div>::new();
    crate::focus::dialog(root, crate::focus::Start::First, true, move || {
        help.set(false)
    });
    const ROWS: &[(&str, &str)] = &[
        ("Alt+I", "keys.input"),
        ("Alt+N", "keys.newest"),
        ("Alt+S", "keys.sheet"),
        ("Alt+R", "keys.roll"),
        ("Enter", "keys.send"),
        ("Shift+Enter", "keys.newline"),
        ("↑ ↓", "keys.history"),
        ("← →", "keys.pictures"),
        ("Tab", "keys.tab"),
        ("Esc", "keys.escape"),
        ("Ctrl+= · Ctrl+- · Ctrl+0", "keys.zoom"),
        ("? · F1", "keys.help"),
    ];
    view! {
        <div class="overlay keys-help-backdrop" on:click=move |_| help.set(false)>
            <div class="overlay-panel keys-help" id="keys-help" role="dialog" aria-modal="true"
                aria-labelledby="keys-help-title" node_ref=root tabindex="-1"
                on:click=|e| e.stop_propagation()>
                <header class="overlay-head">
                    <h2 id="keys-help-title">{move || tr(locale.get(), "keys.title")}</h2>
                    <button class="link" id="keys-help-close" on:click=move |_| help.set(false)>
                        {move || tr(locale.get(), "gallery.close")}
                    </button>
                </header>
                <dl class="keys-list">
                    {ROWS.iter().map(|(k, what)| view! {
                        <div class="keys-row">
                            <dt><kbd>{*k}</kbd></dt>
                            <dd>{move || tr(locale.get(), what)}</dd>
                        </div>
                    }).collect_view()}
                </dl>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alt(code: &str) -> Press<'_> {
        Press {
            key: "x",
            code,
            alt: true,
            ..Press::default()
        }
    }

    #[test]
    fn alt_letters_by_place_and_help_outside_fields() {
        assert_eq!(shortcut(alt("KeyI")), Some(Shortcut::Input));
        assert_eq!(shortcut(alt("KeyN")), Some(Shortcut::Newest));
        assert_eq!(shortcut(alt("KeyS")), Some(Shortcut::Sheet));
        assert_eq!(shortcut(alt("KeyR")), Some(Shortcut::RollAgain));
        assert_eq!(shortcut(alt("KeyQ")), None);
        // A layout that gives no place: the letter.
        let unplaced = Press {
            key: "N",
            code: "",
            alt: true,
            ..Press::default()
        };
        assert_eq!(shortcut(unplaced), Some(Shortcut::Newest));
        assert_eq!(
            shortcut(Press {
                code: "Digit1",
                ..unplaced
            }),
            None
        );
        // Alt with Ctrl is the system's, not ours.
        assert_eq!(
            shortcut(Press {
                ctrl: true,
                ..alt("KeyI")
            }),
            None
        );
        let q = Press {
            key: "?",
            code: "Slash",
            ..Press::default()
        };
        assert_eq!(shortcut(q), Some(Shortcut::Help));
        // Typing a question into the input types it.
        assert_eq!(
            shortcut(Press {
                in_field: true,
                ..q
            }),
            None
        );
        let f1 = Press {
            key: "F1",
            in_field: true,
            ..Press::default()
        };
        assert_eq!(shortcut(f1), Some(Shortcut::Help));
        // A plain letter is never a shortcut.
        let n = Press {
            key: "n",
            code: "KeyN",
            ..Press::default()
        };
        assert_eq!(shortcut(n), None);
    }

    #[test]
    fn rolls_are_the_engines_dice_words() {
        for l in [
            ".r 1d20",
            ".r1d20",
            ".ra Spot Hidden",
            "。rc 侦查",
            "/roll 2d6",
            " .RH d100",
            ".rav 50 60",
        ] {
            assert!(is_roll(l), "{l}");
        }
        for l in [
            ".rules",
            ".reset",
            "I roll the dice",
            ".st hp=3",
            "r 1d20",
            "",
        ] {
            assert!(!is_roll(l), "{l}");
        }
    }

    #[test]
    fn roll_again_takes_the_newest_roll_or_offers_one() {
        let h: Vec<String> = [".r 1d20", "I look around", ".ra Spot Hidden", "hello"]
            .map(String::from)
            .to_vec();
        assert_eq!(roll_again(&h), ".ra Spot Hidden");
        assert_eq!(roll_again(&h[1..2]), ".r ");
        assert_eq!(roll_again(&[]), ".r ");
    }
}
