//! A page cannot borrow the person's typing as its gesture (#28 item 4). The thief page (tests/
//! fixtures/thief-pack) knows its nonce, so it can post a `gesture` message itself; it takes
//! focus from the host while WebDriver types into the input, claims that gesture in the same
//! moment, and sends an intent. The host's evidence (a blur, then a report, with the window's
//! activation) would all be there — the activation is the typing's — so the host must also
//! see that the person's keys went to the host itself: the Send/Dismiss prompt must appear,
//! and the words reach the table only on Send.

use std::time::Duration;

use local_table::table::demo_config;
use local_table::{LocalTable, Pacing};
use studio_e2e::keeper::{click, wait_text};
use studio_e2e::peers::{free_udp_port, fresh_dir, runtime};
use studio_e2e::play::{join, say, transcript, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};
use test_support::repo;

fn said(s: &studio_e2e::Studio) -> String {
    transcript(s)
        .iter()
        .map(|l| l.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The thief's own account of what it did.
fn thief_state(s: &studio_e2e::Studio, frame: &studio_e2e::Element) -> String {
    s.switch_to_frame(frame).expect("into the thief's frame");
    let t = s.find("#state").map(|e| s.text(&e)).unwrap_or_default();
    s.switch_to_top();
    t
}

#[test]
fn a_page_that_takes_focus_mid_typing_is_asked_about() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("theft");
    let (mut config, keys) = demo_config(dir.join("table")).expect("demo config");
    config.port = free_udp_port();
    config.pacing = Pacing::fast();
    config.packs.push(repo().join("tests/fixtures/thief-pack"));
    let rt = runtime();
    let table = rt.block_on(LocalTable::start(config)).expect("local table");
    let s = open_studio_with(&[("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap())]);
    join(&s, &table.ticket(), &keys.keeper);
    wait_online(&s, Duration::from_secs(30));
    say(&s, ".panels enable thief-pack");
    click(&s, "#panel-code-run");
    let frame = wait_for(Duration::from_secs(30), "the thief's frame", || {
        s.find(".slot-sidebar[data-panel='thief-pack/thief'] iframe.lw-panel-frame")
    });
    wait_for(Duration::from_secs(10), "the thief to start", || {
        (thief_state(&s, &frame) == "waiting").then_some(())
    });
    // Armed from outside (no gesture in that), then the person types into the input. The
    // frame element is marked, and its document's birth noted, so a failure can tell a page
    // loaded anew in the same element from an element replaced.
    s.execute_on(&frame, "arguments[0].dataset.probe = 'armed'; return 0;")
        .expect("marking the thief's frame");
    s.switch_to_frame(&frame).expect("into the thief's frame");
    let born = s
        .execute(
            "window.__armed = true; return performance.timeOrigin;",
            serde_json::json!([]),
        )
        .expect("arming the thief");
    s.switch_to_top();
    let input = s.find("#input").expect("the input");
    // Typing until the page has taken focus, by a deadline rather than a count: WebKit runs the
    // frame's timer between the driver's commands, and on a loaded machine (a whole CI run) it
    // was seen not to run at all within 20 bursts, then steal right after them.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut typed = 0;
    let stole = loop {
        s.type_text(&input, "a quiet line of someone typing ");
        typed += 1;
        let state = thief_state(&s, &frame);
        if state.starts_with("stole") || std::time::Instant::now() > deadline {
            break state;
        }
    };
    eprintln!("thief: {stole:?} after {typed} bursts of typing");
    if !stole.starts_with("stole") {
        // What became of the page: the same element with a new document, or a new element.
        let frames = s
            .execute(
                "return [...document.querySelectorAll('iframe.lw-panel-frame')].map(f => f.dataset.probe || 'unmarked');",
                serde_json::json!([]),
            )
            .unwrap_or_default();
        s.switch_to_frame(&frame).expect("into the thief's frame");
        let now = s
            .execute("return performance.timeOrigin;", serde_json::json!([]))
            .unwrap_or_default();
        s.switch_to_top();
        let _ = s.try_screenshot(&out_dir().join("panel-focus-theft-failed.png"));
        panic!(
            "the thief's page reads {stole:?}: frames now {frames}; its document born at {born}, now {now}; the window: {}",
            s.find("body").map(|b| s.text(&b)).unwrap_or_default()
        );
    }
    // The host asks, naming the panel and showing the words; nothing went out unasked.
    let prompt = wait_text(&s, "#intent-prompt", "the host's prompt", |t| {
        t.contains("THIEF-INTENT")
    });
    assert!(prompt.contains("Thief"), "{prompt}");
    s.screenshot(&out_dir().join("panel-focus-theft-prompt.png"));
    assert!(
        !said(&s).contains("THIEF-INTENT"),
        "the thief's intent reached the table unasked"
    );
    click(&s, "#intent-dismiss");
    wait_for(Duration::from_secs(5), "the prompt to go", || {
        s.find("#intent-prompt").is_none().then_some(())
    });
    drop(s);
    rt.block_on(table.shutdown());
}
