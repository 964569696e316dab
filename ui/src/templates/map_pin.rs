//! `map_pin`: a map from the media cache with a marker at `x`,`y` — fractions of the
//! image's own box, so it scales with any size. Label and note show on hover or focus.
//!
//! When the same map comes back with the pin elsewhere, the new marker starts where the
//! last one stood and glides to its new place (CSS transition on left/top).

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use protocol::frame::MapPin;

use super::{media_url, unit};

thread_local! {
    /// Where each map's pin last stood, by map hash.
    static LAST_PIN: RefCell<HashMap<String, (f64, f64)>> = RefCell::new(HashMap::new());
}

#[component]
pub fn MapPinView(pin: MapPin) -> impl IntoView {
    let MapPin {
        hash,
        mime,
        size,
        label,
        x,
        y,
        note,
    } = pin;
    let target = (unit(x), unit(y));
    let previous = LAST_PIN.with(|last| last.borrow_mut().insert(hash.clone(), target));
    let at = RwSignal::new(previous.unwrap_or(target));
    if at.get_untracked() != target {
        // Two frames: the first lets the old position lay out, the second moves the pin.
        request_animation_frame(move || {
            request_animation_frame(move || {
                at.try_set(target);
            })
        });
    }
    let loaded = RwSignal::new(false);
    let src = media_url(&hash, mime.as_deref(), size);
    let place = move || {
        let (x, y) = at.get();
        format!("left: {:.3}%; top: {:.3}%", x * 100.0, y * 100.0)
    };
    // The bubble opens away from the nearest edges.
    let side = move || {
        let (x, y) = at.get();
        let h = if x > 0.7 {
            "end"
        } else if x < 0.3 {
            "start"
        } else {
            "mid"
        };
        format!("{h} {}", if y < 0.3 { "below" } else { "above" })
    };
    let aria = match &note {
        Some(n) => format!("{label} — {n}"),
        None => label.clone(),
    };
    let note = note.map(|n| view! { <span class="lw-pin-note">{n}</span> });
    view! {
        <figure class="lw-map">
            <div class="lw-map-frame" class:loaded=move || loaded.get()>
                <img
                    class="lw-map-image"
                    src=src
                    alt=""
                    draggable="false"
                    on:load=move |_| loaded.set(true)
                />
                <div class="lw-pin" style=place tabindex="0" role="img" aria-label=aria>
                    <span class="lw-pin-pulse" aria-hidden="true"></span>
                    <span class="lw-pin-head" aria-hidden="true"></span>
                    <span class="lw-pin-bubble" data-side=side aria-hidden="true">
                        <span class="lw-pin-label">{label.clone()}</span>
                        {note}
                    </span>
                </div>
            </div>
            <figcaption class="lw-map-caption">
                <span class="lw-map-caption-pin" aria-hidden="true"></span>
                {label}
            </figcaption>
        </figure>
    }
}
