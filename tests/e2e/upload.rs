//! Sharing pictures and sounds: paths handed to the backend (the command a drop on the window
//! calls), read from disk and PUT with progress, then shown to the room from the verified
//! cache; refusals said next to the upload; a long upload cancelled.
//!
//! The long upload's progress is read while it is in flight (two readings, the second further
//! on, each the same in words and in the bar), and Cancel is held to what the table saw: the
//! demo table (in Studio's process, writing to the same log) says when a PUT ended before its
//! last byte, and until it does the room's list and the table's files are watched for the
//! cancelled file. A Cancel that only changed the row lets the upload finish: the table never
//! says so, and the room lists the file.

use std::time::Duration;

use sha2::Digest;
use studio_e2e::keeper::click;
use studio_e2e::logs;
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::join_demo;
use studio_e2e::{open_studio_with, out_dir, wait_for};

/// A small picture in the static SVG subset the table accepts.
const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#d9a441"/></svg>"##;
/// One the table refuses after the bytes arrive: it carries a script.
const BAD_SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script></svg>"##;
/// What the table logs when a PUT stops short (crates/local-table/src/wire/media.rs).
const DROPPED: &str = "a media upload ended before its last byte: dropped";

/// Drops `paths` on the window from outside (a real XDND drag), checks the confirmation lists
/// them, and answers Share (`share`) or Cancel. Returns the confirmation's text.
fn drop_answered(s: &studio_e2e::Studio, paths: &[&std::path::Path], share: bool) -> String {
    studio_e2e::xdnd::drop_files(s.app_pid() as u32, paths);
    let text = wait_for(Duration::from_secs(10), "the drop's confirmation", || {
        s.find("#drop-offer").map(|d| s.text(&d))
    });
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(text.contains(name.as_ref()), "{name} is not listed: {text}");
    }
    if !share {
        s.screenshot(&out_dir().join("upload-drop-refused.png"));
    }
    click(s, if share { "#drop-share" } else { "#drop-cancel" });
    wait_for(Duration::from_secs(5), "the confirmation to close", || {
        s.find("#drop-offer").is_none().then_some(())
    });
    text
}

/// A drop on the window, shared once the person confirms.
fn drop_files(s: &studio_e2e::Studio, paths: &[&std::path::Path]) {
    let text = drop_answered(s, paths, true);
    assert!(!text.contains("Not shared"), "{text}");
}

/// Runs `script` in the page with `arg` as `arguments[0]`; a WebDriver error panics, naming
/// `what` was being read.
fn read(s: &studio_e2e::Studio, script: &str, arg: &str, what: &str) -> serde_json::Value {
    s.execute(script, serde_json::json!([arg]))
        .unwrap_or_else(|e| panic!("reading {what}: {e}"))
}

/// The natural width of the picture `css` names, 0 until it has loaded (or while there is none).
fn natural_width(s: &studio_e2e::Studio, css: &str) -> f64 {
    let v = read(
        s,
        "const i = document.querySelector(arguments[0]); return i && i.complete ? i.naturalWidth : 0;",
        css,
        css,
    );
    v.as_f64()
        .unwrap_or_else(|| panic!("the width of {css} is not a number: {v}"))
}

/// An upload row as the person sees it.
#[derive(Debug)]
struct Row {
    state: String,
    /// The whole row's text (name, percentage or sentence).
    text: String,
    /// The state's words: `37%` while sending, else a sentence.
    label: String,
    /// The bar's width (`37%`).
    fill: String,
}

/// The upload row for `name`, `None` while there is none; a WebDriver error panics.
fn row(s: &studio_e2e::Studio, name: &str) -> Option<Row> {
    let v = read(
        s,
        "const u = Array.from(document.querySelectorAll('.uploads .upload'))
           .find((u) => u.textContent.includes(arguments[0]));
         if (!u) { return null; }
         const label = u.querySelector('.upload-state');
         const fill = u.querySelector('.meter-fill');
         return [u.dataset.state, u.textContent, label ? label.textContent : null,
                 fill ? fill.style.width : null];",
        name,
        &format!("the upload row of {name}"),
    );
    if v.is_null() {
        return None;
    }
    let field = |i: usize, what: &str| {
        v[i].as_str()
            .unwrap_or_else(|| panic!("the upload row of {name} has no {what}: {v}"))
            .to_string()
    };
    Some(Row {
        state: field(0, "state"),
        text: field(1, "text"),
        label: field(2, "state label"),
        fill: field(3, "bar"),
    })
}

