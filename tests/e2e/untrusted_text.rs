//! Every string from the wire is text: a corpus of hostile payloads, sent by a peer through every
//! text-bearing field Studio renders, must show as text — verbatim, in that field's own element —
//! in the real window, and run nothing.
//!
//! Each (payload, field) pair is tagged with a marker of its own (`Q07·dice.actor·<payload>`), so
//! a hit proves that THIS field showed THIS payload, not that the string turned up somewhere in
//! the page. As the frames are built, [`Probe`] records for each tagged value the CSS selector of
//! the element that must show it; one script in the page then reads every selector once and
//! reports, per field, what is missing or altered:
//! - a plain-text field must contain marker + payload exactly as the sanitiser leaves it (control
//!   characters other than `\n`/`\t`, and bidi embeddings/overrides/isolates, stripped);
//! - a markdown field (narrative text, drafts) gets the marker as a paragraph of its own before
//!   the payload, so the payload keeps its markdown meaning (a leading `>` is still a quote, a
//!   leading fence still a code block); its element must hold no active element, and its
//!   visible text (`innerText`) the marker then every piece of text the payload holds as
//!   markdown (text, raw HTML shown as text, code, a link's words, an image's alt; parsed by
//!   pulldown-cmark, compared with whitespace removed): a block the renderer lost is missing;
//! - where the UI cuts a single-valued field to one line (room, name, server, version in the
//!   status bar; what plays, on the sound button), the whole value is the tooltip (checked per
//!   payload) and the line shows its first characters as text (checked against the value cut
//!   the way `ui/src/play/clip.rs` cuts it); what plays shows whole as text in the sound menu
//!   and who shared a picture in the picture viewer, both opened once to be checked.
//!
//! List-valued fields (transcript lines, blocks, party, variables, panels, media…) carry one entry
//! per payload, each alone. A single-valued field (room name, character name, scene, clock, turn
//! indicator, now playing…) shows only the latest frame, and the peer sends its lines in one burst
//! (no frame is rendered alone), so such a field carries EVERY payload at once: each one tagged,
//! joined with ` ¦ `, and each checked on its own. Every payload passes through the field and is
//! checked verbatim, but together with the others, not alone (the list-shaped siblings carry each
//! alone).
//!
//! The room name: the test peer's own `welcome` names the room `test`; a second `welcome` (the
//! first line after it) renames it, which the session reducer takes as another table and
//! clears — it comes before anything else, so nothing is lost.
//!
//! A frame or block that does not decode does not say so anywhere in the DOM: the UI keeps decode
//! errors in `Table::wire_problems` (ui/src/store/mod.rs) and never renders them, and a block that
//! does not fit decodes to `UiBlock::Unknown`, which renders nothing. So nothing may vanish
//! silently here: every marker must be found, and the transcript, each block kind (inline and in
//! sidebar regions) and each sidebar list must hold exactly as many entries as were sent (no
//! extra system or error line either).
//!
//! The transcript keeps only a window at its end in the DOM and widens it as the reader scrolls
//! up; the checks run at every scroll position and a field counts as shown once it was found, and
//! the counts are taken at the widest window (the loop ends only once the first line is in it).
//!
//! Sent but NOT checked, because the UI does not render them as text:
//! - ids (`narrative.id`, `dice.outcome.id`, choice option `id`, `ui.id`, variable ids), numbers,
//!   `dice.actor` of an opposed roll (the opposed line shows the sides' names instead),
//!   `error.code` (a `data-code` attribute only), `welcome.locale`/`features`;
//! - `title_card.subtitle` of an INLINE card: the transcript keeps a compact `— act · title —`
//!   line without it (sidebar regions show it, and are checked); the live full-bleed act card
//!   shows one card for a few seconds and is not checked;
//! - `audio_library_item` `from`/`license`/`source`/`tags`, `media.hash`/`mime`;
//!   avatars (`alt=""`), `state.usage` (numbers).
//!
//! Rendered, but not covered here:
//! - `welcome.protocol` (kept the real version: a different one is a version drift, another test);
//! - `state.systems` and `pack_cards`: shown only while the viewer has NO character (this state
//!   has one) and after "Import from an installed pack…";
//! - the now-playing `name` fallback (used when `title` is absent; same code path as the title);
//! - the gallery viewer's picture names (one picture at a time; names are checked in the grid;
//!   the sender is checked in the viewer, opened on the picture that carries every sender);
//! - the keeper screens (`admin_*` replies): the keeper console's own tests;
//! - `panel_event` payloads: only tier-2 panel pages read them.

use std::time::Duration;

use serde_json::json;
use studio_e2e::hostile_text::page::{INSTALL, PASS, STEP, VERDICT};
use studio_e2e::hostile_text::{
    corpus, expected_counts, frames, markdown_shown, marker, shown, snapshot, welcome, Probe,
    SENDERS, SENTINEL,
};
use studio_e2e::keeper::click;
use studio_e2e::peers::{runtime, test_peer};
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::testpeer::PeerConfig;

