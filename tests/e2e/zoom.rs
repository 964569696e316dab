//! The window at 200% (#29 item 5): Ctrl+= five times zooms the WebView itself (the page's CSS
//! width halves), and at that size the play view and a keeper screen still fit: no horizontal
//! scrolling of the page or the transcript, nothing of the status bar, the input or the sidebar
//! past the window's right edge. Screenshots of both are written for a person to look at;
//! Ctrl+0 brings the normal size back.

use std::time::Duration;

use serde_json::json;
use studio_e2e::play::{join_demo, play_turn};
use studio_e2e::{open_studio_with, out_dir, wait_for, Studio};

/// The page's width in CSS pixels.
fn css_width(s: &Studio) -> f64 {
    s.execute("return window.innerWidth;", json!([]))
        .expect("the window's width")
        .as_f64()
        .expect("a number")
}

/// Everything that does not fit, in words (empty when all fits).
fn overflow(s: &Studio) -> Vec<String> {
    let v = s
        .execute(
            "const w = window.innerWidth, out = [];
             const page = document.scrollingElement;
             if (page.scrollWidth > page.clientWidth + 1)
               out.push('the page scrolls sideways: ' + page.scrollWidth + ' > ' + page.clientWidth
                 + ', widened by: ' + [...document.body.querySelectorAll('*')]
                   .filter(e => e.getBoundingClientRect().right > w + 1)
                   .slice(0, 6).map(e => e.tagName + (e.id ? '#' + e.id : '')
                     + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''))
                   .join(' > '));
             for (const sel of ['.transcript', '.play-main', '.keeper-screen']) {
               const el = document.querySelector(sel);
               if (el && el.scrollWidth > el.clientWidth + 1)
                 out.push(sel + ' scrolls sideways: ' + el.scrollWidth + ' > ' + el.clientWidth);
             }
             const parts = '.status-bar button, .status-bar .status-conn, .status-bar h1, '
               + '.input-box textarea, .input-box button, .sidebar, #keeper-screen button, '
               + '#keeper-screen input';
             // Inside a box that scrolls sideways on its own (a data table) is not cut off.
             const boxed = el => {
               for (let a = el.parentElement; a; a = a.parentElement) {
                 const o = getComputedStyle(a).overflowX;
                 if ((o === 'auto' || o === 'scroll') && a.getBoundingClientRect().right <= w + 1
                     && a !== document.scrollingElement) return true;
               }
               return false;
             };
             for (const el of document.querySelectorAll(parts)) {
               const r = el.getBoundingClientRect();
               if (r.width > 0 && r.right > w + 1 && !boxed(el))
                 out.push((el.id ? '#' + el.id : el.className || el.tagName)
                   + ' ends at ' + Math.round(r.right) + ' past ' + w);
             }
             return out;",
            json!([]),
        )
        .expect("measuring what fits");
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn at_200_percent_play_and_a_keeper_screen_still_fit() {
    let _scenario = studio_e2e::scenario();
    let dir = studio_e2e::peers::fresh_dir("zoom");
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", dir.to_str().unwrap()),
        ("STUDIO_DEMO_PACING", "fast"),
    ]);
    join_demo(&s);
    play_turn(&s, "I knock on the cottage door.");
    let normal = css_width(&s);

    for _ in 0..5 {
        s.press(&[&["Control", "="]]);
    }
    let zoomed = wait_for(Duration::from_secs(10), "the window at 200%", || {
        let w = css_width(&s);
        ((w - normal / 2.0).abs() <= 2.0).then_some(w)
    });
    eprintln!("zoom: the page is {normal} CSS px wide at 100%, {zoomed} at 200%");
    let found = overflow(&s);
    s.screenshot(&out_dir().join("zoom-200-play.png"));
    assert!(
        found.is_empty(),
        "at 200% the play view does not fit: {found:#?}"
    );
    // The top bar leaves the story its height: the view settings fold behind one button, so
    // the bar is at most two rows (it was four, a third of the window).
    let bar = s
        .execute(
            "const b = document.querySelector('.status-bar').getBoundingClientRect(); \
             return [b.height, window.innerHeight];",
            json!([]),
        )
        .expect("measuring the top bar");
    let (bar_h, window_h) = (
        bar[0].as_f64().unwrap_or(0.0),
        bar[1].as_f64().unwrap_or(0.0),
    );
    eprintln!("zoom: the top bar is {bar_h} of {window_h} CSS px at 200%");
    assert!(
        bar_h > 0.0 && bar_h <= window_h * 0.2,
        "at 200% the top bar takes {bar_h} of {window_h} CSS px"
    );
    // The folded settings open with a keypress and fold again.
    s.execute(
        "document.getElementById('status-settings-toggle').focus(); return 0;",
        json!([]),
    )
    .expect("focusing View");
    let shown = |id: &str| {
        s.execute(
            "const e = document.getElementById(arguments[0]); return !!e && e.offsetParent !== null;",
            json!([id]),
        )
        .expect("reading what is shown")
            == json!(true)
    };
    assert!(
        !shown("theme-switch"),
        "the view settings are folded at 200%"
    );
    s.press(&[&["Enter"]]);
    wait_for(Duration::from_secs(5), "the view settings", || {
        shown("theme-switch").then_some(())
    });
    s.press(&[&["Enter"]]);
    wait_for(Duration::from_secs(5), "the view settings folded", || {
        (!shown("theme-switch")).then_some(())
    });

    // The Keeper menu by keyboard: at 200% WebKit's driver puts a click at the unzoomed
    // place (it lands elsewhere), and keys are what this build promises anyway.
    s.execute(
        "document.getElementById('keeper-menu').focus(); return 0;",
        json!([]),
    )
    .expect("focusing the Keeper menu");
    s.press(&[&["Enter"]]);
    wait_for(
        Duration::from_secs(5),
        "the Keeper menu's first item",
        || {
            s.focused()
                .starts_with("button.keeper-menu-item")
                .then_some(())
        },
    );
    s.press(&[&["Enter"]]);
    // Measured with its rows in (the list comes from the table).
    wait_for(
        Duration::from_secs(10),
        "the keys screen with its rows",
        || s.find("#keeper-screen[data-page='keys'] #keys tbody tr"),
    );
    let found = overflow(&s);
    s.screenshot(&out_dir().join("zoom-200-keeper-keys.png"));
    assert!(
        found.is_empty(),
        "at 200% the keys screen does not fit: {found:#?}"
    );

    s.press(&[&["Control", "0"]]);
    wait_for(Duration::from_secs(10), "the normal size again", || {
        ((css_width(&s) - normal).abs() <= 2.0).then_some(())
    });
}