/// The percentage a sending row shows, once it is past 0% and short of 100%: the words and the
/// bar must say the same.
fn in_flight(r: &Row) -> Option<u64> {
    if r.state != "sending" {
        return None;
    }
    let pct: u64 = r
        .label
        .trim()
        .strip_suffix('%')
        .unwrap_or_else(|| panic!("a sending row shows no percentage: {r:?}"))
        .parse()
        .unwrap_or_else(|e| panic!("a sending row's percentage: {e}: {r:?}"));
    assert_eq!(
        r.fill,
        format!("{pct}%"),
        "the bar and the words differ: {r:?}"
    );
    (1..100).contains(&pct).then_some(pct)
}

/// Whether the room's shared list (sidebar) names `name`.
fn room_lists(s: &studio_e2e::Studio, name: &str) -> bool {
    let v = read(
        s,
        "const c = document.getElementById('shared'); return !!c && c.textContent.includes(arguments[0]);",
        name,
        "the room's shared list",
    );
    v.as_bool()
        .unwrap_or_else(|| panic!("the shared list check is not a boolean: {v}"))
}

/// Every file under `dir` (the demo table's keys, room state and media), recursively.
fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap_or_else(|e| panic!("{}: {e}", d.display())).path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Panics when the demo table (its files under `table`) holds the cancelled upload: a media
/// file named by its hash, or a room record that names it.
fn assert_table_lacks(table: &std::path::Path, hash: &str, name: &str) {
    for f in files_under(table) {
        assert!(
            f.file_name().is_none_or(|n| n != hash),
            "the table stored the cancelled upload: {}",
            f.display()
        );
        if f.metadata().is_ok_and(|m| m.len() < 16 * 1024 * 1024) {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert!(
                !String::from_utf8_lossy(&bytes).contains(name),
                "the table's {} names the cancelled upload",
                f.display()
            );
        }
    }
}