#[test]
fn hostile_text_shows_as_text_and_runs_nothing() {
    let _scenario = studio_e2e::scenario();
    let corpus = corpus();
    assert!(
        corpus.len() >= 50,
        "the corpus has {} payloads",
        corpus.len()
    );
    let n = corpus.len();
    let mut probe = Probe::default();
    // The room, my name and the server first: a renamed room clears the table.
    let mut lines = vec![welcome(&mut probe, &corpus).to_string()];
    for (i, x) in corpus.iter().enumerate() {
        for f in frames(&mut probe, i, x) {
            lines.push(f.to_string());
        }
    }
    // Nesting past any sane depth: shown as text in a few quotes, never 100,000 levels of
    // recursion in wasm (which would overflow the stack and kill the window).
    lines.push(
        json!({"type":"narrative","id":"deep","speaker":"kp","format":"markdown",
            "text":format!("{} DEEP-END", ">".repeat(100_000))})
        .to_string(),
    );
    for f in snapshot(&mut probe, &corpus) {
        lines.push(f.to_string());
    }
    lines.push(json!({"type":"system","level":"info","text":SENTINEL}).to_string());
    let counts = expected_counts(n);

    let rt = runtime();
    let config = PeerConfig {
        after_welcome: lines,
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    let s = open_studio_with(&[("STUDIO_NETWORK", "local")]);
    join(&s, &peer.ticket(), "good-key");
    wait_for(Duration::from_secs(60), "every hostile frame", || {
        let v = s
            .execute(
                "return [...document.querySelectorAll('.transcript .entry.system')]
                   .some(e => e.textContent === arguments[0]);",
                json!([SENTINEL]),
            )
            .unwrap_or_else(|e| panic!("looking for the last frame: {e}"));
        v.as_bool()
            .unwrap_or_else(|| panic!("not a boolean: {v}"))
            .then_some(())
    });
    let deep = wait_for(Duration::from_secs(20), "the deep quote", || {
        let v = s
            .execute(
                "const e = [...document.querySelectorAll('.entry')].find(e => e.textContent.includes('DEEP-END'));
                 if (!e) { return null; }
                 let depth = 0;
                 e.querySelectorAll('blockquote').forEach(b => {
                   let n = 0; for (let x = b; x && x !== e; x = x.parentElement) { if (x.tagName === 'BLOCKQUOTE') { n++; } }
                   depth = Math.max(depth, n);
                 });
                 return { depth, crash: !!document.getElementById('crash') };",
                json!([]),
            )
            .unwrap_or_else(|e| panic!("reading the deep quote: {e}"));
        (!v.is_null()).then_some(v)
    });
    let depth = deep["depth"]
        .as_u64()
        .unwrap_or_else(|| panic!("the quotes' depth is not a number: {deep}"));
    assert!((1..=16).contains(&depth), "quotes nested {depth} deep");
    assert_eq!(deep["crash"], false, "the window crashed");

    // The checks go into the page once; each step below runs them and scrolls up.
    let shown_payloads: Vec<String> = corpus.iter().map(String::as_str).map(shown).collect();
    let markdown_payloads: Vec<String> = shown_payloads.iter().map(|x| markdown_shown(x)).collect();
    let count_selectors: Vec<&str> = counts.iter().map(|(sel, _)| sel.as_str()).collect();
    let installed = s
        .execute(
            INSTALL,
            json!([
                shown_payloads,
                probe.selectors,
                probe.checks,
                count_selectors,
                markdown_payloads,
                probe.clipped
            ]),
        )
        .expect("installing the checks");
    assert_eq!(
        installed["gallery"], true,
        "no 'all pictures' button: the shared media card is missing"
    );
    // Scroll to the top until the first line is in the DOM: the transcript widens its window
    // as the reader scrolls up, so every line is drawn (and checked) on the way. A virtual list
    // places what it has not drawn by estimated heights, and a 5,000-character line is far from
    // any estimate: when a reading from the end to the top left something unseen, the reader goes
    // back to the end and reads up again (three readings at most; what never shows stays red).
    let first = marker(0, "kp.text");
    let mut readings = 1;
    wait_for(
        Duration::from_secs(240),
        "the whole transcript and the gallery checked",
        || {
            let v = s
                .execute(STEP, json!([first]))
                .unwrap_or_else(|e| panic!("a check step failed: {e}"));
            if v["top"] != true || v["gallery"] != true {
                return None;
            }
            if v["remaining"] == 0 || readings == 3 {
                return Some(());
            }
            readings += 1;
            eprintln!(
                "{} checks unseen at the top: reading again from the end",
                v["remaining"]
            );
            s.execute(
                "const t = document.querySelector('.transcript'); t.scrollTop = t.scrollHeight; t.dispatchEvent(new Event('scroll')); return 0;",
                json!([]),
            )
            .unwrap_or_else(|e| panic!("scrolling to the end: {e}"));
            None
        },
    );
    // Who shared the picture that carries every sender: as text in the viewer, opened on it.
    let opened = s
        .execute(
            "const i = [...document.querySelectorAll('#gallery .gallery-item')]
               .find(b => b.textContent.trim() === arguments[0]);
             if (i) { i.click(); } return !!i;",
            json!([SENDERS]),
        )
        .unwrap_or_else(|e| panic!("opening the viewer: {e}"));
    assert_eq!(opened, true, "no gallery item named {SENDERS:?}");
    wait_for(Duration::from_secs(10), "the viewer", || {
        s.find("#viewer .viewer-name")
    });
    s.execute(PASS, json!([]))
        .unwrap_or_else(|e| panic!("checking the viewer: {e}"));
    click(&s, "#viewer-close");
    click(&s, "#gallery-close");
    wait_for(Duration::from_secs(10), "the gallery closed", || {
        s.find("#gallery").is_none().then_some(())
    });
    // What each layer plays: as text in the sound menu, opened once.
    click(&s, "#sound-button");
    wait_for(Duration::from_secs(10), "the sound menu", || {
        s.find("#sound-popover .sound-title")
    });
    s.execute(PASS, json!([]))
        .unwrap_or_else(|e| panic!("checking the sound menu: {e}"));
    click(&s, "#sound-button");
    wait_for(Duration::from_secs(10), "the sound menu closed", || {
        s.find("#sound-popover").is_none().then_some(())
    });
    // Give anything that might run (onerror, onload, timers) a moment.
    std::thread::sleep(Duration::from_secs(2));
    s.screenshot(&out_dir().join("untrusted-text.png"));
    // Hostile lengths stay inside their boxes: the 5,000-character payload ran through every
    // field above; nothing may reach past the window's right edge.
    let overflowing = s
        .execute(
            "const vw = document.documentElement.clientWidth;
             return [...document.querySelectorAll('main *, aside *')]
               .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > vw + 1; })
               .map(e => e.tagName + '.' + e.className).slice(0, 8);",
            json!([]),
        )
        .expect("measuring the boxes");
    s.screenshot(&out_dir().join("untrusted-lengths.png"));
    let verdict = s.execute(VERDICT, json!([])).expect("reading the verdict");

    eprintln!(
        "untrusted text: {} payloads, {} marker checks, {} cut-line checks, {} counted selectors",
        n,
        probe.checks.len(),
        probe.clipped.len(),
        counts.len()
    );
    let mut problems: Vec<String> = Vec::new();
    if verdict["xss"] != 0 {
        problems.push(format!("a payload ran: window.__xss = {}", verdict["xss"]));
    }
    if verdict["scripts"] != 0 {
        problems.push(format!("{} <script> reached the DOM", verdict["scripts"]));
    }
    if verdict["handlers"] != 0 {
        problems.push(format!(
            "{} elements with an event-handler attribute reached the DOM",
            verdict["handlers"]
        ));
    }
    if verdict["active"] != 0 {
        problems.push(format!(
            "{} active elements (iframe, object, embed, form, meta, base, style, link) reached the DOM",
            verdict["active"]
        ));
    }
    if verdict["jsLinks"] != 0 {
        problems.push(format!(
            "{} javascript: URLs reached the DOM",
            verdict["jsLinks"]
        ));
    }
    // Bidi overrides and control characters are stripped before rendering.
    if verdict["controls"] != false {
        problems.push("a control or bidi character reached the DOM".into());
    }
    if verdict["crash"] != false {
        problems.push("the window crashed".into());
    }
    let failed: Vec<&str> = verdict["failed"]
        .as_array()
        .unwrap_or_else(|| panic!("the verdict lists no failures: {verdict}"))
        .iter()
        .map(|f| {
            f.as_str()
                .unwrap_or_else(|| panic!("a failure is not text: {f}"))
        })
        .collect();
    if verdict["checks"] != probe.checks.len() || verdict["clipped"] != probe.clipped.len() {
        problems.push(format!(
            "the page ran {} checks and {} cut-line checks, not {} and {}",
            verdict["checks"],
            verdict["clipped"],
            probe.checks.len(),
            probe.clipped.len()
        ));
    }
    if !failed.is_empty() {
        problems.push(format!(
            "untrusted text not shown verbatim in its own field ({} fields):\n    {}",
            failed.len(),
            failed
                .iter()
                .take(40)
                .copied()
                .collect::<Vec<_>>()
                .join("\n    ")
        ));
    }
    // A frame or block that did not decode leaves no trace but its absence: count everything.
    let wrong_counts: Vec<String> = counts
        .iter()
        .filter_map(|(sel, want)| {
            let got = verdict["counts"][sel.as_str()].as_u64().unwrap_or(0) as usize;
            (got != *want).then(|| format!("{sel}: {got}, sent {want}"))
        })
        .collect();
    if !wrong_counts.is_empty() {
        problems.push(format!(
            "lines or blocks vanished (or appeared):\n    {}",
            wrong_counts.join("\n    ")
        ));
    }
    if overflowing != json!([]) {
        problems.push(format!(
            "boxes run past the window's right edge: {overflowing}"
        ));
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) with untrusted text:\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
    drop(s);
    rt.block_on(peer.shutdown());
}
