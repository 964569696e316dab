//! Steps a keeper takes in the keeper screens.

use std::time::Duration;

use serde_json::json;

use crate::{wait_for, Session};

/// Opens a keeper screen from the top bar's Keeper menu.
pub fn open_page(s: &Session, page: &str) {
    let menu = wait_for(Duration::from_secs(10), "the Keeper menu", || {
        s.find("#keeper-menu")
    });
    if s.find(&format!("#keeper-screen[data-page='{page}']"))
        .is_some()
    {
        return;
    }
    if let Some(tab) = s.find(&format!(".keeper-tab[data-page='{page}']")) {
        s.click(&tab);
    } else {
        s.click(&menu);
        let item = wait_for(Duration::from_secs(5), "the menu item", || {
            s.find(&format!(".keeper-menu-item[data-page='{page}']"))
        });
        s.click(&item);
    }
    wait_for(Duration::from_secs(5), "the keeper screen", || {
        s.find(&format!("#keeper-screen[data-page='{page}']"))
    });
}

/// Sets a `<select>` (or any input) the way a person's choice would: value, then `change`.
pub fn choose(s: &Session, css: &str, value: &str) {
    let el = wait_for(Duration::from_secs(10), css, || s.find(css));
    s.execute(
        "arguments[0].value = arguments[1]; \
         arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
        json!([el.to_json(), value]),
    )
    .expect("choose a value");
}

/// Pastes `text` into a field: the whole text lands in one `input` event, as a paste does.
pub fn paste(s: &Session, css: &str, text: &str) {
    let el = wait_for(Duration::from_secs(30), css, || s.find(css));
    s.execute(
        "arguments[0].focus(); arguments[0].value = arguments[1]; \
         arguments[0].dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));",
        json!([el.to_json(), text]),
    )
    .expect("paste");
}

/// Replaces a field's text.
pub fn fill(s: &Session, css: &str, text: &str) {
    let el = wait_for(Duration::from_secs(10), css, || s.find(css));
    s.clear(&el);
    s.type_text(&el, text);
}

/// Waits for an element, then clicks it.
pub fn click(s: &Session, css: &str) {
    let el = wait_for(Duration::from_secs(10), css, || s.find(css));
    // Into the middle of its scrolling box first: WebKit's driver refuses an element its box
    // cuts in half ("not interactable") instead of scrolling it in.
    let _ = s.execute(
        "arguments[0].scrollIntoView({block: 'center', inline: 'nearest'}); return 0;",
        json!([el.to_json()]),
    );
    s.click(&el);
}

/// Waits for the element's text to satisfy `ok`; returns it.
pub fn wait_text(s: &Session, css: &str, what: &str, ok: impl Fn(&str) -> bool) -> String {
    wait_for(Duration::from_secs(20), what, || {
        let t = s.text(&s.find(css)?);
        ok(&t).then_some(t)
    })
}

/// Everything a person or a script could read off the page: its markup, and every field's
/// current value (a typed password lives only there).
pub fn page_text(s: &Session) -> String {
    s.execute(
        "return document.documentElement.outerHTML + '\\n' + \
         [...document.querySelectorAll('input, textarea, select')].map(i => i.value).join('\\n');",
        json!([]),
    )
    // Read as "" on an error, every "the secret is not on the page" check would pass.
    .unwrap_or_else(|e| panic!("reading the page text: {e}"))
    .as_str()
    .expect("the page text is a string")
    .to_string()
}

/// The X clipboard's text, as another program on the desktop would paste it.
pub fn clipboard_text() -> String {
    let mut clipboard = arboard::Clipboard::new().expect("the X clipboard");
    match clipboard.get_text() {
        Ok(text) => text,
        // Nothing copied yet is an empty clipboard; any other error is the test's failure.
        Err(arboard::Error::ContentNotAvailable) => String::new(),
        Err(e) => panic!("reading the X clipboard: {e}"),
    }
}