#[test]
fn pictures_are_shared_by_path_refusals_are_said_and_a_long_upload_cancels() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("upload");
    let picture = dir.join("gold dot.svg");
    std::fs::write(&picture, SVG).expect("writing the picture");
    let data = dir.join("data");
    let s = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_DATA_DIR", data.to_str().expect("a UTF-8 path")),
    ]);
    join_demo(&s);
    drop_files(&s, &[&picture]);
    wait_for(Duration::from_secs(30), "the upload to finish", || {
        (row(&s, "gold dot.svg")?.state == "done").then_some(())
    });
    // The room's `media` broadcast puts it in the sidebar, served by lwmedia from the cache.
    wait_for(Duration::from_secs(20), "the shared picture", || {
        s.find("#shared .shared-media img")
    });
    wait_for(Duration::from_secs(10), "the picture to load", || {
        (natural_width(&s, "#shared .shared-media img") > 0.0).then_some(())
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
            .unwrap_or_else(|e| panic!("reading the viewer: {e}"));
        if v.is_null() {
            return None;
        }
        let text = |i: usize| {
            v[i].as_str()
                .unwrap_or_else(|| panic!("the viewer reading {i} is not text: {v}"))
                .to_string()
        };
        let width = v[1]
            .as_f64()
            .unwrap_or_else(|| panic!("the viewer's picture width is not a number: {v}"));
        Some((format!("{}|{}", text(0), text(2)), width))
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
        (natural_width(&s, "#character img.avatar") > 0.0).then_some(())
    });
    click(&s, "#viewer-close");
    s.type_text(&body, "\u{E00C}");

    // Not a picture or a sound, and a link named like a picture (pointing at a private file):
    // the confirmation refuses both before anything is read, and has nothing to share.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not media").unwrap();
    let private = dir.join("private-key");
    std::fs::write(&private, "KEY").unwrap();
    let link = dir.join("token.png");
    std::os::unix::fs::symlink(&private, &link).unwrap();
    let offer = drop_answered(&s, &[&notes, &link], false);
    assert!(
        offer.contains("Studio shares pictures") && offer.contains("is a link"),
        "{offer}"
    );
    assert!(
        s.find("#drop-share").is_none(),
        "a share button for nothing"
    );
    assert!(
        row(&s, "notes.txt").is_none() && row(&s, "token.png").is_none(),
        "a refused file became an upload"
    );
    // The page cannot share by path any more: the command is gone.
    s.execute(
        "window.__byPath = null;
         window.__TAURI_INTERNALS__.invoke('share_files', { args: { paths: [arguments[0]] } })
           .then(() => { window.__byPath = 'SHARED'; }, (e) => { window.__byPath = 'ERR ' + String(e); });
         return 0;",
        serde_json::json!([private.display().to_string()]),
    )
    .unwrap_or_else(|e| panic!("asking to share by path: {e}"));
    let by_path = wait_for(Duration::from_secs(10), "the by-path answer", || {
        s.execute("return window.__byPath;", serde_json::json!([]))
            .ok()?
            .as_str()
            .map(str::to_string)
    });
    assert!(
        by_path.starts_with("ERR"),
        "share_files answered: {by_path}"
    );

    // Refused by the table after the bytes arrived: said next to that upload.
    let bad = dir.join("scripted.svg");
    std::fs::write(&bad, BAD_SVG).unwrap();
    drop_files(&s, &[&bad]);
    let refused = wait_for(Duration::from_secs(20), "the table's refusal", || {
        row(&s, "scripted.svg").filter(|r| r.state == "failed")
    });
    assert!(
        refused.text.contains("may not carry scripts"),
        "{refused:?}"
    );
    s.screenshot(&out_dir().join("upload-refused.png"));

    // A long sound: progress while it is in flight; Cancel stops it; the room never lists it.
    let name = "long night.wav";
    let big = dir.join(name);
    let size = 120 * 1024 * 1024;
    {
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(size).unwrap();
    }
    let hash = format!("{:x}", sha2::Sha256::digest(vec![0u8; size as usize]));
    let table = data.join("demo-table");
    drop_files(&s, &[&big]);
    let first = wait_for(
        Duration::from_secs(60),
        "the long upload's progress",
        || row(&s, name).as_ref().and_then(in_flight),
    );
    // Further on, still in flight: the bytes are moving, and the row says so; Cancel is
    // clicked at that moment. The page clicks it itself, within the task that drew the
    // reading: a loopback upload once outran WebDriver's round trips (read, find, scroll,
    // click) on CI's loaded cores and finished before the click arrived.
    s.execute(
        "window.__cancelAt = null;
         const first = arguments[0], name = arguments[1];
         const box = document.querySelector('.uploads');
         const look = () => {
           const u = Array.from(box.querySelectorAll('.upload'))
             .find((u) => u.textContent.includes(name));
           if (!u) { return; }
           if (u.dataset.state !== 'sending') {
             obs.disconnect();
             window.__cancelAt = 'the long upload stopped by itself: ' + u.dataset.state + ' ' + u.textContent;
             return;
           }
           const label = u.querySelector('.upload-state').textContent.trim();
           const width = u.querySelector('.meter-fill').style.width;
           const pct = parseInt(label, 10);
           if (pct > first && pct < 100) {
             obs.disconnect();
             window.__cancelAt = label === width ? pct : 'the bar and the words differ: ' + label + ' / ' + width;
             u.querySelector('.upload-cancel').click();
           }
         };
         const obs = new MutationObserver(look);
         obs.observe(box, {subtree: true, childList: true, characterData: true, attributes: true});
         look();
         return 0;",
        serde_json::json!([first, name]),
    )
    .unwrap_or_else(|e| panic!("watching the long upload: {e}"));
    let second = wait_for(
        Duration::from_secs(60),
        "the long upload to move on and be cancelled",
        || {
            let v = s
                .execute("return window.__cancelAt;", serde_json::json!([]))
                .unwrap_or_else(|e| panic!("reading the cancelled reading: {e}"));
            if let Some(why) = v.as_str() {
                panic!("{why}");
            }
            v.as_u64()
        },
    );
    eprintln!("the long upload in flight: {first}%, then {second}%, cancelled there");
    let cancelled = wait_for(Duration::from_secs(20), "the cancelled upload", || {
        row(&s, name).filter(|r| r.state != "sending")
    });
    assert_eq!(cancelled.state, "cancelled", "{cancelled:?}");
    assert!(cancelled.text.contains("Cancelled."), "{cancelled:?}");
    // The table saw the PUT end short, and until it did, the room never listed the file and
    // the table never stored it.
    wait_for(
        Duration::from_secs(120),
        "the table to drop the cancelled PUT",
        || {
            assert!(
                !room_lists(&s, name),
                "the room lists the cancelled upload {name:?}"
            );
            assert_table_lacks(&table, &hash, name);
            logs::files(&data)
                .iter()
                .any(|(_, t)| t.lines().any(|l| l.contains(DROPPED) && l.contains(name)))
                .then_some(())
        },
    );
    // Dropped by the table: nothing of it is stored or listed afterwards either.
    assert!(
        !room_lists(&s, name),
        "the room lists the cancelled upload {name:?}"
    );
    assert_table_lacks(&table, &hash, name);
    s.screenshot(&out_dir().join("upload-cancelled.png"));
}
