//! The narrative log: drafts grow in place, the stream is followed only when already at the
//! bottom, and only the entries near the viewport are in the DOM ([`super::virtual_list`]):
//! spacers of the measured (or average) height stand in for the rest, so a 20,000-entry
//! session keeps a few dozen elements wherever the reader is.

use leptos::html::Div;
use leptos::prelude::*;

use protocol::session::export::entry_matches;
use protocol::session::sanitize_text;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::entry::EntryView;
use super::place;
use super::virtual_list::{self, Heights};
use crate::i18n::{tr, Locale};
use crate::store::{now_ms, Table};

/// The flex gap between entries (`.transcript-inner`, .8rem).
const GAP: f64 = 12.8;
/// How long after the reader's last wheel, key or touch a move up is theirs.
const GESTURE_MS: f64 = 1000.0;

#[component]
pub fn Transcript(table: Table) -> impl IntoView {
    let locale = use_context::<RwSignal<Locale>>().expect("locale");
    let scroller = NodeRef::<Div>::new();
    let inner = NodeRef::<Div>::new();
    let heights = StoredValue::new(Heights::default());
    // `None` follows the end; `Some((lo, hi))` is what the reader scrolled to, where a `hi` of
    // `None` is the end (what arrives while they read there is drawn too).
    let span = RwSignal::new(None::<(usize, Option<usize>)>);
    // Bumped when measuring changed a height, so the spacers are drawn again.
    let measured = RwSignal::new(0u32);
    let at_bottom = StoredValue::new(true);
    // Where the last scroll event left the view: only a move up is the reader leaving the end.
    let last_top = StoredValue::new(0i32);
    // A scroll event can come from the content changing under the view (heights measured, a
    // flood drawn, the browser clamping), not only from the reader. Changes count what was drawn;
    // `pinned` is the count when this code last put the view at the end: a move up while a change
    // is not yet pinned, with no gesture of the reader's, is the content settling.
    let changes = StoredValue::new(0u64);
    let pinned = StoredValue::new(0u64);
    let gesture_at = StoredValue::new(f64::NEG_INFINITY);
    let pointer_held = StoredValue::new(false);
    let gesture = move || gesture_at.set_value(now_ms());
    let reader_active =
        move || pointer_held.get_value() || now_ms() - gesture_at.get_value() < GESTURE_MS;
    // A press on the scrollbar may be let go anywhere in the window.
    let released = move |_| pointer_held.set_value(false);
    let up = window_event_listener(leptos::ev::pointerup, released);
    let cancel = window_event_listener(leptos::ev::pointercancel, released);
    on_cleanup(move || {
        up.remove();
        cancel.remove();
    });
    let viewport = move || {
        scroller
            .get_untracked()
            .map_or(800.0, |el| f64::from(el.client_height()).max(200.0))
    };
    // The keys of what the transcript shows (every line, or a search's matches), in order:
    // worked out once per change, not again on every scroll event.
    let keys = Memo::new(move |_| {
        let query = table.search.get();
        table.model.with(|m| {
            m.iter()
                .filter(|e| query.trim().is_empty() || entry_matches(e, &query))
                .map(|e| e.key)
                .collect::<Vec<u64>>()
        })
    });
    // The top spacer, carried while the reader reads ([`virtual_list::Top`]).
    let top_spacer = StoredValue::new(virtual_list::Top::default());
    // The first entry drawn while the end is followed ([`virtual_list::Tail`]).
    let tail_lo = StoredValue::new(virtual_list::Tail::default());
    // The entries above the view that a scroll would reach next are drawn once the room has
    // been painted, at the window's next idle moment: the join's first frame holds only what
    // is seen (#30 item 4). Asked for once, when the first entries arrive.
    let margin_drawn = RwSignal::new(false);
    let margin_asked = StoredValue::new(false);
    // `[lo, hi)` of `keys`, and the spacers' heights above and below.
    let layout = Memo::new(move |_| {
        let keys = keys.get();
        measured.track();
        let reading = span.get().is_some();
        let (lo, hi) = match span.get() {
            Some((lo, hi)) => {
                let hi = hi.map_or(keys.len(), |hi| hi.min(keys.len()));
                (lo.min(hi), hi)
            }
            None => {
                let margin = if margin_drawn.get() { viewport() } else { 0.0 };
                let lo = heights.with_value(|h| {
                    tail_lo
                        .try_update_value(|t| t.lo(&keys, h, viewport(), margin))
                        .unwrap_or_default()
                });
                (lo, keys.len())
            }
        };
        let (top, bottom) = heights.with_value(|h| {
            let top = top_spacer
                .try_update_value(|t| t.height(&keys, h, (lo, hi), reading))
                .unwrap_or_default();
            (top, h.sum(&keys[hi..]))
        });
        (
            keys[lo..hi].to_vec(),
            top.round() as i64,
            bottom.round() as i64,
        )
    });
    Effect::new(move |_| {
        if !margin_asked.get_value() && !keys.with(Vec::is_empty) {
            margin_asked.set_value(true);
            crate::idle::when_idle(
                move || {
                    let _ = margin_drawn.try_set(true);
                },
                std::time::Duration::from_millis(300),
            );
        }
    });
    let visible = move || {
        let shown = layout.with(|l| l.0.clone());
        table.model.with(|m| {
            shown
                .iter()
                .filter_map(|k| m.entry_by_key(*k))
                .map(|e| ((e.key, drawn_rev(e)), e.clone()))
                .collect::<Vec<_>>()
        })
    };
    // A new search starts at its newest match, following.
    Effect::new(move |_| {
        table.search.track();
        span.set(None);
        at_bottom.set_value(true);
    });
    // The reader's place ([`place`]): the entry at the top of the view, its offset from the
    // view's top, and the scroll offset when that was true; taken from the reader's scrolling,
    // put back after every change to what is drawn. A reader's move whose scroll event is still
    // to come is counted in (the entry should have moved with it), so a change and a move in
    // the same frame are told apart. `ours` is the scroll offset this code set last: its
    // scroll event must not take the place anew, nor read as the reader going up.
    let place = StoredValue::new(None::<(u64, f64, i32)>);
    let ours = StoredValue::new(None::<i32>);
    let keep_place = move || {
        if layout.try_with_untracked(|_| ()).is_none() {
            return;
        }
        let (Some(el), Some(inner)) = (
            scroller.try_get_untracked().flatten(),
            inner.try_get_untracked().flatten(),
        ) else {
            return;
        };
        if at_bottom.get_value() {
            if reader_active() && el.scroll_top() < last_top.get_value() - 2 {
                // The reader is leaving the end; their scroll event is still to come.
                return;
            }
            el.set_scroll_top(el.scroll_height());
            pinned.set_value(changes.get_value());
            last_top.set_value(el.scroll_top());
        } else if let Some((key, offset, at)) = place.get_value() {
            let now = el.scroll_top();
            let expected = offset + f64::from(at - now);
            let Some(moved) = place::offset(&el, &inner, key).map(|o| o - expected) else {
                return;
            };
            if moved.abs() <= 0.5 {
                return;
            }
            el.set_scroll_top(now + moved.round() as i32);
            let after = el.scroll_top();
            if let Some(o) = place::offset(&el, &inner, key) {
                place.set_value(Some((key, o, after)));
            }
        } else {
            return;
        }
        ours.set_value(Some(el.scroll_top()));
    };
    // What is drawn changes size after layout and before paint: the place is put back there,
    // in the same frame, so the reader never sees a frame where it moved.
    let observer = StoredValue::new_local(
        None::<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>,
    );
    Effect::new(move |_| {
        let Some(el) = inner.get() else {
            return;
        };
        let resized = Closure::<dyn FnMut(js_sys::Array)>::new(move |_| keep_place());
        if let Ok(o) = web_sys::ResizeObserver::new(resized.as_ref().unchecked_ref()) {
            o.observe(&el);
            observer.set_value(Some((o, resized)));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| {
            if let Some((o, _)) = o.take() {
                o.disconnect();
            }
        });
    });
    Effect::new(move |_| {
        layout.track();
        table.model.track();
        changes.update_value(|n| *n += 1);
        request_animation_frame(move || {
            let started = crate::perf::now_ms();
            let _timed = Timed("measure_ms", started);
            // The table may have been left since this frame was asked for.
            if layout.try_with_untracked(|_| ()).is_none()
                || heights.try_with_value(|_| ()).is_none()
            {
                return;
            }
            let Some(inner) = inner.get_untracked() else {
                return;
            };
            let mut changed = false;
            heights.update_value(|h| {
                for (key, e) in place::drawn(&inner) {
                    let height = f64::from(e.offset_height()) + GAP;
                    if (h.of(key) - height).abs() > 0.5 {
                        h.set(key, height);
                        changed = true;
                    }
                }
                if changed {
                    h.settle();
                }
            });
            keep_place();
            if changed {
                measured.update(|m| *m = m.wrapping_add(1));
            }
        });
    });
    let on_scroll = move |_| {
        let _timed = Timed("scroll_ms", crate::perf::now_ms());
        let (Some(el), Some(inner)) = (scroller.get(), inner.get()) else {
            return;
        };
        // Following the end stops only when the reader scrolls up: entries drawn or released
        // around the view move it too, and must not.
        let top = el.scroll_top();
        if ours.get_value() == Some(top) {
            // This code's own move (the place kept, the end followed): the reader's place is
            // already where it was, and what is drawn already holds it.
            ours.set_value(None);
            last_top.set_value(top);
            return;
        }
        ours.set_value(None);
        let settling = pinned.get_value() != changes.get_value() && !reader_active();
        let moved_up = top < last_top.get_value() - 2 && !settling;
        last_top.set_value(top);
        let near_end = el.scroll_height() - top - el.client_height() < 40;
        let bottom = near_end || (at_bottom.get_value() && !moved_up);
        at_bottom.set_value(bottom);
        if bottom && !near_end {
            // Still following, but the content moved under the view: back to the end.
            request_animation_frame(move || {
                if at_bottom.try_get_value() == Some(true) {
                    if let Some(el) = scroller.get_untracked() {
                        el.set_scroll_top(el.scroll_height());
                        last_top.set_value(el.scroll_top());
                        pinned.set_value(changes.get_value());
                        ours.set_value(Some(el.scroll_top()));
                    }
                }
            });
        }
        // The first entry on screen, and where it is: the place to keep.
        let view_top = el.get_bounding_client_rect().top();
        place.set_value(place::first_on_screen(&el, &inner).map(|(k, o)| (k, o, top)));
        if bottom {
            if span.get_untracked().is_some() {
                span.set(None);
            }
            return;
        }
        // Where the reader is within the list: how far the list's top is above the viewport's.
        let offset = view_top - inner.get_bounding_client_rect().top();
        let keys = keys.get_untracked();
        let (now, drawn) = layout.with_untracked(|l| (l.0.first().copied(), l.0.len()));
        let drawn_lo = now.and_then(|k| keys.iter().position(|x| *x == k));
        // Walked from the first drawn entry where it is on the page, so a scroll never jumps
        // over entries; worked out from the top only when the view is far from what is drawn.
        let first_top = inner
            .query_selector(":scope > .entry")
            .ok()
            .flatten()
            .map(|e| e.get_bounding_client_rect().top());
        let want = heights.with_value(|h| {
            drawn_lo
                .zip(first_top)
                .and_then(|(lo, top)| {
                    virtual_list::span_near(
                        &keys,
                        h,
                        (lo, drawn),
                        view_top - top,
                        viewport(),
                        viewport(),
                    )
                })
                .unwrap_or_else(|| virtual_list::span(&keys, h, offset, viewport(), viewport()))
        });
        let (lo, hi) = span
            .get_untracked()
            .map_or((drawn_lo.unwrap_or(0), keys.len()), |(lo, hi)| {
                (lo, hi.unwrap_or(keys.len()))
            });
        // Draw whenever part of what is wanted is missing; release only what is well past it.
        let slack = 8;
        if want.0 < lo || want.1 > hi || want.0 > lo + slack || want.1 + slack < hi {
            let end = (want.1 < keys.len()).then_some(want.1);
            span.set(Some((want.0, end)));
        }
    };
    let on_choice = Callback::new(move |input: String| table.say(input));
    view! {
        <div class="transcript" node_ref=scroller on:scroll=on_scroll role="log" aria-live="off"
            on:wheel=move |_| gesture() on:keydown=move |_| gesture()
            on:pointerdown=move |_| { pointer_held.set_value(true); gesture() }
            on:touchstart=move |_| gesture()
            id="transcript"
            data-entries=move || table.model.with(|m| m.len()).to_string()
            data-replays=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.count)).to_string()
            data-replayed=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.items)).to_string()
            data-replay-known=move || table.model.with(|m| m.last_replay.map_or(0, |r| r.known)).to_string()>
            {move || table.model.with(|m| m.is_empty()).then(|| view! {
                <p class="transcript-empty">{tr(locale.get(), "play.empty")}</p>
            })}
            {move || {
                let query = table.search.get();
                (!query.trim().is_empty()).then(|| {
                    let n = table.model.with(|m| m.iter().filter(|e| entry_matches(e, &query)).count());
                    view! {
                        <p class="search-summary" id="search-summary" data-count=n>
                            {format!("{n} {}", tr(locale.get(), "story.matches"))}
                            " · "
                            <button class="link" on:click=move |_| table.search.set(String::new())>
                                {tr(locale.get(), "story.clear")}
                            </button>
                        </p>
                    }
                })
            }}
            <div class="transcript-inner" node_ref=inner role="list">
                <div class="transcript-spacer" aria-hidden="true"
                    style:height=move || format!("{}px", layout.with(|l| l.1))></div>
                <For each=visible key=|(k, _)| *k let:item>
                    <EntryView entry=item.1 on_choice=on_choice attr:data-key=item.0.0.to_string()/>
                </For>
                <div class="transcript-spacer" aria-hidden="true"
                    style:height=move || format!("{}px", layout.with(|l| l.2))></div>
            </div>
            {move || table.model.with(|m| m.turn.clone()).map(|turn| {
                let l = locale.get();
                let mut text = format!("{} {}", sanitize_text(&turn.actor), tr(l, "turn.busy"));
                if let Some(a) = turn.activity.as_ref() {
                    text.push_str(&format!(" · {}", activity_word(l, a)));
                }
                if let Some(r) = turn.round {
                    text.push_str(&format!(" · {} {r}", tr(l, "turn.round")));
                }
                view! { <p class="turn-indicator" id="turn"><span class="quill"></span>{text}</p> }
            })}
        </div>
    }
}

/// Adds the time from its start to its drop to a perf total (every return path counted).
struct Timed(&'static str, f64);

impl Drop for Timed {
    fn drop(&mut self) {
        crate::perf::add(self.0, crate::perf::now_ms() - self.1);
    }
}

/// What the Keeper is doing, in the player's words (an activity Studio does not know shows as
/// the engine named it).
fn activity_word(l: crate::i18n::Locale, a: &protocol::frame::Activity) -> String {
    use protocol::frame::Activity;
    let key = match a {
        Activity::Reading => "turn.reading",
        Activity::Dice => "turn.dice",
        Activity::Cast => "turn.cast",
        Activity::Bookkeeping => "turn.bookkeeping",
        other => return sanitize_text(other.as_str()),
    };
    tr(l, key).to_string()
}

/// What makes an entry a new element: its revision, except while it is a draft, which stays
/// one element as it grows (its text follows the model) and is drawn anew once final.
fn drawn_rev(e: &protocol::session::Entry) -> Option<u32> {
    match &e.body {
        protocol::session::EntryBody::Narrative(line) if line.draft => None,
        _ => Some(e.rev),
    }
}
