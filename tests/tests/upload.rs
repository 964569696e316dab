//! Sharing a picture: picked in the window, offered and PUT by the backend with progress, then
//! shown to the room from the verified cache.

use std::time::Duration;
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::open_demo;
use studio_e2e::{out_dir, wait_for};

/// A small picture in the static SVG subset the table accepts.
const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#d9a441"/></svg>"##;

#[test]
fn a_picture_is_shared_with_progress_and_shown_from_the_cache() {
    let dir = fresh_dir("upload");
    let picture = dir.join("gold dot.svg");
    std::fs::write(&picture, SVG).expect("writing the picture");
    let s = open_demo();
    let picker = s
        .find("#share-file")
        .expect("the share button's file input");
    s.type_text(&picker, picture.to_str().unwrap());
    wait_for(Duration::from_secs(30), "the upload to finish", || {
        let done = s
            .execute(
                "const d = document.querySelector(\".upload[data-state='done']\"); return d ? d.textContent : '';",
                serde_json::json!([]),
            )
            .ok()?;
        done.as_str()?.contains("gold dot.svg").then_some(())
    });
    // The room's `media` broadcast puts it in the sidebar, served by lwmedia from the cache.
    wait_for(Duration::from_secs(20), "the shared picture", || {
        s.find("#shared .shared-media img")
    });
    wait_for(Duration::from_secs(10), "the picture to load", || {
        let v = s
            .execute(
                "const i = document.querySelector('#shared .shared-media img'); return i && i.complete ? i.naturalWidth : 0;",
                serde_json::json!([]),
            )
            .ok()?;
        (v.as_f64().unwrap_or(0.0) > 0.0).then_some(())
    });
    s.screenshot(&out_dir().join("upload.png"));
}
