//! Focus for the window's dialogs (the modal slot, the viewer, the consent question, the
//! intent prompt, the keyboard help): a dialog takes focus when it opens, keeps Tab and
//! Shift+Tab inside while it is the newest one open, closes on Escape, and gives focus back to
//! where it was when it closes. Dialogs stack: a prompt over the modal slot holds the keys
//! until it goes, then the modal has them again.
//!
//! The rules (which dialog holds the keys, where Tab goes) are pure and tested natively; the
//! rest only reads the page.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Where a dialog puts focus when it opens. (A dialog beside the story, not `modal`, holds
/// Tab and Escape only while focus is in it.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    /// The dialog itself (it needs `tabindex="-1"`): nothing is pressed by a key that was
    /// meant for what had focus before (an Enter typed into the input must never answer a
    /// prompt that opened under it).
    Dialog,
    /// Its first control.
    First,
}

/// The open dialogs, oldest first; the newest one holds the keys.
#[derive(Default, Debug)]
pub struct Stack(Vec<u32>);

/// The open dialogs on the page's root (`data-dialogs`), for whoever inspects the page.
fn show(stack: &Stack) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let ids: Vec<String> = stack.0.iter().map(u32::to_string).collect();
        let _ = root.set_attribute("data-dialogs", &ids.join(" "));
    }
}

impl Stack {
    pub fn open(&mut self, id: u32) {
        self.0.retain(|x| *x != id);
        self.0.push(id);
    }

    pub fn close(&mut self, id: u32) {
        self.0.retain(|x| *x != id);
    }

    pub fn holds_keys(&self, id: u32) -> bool {
        self.0.last() == Some(&id)
    }
}

/// Where Tab (or Shift+Tab, `back`) moves focus from the `at`-th of a dialog's `count`
/// controls (`None`: focus is not on one of them — on the dialog itself, or outside it):
/// `Some(i)` when the dialog moves focus itself (wrapping at its ends, or bringing it in),
/// `None` when the browser's own step stays inside. A dialog without controls keeps focus on
/// itself (the caller only prevents the step).
pub fn tab_target(at: Option<usize>, count: usize, back: bool) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match at {
        None => Some(if back { count - 1 } else { 0 }),
        Some(0) if back => Some(count - 1),
        Some(i) if !back && i + 1 >= count => Some(0),
        Some(_) => None,
    }
}

thread_local! {
    static STACK: RefCell<Stack> = RefCell::new(Stack::default());
    /// What had focus before each open dialog, to give it back.
    static BEFORE: RefCell<HashMap<u32, web_sys::HtmlElement>> = RefCell::new(HashMap::new());
    /// Each open dialog's own element, once drawn.
    static ROOTS: RefCell<HashMap<u32, web_sys::HtmlElement>> = RefCell::new(HashMap::new());
    static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// Whether focus is in an open dialog (the window's own shortcuts leave its keys to it).
pub fn in_dialog() -> bool {
    let Some(a) = active() else { return false };
    ROOTS.with(|r| r.borrow().values().any(|root| root.contains(Some(&a))))
}

const CONTROLS: &str = "a[href], button:not([disabled]), input:not([disabled]), \
    select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex='-1'])";

/// The dialog's controls a key can reach, in document order (hidden ones left out).
fn controls(root: &web_sys::HtmlElement) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = root.query_selector_all(CONTROLS) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i)?.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|e| e.get_client_rects().length() > 0)
        .collect()
}

fn active() -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}

