//! The reader's place in the transcript: the entry at the top of the view (by key) and how far
//! its top is from the view's top. Entries drawn or released above it, heights measured anew,
//! the estimate for unseen entries moving: each moves what is on screen, and putting this entry
//! back where it was undoes it. Kept by key, not by element or scroll offset, so it survives a
//! redraw and means the same after any number of changes. Each drawn entry carries its key
//! (`data-key`): the layout's list of keys can be a step ahead of the page while a change is
//! being drawn, so an entry is never found by its position.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// The entries drawn in `inner`, in order, with their keys.
pub fn drawn(inner: &Element) -> Vec<(u64, HtmlElement)> {
    let Ok(all) = inner.query_selector_all(":scope > .entry[data-key]") else {
        return Vec::new();
    };
    (0..all.length())
        .filter_map(|i| {
            let e = all.get(i)?.dyn_into::<HtmlElement>().ok()?;
            let key = e.get_attribute("data-key")?.parse().ok()?;
            Some((key, e))
        })
        .collect()
}

/// The first drawn entry reaching into the view, as (its key, its top less the view's top).
pub fn first_on_screen(scroller: &Element, inner: &Element) -> Option<(u64, f64)> {
    let view_top = scroller.get_bounding_client_rect().top();
    drawn(inner)
        .into_iter()
        .find(|(_, e)| e.get_bounding_client_rect().bottom() > view_top + 0.5)
        .map(|(k, e)| (k, e.get_bounding_client_rect().top() - view_top))
}

/// Where the entry `key` is: its top less the view's top; `None` when it is not drawn.
pub fn offset(scroller: &Element, inner: &Element, key: u64) -> Option<f64> {
    let e = inner
        .query_selector(&format!(":scope > .entry[data-key=\"{key}\"]"))
        .ok()??;
    Some(e.get_bounding_client_rect().top() - scroller.get_bounding_client_rect().top())
}
