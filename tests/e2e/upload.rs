//! Sharing pictures and sounds: paths handed to the backend (the command a drop on the window
//! calls), read from disk and PUT with progress, then shown to the room from the verified
//! cache; refusals said next to the upload; a long upload cancelled.

use std::time::Duration;
use studio_e2e::keeper::click;
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::open_demo;
use studio_e2e::{out_dir, wait_for};

/// A small picture in the static SVG subset the table accepts.
const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#d9a441"/></svg>"##;
/// One the table refuses after the bytes arrive: it carries a script.
const BAD_SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>"##;

/// What a drop of `paths` on the window does (the same backend command).
fn drop_files(s: &studio_e2e::Studio, paths: &[&std::path::Path]) {
    let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    s.execute(
        "window.__TAURI_INTERNALS__.invoke('share_files', { args: { paths: arguments[0] } }).then((r) => { window.__shared = JSON.stringify(r); }, (e) => { window.__shared = 'ERR ' + String(e); }); return 0;",
        serde_json::json!([list]),
    )
    .expect("sharing by path");
    let answer = wait_for(Duration::from_secs(10), "the share answer", || {
        s.execute(
            "const r = window.__shared; window.__shared = null; return r || null;",
            serde_json::json!([]),
        )
        .ok()?
        .as_str()
        .map(str::to_string)
    });
    assert!(!answer.starts_with("ERR"), "{answer}");
}

/// The upload row for `name`: (state, text).
fn row(s: &studio_e2e::Studio, name: &str) -> Option<(String, String)> {
    let v = s
        .execute(
            "const u = Array.from(document.querySelectorAll('.uploads .upload'))
               .find((u) => u.textContent.includes(arguments[0]));
             return u ? [u.dataset.state, u.textContent] : null;",
            serde_json::json!([name]),
        )
        .ok()?;
    Some((v[0].as_str()?.to_string(), v[1].as_str()?.to_string()))
}

#[test]
fn pictures_are_shared_by_path_refusals_are_said_and_a_long_upload_cancels() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("upload");
    let picture = dir.join("gold dot.svg");
    std::fs::write(&picture, SVG).expect("writing the picture");
    let s = open_demo();
    drop_files(&s, &[&picture]);
    wait_for(Duration::from_secs(30), "the upload to finish", || {
        let (state, _) = row(&s, "gold dot.svg")?;
        (state == "done").then_some(())
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

    // A second picture; the viewer steps between them with the arrow keys.
    let second = dir.join("blue dot.svg");
    std::fs::write(&second, SVG.replace("#d9a441", "#4169e1")).unwrap();
    drop_files(&s, &[&second]);
    wait_for(Duration::from_secs(20), "the second thumbnail", || {
        (s.find_all("#shared .shared-media .thumb").len() == 2).then_some(())
    });
    click(&s, "#shared .shared-media .thumb[data-index='0']");
    let shown = |s: &studio_e2e::Studio| -> Option<(String, f64)> {
        let v = s
            .execute(
                "const v = document.getElementById('viewer'); const i = v && v.querySelector('img');
                 return v ? [v.dataset.index, i && i.complete ? i.naturalWidth : 0, v.textContent] : null;",
                serde_json::json!([]),
            )
            .ok()?;
        Some((
            format!("{}|{}", v[0].as_str()?, v[2].as_str()?),
            v[1].as_f64()?,
        ))
    };
    wait_for(
        Duration::from_secs(10),
        "the viewer on the first picture",
        || shown(&s).filter(|(t, w)| t.starts_with("0|") && t.contains("gold dot.svg") && *w > 0.0),
    );
    let body = s.find("body").unwrap();
    s.type_text(&body, "\u{E014}"); // ArrowRight
    wait_for(Duration::from_secs(5), "the next picture", || {
        shown(&s).filter(|(t, _)| t.starts_with("1|") && t.contains("blue dot.svg"))
    });
    click(&s, "#viewer-zoom");
    wait_for(Duration::from_secs(5), "1:1", || s.find("#viewer.actual"));
    s.screenshot(&out_dir().join("viewer.png"));
    s.type_text(&body, "\u{E00C}"); // Escape: back to the gallery
    wait_for(Duration::from_secs(5), "the gallery", || {
        s.find("#gallery .gallery-item[data-index='1']")
    });
    assert!(
        s.find("#gallery .gallery-sound .listen").is_some(),
        "the room's sound can be listened to"
    );
    s.screenshot(&out_dir().join("gallery.png"));
    s.type_text(&body, "\u{E00C}");
    wait_for(Duration::from_secs(5), "the gallery closed", || {
        s.find("#gallery").is_none().then_some(())
    });

    // "Use as my avatar", once the person has a character: the sheet shows it.
    let name = wait_for(Duration::from_secs(10), "the name field", || {
        s.find("#char-name")
    });
    s.type_text(&name, "Ada");
    click(&s, "#char-create");
    wait_for(Duration::from_secs(15), "the character sheet", || {
        s.find("#character")
    });
    click(&s, "#shared .shared-media .thumb[data-index='1']");
    click(&s, "#viewer-avatar");
    wait_for(Duration::from_secs(15), "the avatar on the sheet", || {
        let v = s
            .execute(
                "const i = document.querySelector('#character img.avatar'); return i && i.complete ? i.naturalWidth : 0;",
                serde_json::json!([]),
            )
            .ok()?;
        (v.as_f64().unwrap_or(0.0) > 0.0).then_some(())
    });
    click(&s, "#viewer-close");
    s.type_text(&body, "\u{E00C}");

    // Not a picture or a sound: said before anything is sent.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not media").unwrap();
    drop_files(&s, &[&notes]);
    let (state, text) = wait_for(
        Duration::from_secs(10),
        "the refusal of a text file",
        || row(&s, "notes.txt").filter(|(st, _)| st == "failed"),
    );
    assert_eq!(state, "failed");
    assert!(text.contains("Studio shares pictures"), "{text}");

    // Refused by the table after the bytes arrived: said next to that upload.
    let bad = dir.join("scripted.svg");
    std::fs::write(&bad, BAD_SVG).unwrap();
    drop_files(&s, &[&bad]);
    let (_, text) = wait_for(Duration::from_secs(20), "the table's refusal", || {
        row(&s, "scripted.svg").filter(|(st, _)| st == "failed")
    });
    assert!(text.contains("may not carry scripts"), "{text}");
    s.screenshot(&out_dir().join("upload-refused.png"));

    // A long sound: Cancel stops it; the room never lists it.
    let big = dir.join("long night.wav");
    {
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(120 * 1024 * 1024).unwrap();
    }
    drop_files(&s, &[&big]);
    wait_for(Duration::from_secs(30), "the long upload under way", || {
        let (state, _) = row(&s, "long night.wav")?;
        (state == "sending").then_some(())
    });
    click(&s, ".upload[data-state='sending'] .upload-cancel");
    let (state, text) = wait_for(Duration::from_secs(20), "the cancelled upload", || {
        row(&s, "long night.wav").filter(|(st, _)| st != "sending")
    });
    assert_eq!(state, "cancelled", "{text}");
    assert!(text.contains("Cancelled."), "{text}");
}