/// Makes the element behind `root` a dialog as described above, from now until the calling
/// view is cleaned up. Call it in the dialog's own component, before it is drawn: what has
/// focus then is what gets it back. A `modal` one (drawn over a backdrop, so nothing else can
/// be clicked) also brings focus back when it leaves by another way than Tab (out of a panel
/// page inside it, whose keys the window never sees); a prompt beside the story lets a click
/// elsewhere take focus, as a person meant it.
pub fn dialog(root: NodeRef<Div>, start: Start, modal: bool, on_escape: impl Fn() + 'static) {
    let id = NEXT.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    if let Some(before) = active() {
        BEFORE.with(|b| b.borrow_mut().insert(id, before));
    }
    STACK.with(|s| {
        s.borrow_mut().open(id);
        show(&s.borrow());
    });
    // Once drawn: take focus.
    Effect::new(move |_| {
        let Some(el) = root.get() else { return };
        let el: web_sys::HtmlElement = el.into();
        ROOTS.with(|r| r.borrow_mut().insert(id, el.clone()));
        let target = match start {
            Start::Dialog => None,
            Start::First => controls(&el).into_iter().next(),
        };
        let _ = target.unwrap_or(el).focus();
    });
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if !STACK.with(|s| s.borrow().holds_keys(id)) {
            return;
        }
        let Some(el) = root.get_untracked() else {
            return;
        };
        let el: web_sys::HtmlElement = el.into();
        // A dialog beside the story leaves keys pressed elsewhere (the person clicked away)
        // to what has them.
        if !modal && !active().is_some_and(|a| el.contains(Some(&a))) {
            return;
        }
        // WebKitGTK names Shift+Tab by its keysym (ISO_Left_Tab), not "Tab": the key's
        // place on the keyboard says it either way.
        let key = match (ev.key().as_str(), ev.code().as_str()) {
            (_, "Tab") => "Tab".to_owned(),
            (k, _) => k.to_owned(),
        };
        match key.as_str() {
            "Escape" => {
                ev.prevent_default();
                ev.stop_immediate_propagation();
                on_escape();
            }
            "Tab" => {
                let list = controls(&el);
                let now = active();
                let at = now.as_ref().and_then(|a| list.iter().position(|c| c == a));
                if list.is_empty() {
                    ev.prevent_default();
                    let _ = el.focus();
                } else if let Some(i) = tab_target(at, list.len(), ev.shift_key()) {
                    ev.prevent_default();
                    let _ = list[i].focus();
                }
            }
            _ => {}
        }
    });
    let wander = window_event_listener(leptos::ev::focusin, move |ev| {
        if !modal || !STACK.with(|s| s.borrow().holds_keys(id)) {
            return;
        }
        let Some(el) = root.get_untracked() else {
            return;
        };
        let el: web_sys::HtmlElement = el.into();
        let inside = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .is_some_and(|n| el.contains(Some(&n)));
        if !inside {
            let _ = controls(&el).into_iter().next().unwrap_or(el).focus();
        }
    });
    on_cleanup(move || {
        keys.remove();
        wander.remove();
        STACK.with(|s| {
            s.borrow_mut().close(id);
            show(&s.borrow());
        });
        let before = BEFORE.with(|b| b.borrow_mut().remove(&id));
        let mine = ROOTS.with(|r| r.borrow_mut().remove(&id));
        // A dialog that replaced this one (the next prompt) took focus from inside it: it
        // gives focus back to where this one would have.
        if let (Some(mine), Some(before)) = (&mine, &before) {
            BEFORE.with(|b| {
                for v in b.borrow_mut().values_mut() {
                    if mine.contains(Some(v)) {
                        *v = before.clone();
                    }
                }
            });
        }
        // Given back when the dialog has it (it is cleaned up before its element leaves the
        // page) or it went nowhere; a place the person chose meanwhile keeps it.
        let here = active().is_none_or(|a| {
            a.tag_name().eq_ignore_ascii_case("body")
                || !a.is_connected()
                || mine.as_ref().is_some_and(|m| m.contains(Some(&a)))
        });
        if let Some(before) = before.filter(|b| b.is_connected()) {
            if here {
                let _ = before.focus();
            }
        }
    });
}

/// `dialog` for a part of a view that has no element of its own to hold: a box that lays out
/// as if it were not there, around it. Focus goes to its first control.
#[component]
pub fn Scope(on_escape: Callback<()>, children: Children) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    dialog(root, Start::First, false, move || on_escape.run(()));
    view! { <div class="focus-scope" node_ref=root>{children()}</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_dialog_holds_the_keys_and_the_one_below_gets_them_back() {
        let mut s = Stack::default();
        s.open(1);
        assert!(s.holds_keys(1));
        s.open(2);
        assert!(!s.holds_keys(1) && s.holds_keys(2));
        s.close(2);
        assert!(s.holds_keys(1));
        s.close(1);
        assert!(!s.holds_keys(1));
    }

    #[test]
    fn tab_wraps_at_both_ends_and_brings_focus_in() {
        // Inside: the browser's own step.
        assert_eq!(tab_target(Some(0), 3, false), None);
        assert_eq!(tab_target(Some(2), 3, true), None);
        // At the ends: around.
        assert_eq!(tab_target(Some(2), 3, false), Some(0));
        assert_eq!(tab_target(Some(0), 3, true), Some(2));
        // On the dialog itself (or outside): the first, or the last going back.
        assert_eq!(tab_target(None, 3, false), Some(0));
        assert_eq!(tab_target(None, 3, true), Some(2));
        // One control: it keeps focus either way.
        assert_eq!(tab_target(Some(0), 1, false), Some(0));
        assert_eq!(tab_target(Some(0), 1, true), Some(0));
        assert_eq!(tab_target(None, 0, false), None);
    }
}
