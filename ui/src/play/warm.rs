//! The room's fonts, warmed while the connect screen waits.
//!
//! The first layout that uses a font at a size and weight pays for finding it and measuring its
//! glyphs: in the bench's join that was ~15 of the ~20 ms the room's first layout took, all of it
//! between the welcome arriving and the room painted. A specimen in the room's own classes (so it
//! follows the stylesheet), laid out once off screen and removed, pays it before the join.

use std::time::Duration;

use wasm_bindgen::JsCast;

const LINE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 .,:;!?'\"()[]/-+*&%#@ \u{201c}\u{201d}\u{2018}\u{2019} \u{2014} \u{2026} \u{b7} \u{25be} \u{2264}";

/// Static markup in the room's classes; every line of it the same fixed text (the whitespace
/// between tags is only more of it).
fn specimen() -> String {
    let l = LINE;
    format!(
        r#"<section class="play">
<header class="status-bar"><h1 class="status-brand">{l}</h1><span class="status-conn">{l}</span>
<span class="status-room">{l} <strong>{l}</strong></span><span class="status-role">{l}</span>
<span class="status-version">{l}</span></header>
<div class="play-body"><main class="play-main"><div class="transcript"><div class="transcript-inner">
<div class="entry narrative" data-speaker="kp"><header class="speaker">{l}</header><div class="body">
<p>{l} <strong>{l}</strong> <em>{l}</em> <strong><em>{l}</em></strong> <code>{l}</code></p>
<h1>{l}</h1><h2>{l}</h2><h3>{l}</h3><blockquote>{l}</blockquote></div></div>
<div class="entry narrative" data-speaker="npc"><header class="speaker">{l}</header><div class="body"><p>{l}</p></div></div>
<div class="entry narrative" data-speaker="system"><div class="body"><p>{l}</p></div></div>
<div class="entry dice" data-tone="plain"><span class="die-icon"></span><span class="actor">{l}</span>
<span class="subsystem">{l}</span><span class="expr">{l}</span><span class="rolls">{l}</span>
<span class="total">{l}</span><span class="target">{l}</span><span class="outcome">{l}</span>
<span class="chips"><span class="chip">{l}</span></span></div>
</div></div></main>
<aside class="sidebar"><section class="card"><div class="char-head"><div><h3>{l}</h3><span class="system">{l}</span></div></div>
<div class="meter resource"><div class="meter-head"><span>{l}</span><span class="value">{l}</span></div></div>
<dl class="attributes"><div><dt>{l}</dt><dd>{l}</dd></div></dl></section>
<section class="card party"><h3 class="card-label">{l}</h3><div class="member online active"><span class="name">{l}</span></div></section>
</aside></div></section>"#
    )
}

/// Lays the specimen out and removes it in one task, so it is never painted; `aria-hidden`,
/// `inert`, hidden and off screen besides.
fn lay_out_specimen() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(body), Ok(holder)) = (document.body(), document.create_element("div")) else {
        return;
    };
    let _ = holder.set_attribute("aria-hidden", "true");
    let _ = holder.set_attribute("inert", "");
    let _ = holder.set_attribute("class", "studio lw-warm");
    holder.set_inner_html(&specimen());
    if body.append_child(&holder).is_ok() {
        if let Some(h) = holder.dyn_ref::<web_sys::HtmlElement>() {
            // Reading a size lays it out now, with every font it names.
            let started = crate::perf::now_ms();
            let _ = h.offset_height();
            crate::perf::add("warm_fonts_ms", crate::perf::now_ms() - started);
        }
        holder.remove();
    }
}

/// Warms the room's fonts once, when the window is idle after it opened (where WebKit can say
/// so; else a moment later), after the connect screen's first paint and its own first tasks.
pub fn warm_fonts() {
    crate::idle::when_idle(lay_out_specimen, Duration::from_millis(500));
}

#[cfg(test)]
mod tests {
    use super::specimen;

    const STYLES: [&str; 3] = [
        include_str!("../../styles/studio.css"),
        include_str!("../../styles/play.css"),
        include_str!("../../styles/templates.css"),
    ];

    /// A class the stylesheet no longer styles warms nothing: the specimen follows the room.
    #[test]
    fn every_class_in_the_specimen_is_styled() {
        let html = specimen();
        let mut unstyled = Vec::new();
        for attr in html.split("class=\"").skip(1) {
            let classes = attr.split('"').next().unwrap_or_default();
            for class in classes.split_whitespace() {
                let selector = format!(".{class}");
                let styled = STYLES.iter().any(|css| {
                    css.match_indices(&selector).any(|(at, _)| {
                        // `.chip` is not styled by `.chips`.
                        let next = css[at + selector.len()..].chars().next();
                        !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
                    })
                });
                if !styled {
                    unstyled.push(class.to_string());
                }
            }
        }
        assert!(unstyled.is_empty(), "not in the stylesheet: {unstyled:?}");
    }

    /// Nothing in it can be found by id or clash with the room's own.
    #[test]
    fn the_specimen_names_no_ids() {
        assert!(!specimen().contains(" id="));
    }
}
