//! A desktop notification when the Keeper's turn ends while Studio is in the background, and
//! none while it is in front or once the person switched them off. The page's focus is stubbed
//! to "elsewhere" (a WebDriver window cannot be sent behind another here); what the desktop
//! receives is read by the test's own notification server, on a private session bus given to
//! this window alone: the notification itself, its title and its body.
//!
//! A "none" is read only behind a fence: a later turn that does notify, in the other language.
//! Notifications reach the bus in the order the turns end, and each turn's answer is on screen
//! before the next step, so the list read once the fence's own notification is in holds exactly
//! what the turns before it sent: one turn in front, in Chinese, would show up as a Chinese line
//! before the English one; one switched off, as an English line before the Chinese fence.

use std::time::Duration;

use studio_e2e::notifications::{NotificationServer, Shown};
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::{join_demo, play_turn};
use studio_e2e::{open_studio_with, wait_for};

const EN: (&str, &str) = ("The Keeper has finished", "Your move.");
const ZH: (&str, &str) = ("守密人已说完", "轮到你了。");

/// `list` as (title, body) pairs.
fn said(list: &[Shown]) -> Vec<(&str, &str)> {
    list.iter()
        .map(|n| (n.summary.as_str(), n.body.as_str()))
        .collect()
}

fn in_background(s: &studio_e2e::Studio) {
    s.execute(
        "document.hasFocus = () => false; return 0;",
        serde_json::json!([]),
    )
    .unwrap_or_else(|e| panic!("stubbing the page's focus: {e}"));
}

/// Clicks the status bar's switch until it reads `want` (`aria-pressed`).
fn switch(s: &studio_e2e::Studio, want: &str) {
    let button = s.find("#notify-switch").expect("the notification switch");
    s.click(&button);
    wait_for(
        Duration::from_secs(5),
        "the notification switch to turn",
        || (s.attr(&button, "aria-pressed").as_deref() == Some(want)).then_some(()),
    );
}

/// Switches the language and waits until the profile keeps it (what a notification reads).
fn language(s: &studio_e2e::Studio, code: &str) {
    s.click(&s.find("#locale-switch").expect("the language switch"));
    wait_for(Duration::from_secs(5), "the language to be kept", || {
        let kept = s
            .execute(
                "return localStorage.getItem('studio.locale');",
                serde_json::json!([]),
            )
            .unwrap_or_else(|e| panic!("reading the kept language: {e}"));
        (kept.as_str() == Some(code)).then_some(())
    });
}

/// Waits until a notification with `title` is on the bus; returns every one so far.
fn until_titled(bus: &NotificationServer, title: &str) -> Vec<Shown> {
    wait_for(
        Duration::from_secs(15),
        &format!("a notification titled {title:?}"),
        || {
            let all = bus.shown();
            all.iter().any(|n| n.summary == title).then_some(all)
        },
    )
}

#[test]
fn the_keepers_turn_ending_notifies_in_the_background_unless_switched_off() {
    let _scenario = studio_e2e::scenario();
    let bus = NotificationServer::start();
    let dir = fresh_dir("notify");
    let data = dir.join("data");
    let s = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
        bus.env(),
    ]);
    join_demo(&s);

    // In front, in Chinese: two turns end (their answers on screen; the second brings a letter).
    language(&s, "zh");
    play_turn(&s, "I knock on the cottage door.");
    play_turn(&s, "I search the desk.");
    // In the background, in English: the next turn's end is the first thing the desktop gets.
    language(&s, "en");
    in_background(&s);
    play_turn(&s, "I follow Martha's finger to the boathouse on the map.");
    let first = until_titled(&bus, EN.0);
    assert_eq!(
        said(&first),
        vec![EN],
        "the background turn's notification (a Chinese one before it came from in front)"
    );
    assert!(
        !first[0].app.is_empty(),
        "the notification names no application: {first:?}"
    );

    // Switched off: two turns end quietly (the second with the act's title card)…
    switch(&s, "false");
    play_turn(&s, "I step into the boathouse.");
    play_turn(&s, "I tell Martha what I found.");
    wait_for(Duration::from_secs(30), "the title card to pass", || {
        s.find(".lw-act-card").is_none().then_some(())
    });
    // …as the fence shows: on again, in Chinese, the next turn's end is the next one sent.
    switch(&s, "true");
    language(&s, "zh");
    play_turn(&s, "I wait for the storm.");
    let all = until_titled(&bus, ZH.0);
    assert_eq!(
        said(&all),
        vec![EN, ZH],
        "notified while switched off (an English one between the two)"
    );

    // A burst (100 letters' worth, with markup in the server's words) while still in the
    // background: the stretch already showed two, so nothing more shows but one summary once the
    // burst goes quiet, its words escaped (a desktop that renders body markup shows them as text).
    s.execute(
        "for (let i = 0; i < 100; i++) {
           window.__TAURI_INTERNALS__.invoke('notify', { args: {
             kind: 'letter', title: '<b>BURST</b> ' + i, body: '<a href=\"x\">M.</a>',
             more: '<i>{n}</i> more' } });
         }
         return 0;",
        serde_json::json!([]),
    )
    .unwrap_or_else(|e| panic!("the burst: {e}"));
    let all = wait_for(Duration::from_secs(40), "the burst's summary", || {
        let all = bus.shown();
        all.iter().any(|n| n.body.contains("more")).then_some(all)
    });
    assert_eq!(
        all.len(),
        3,
        "a burst of 100 was not coalesced into one summary: {:?}",
        said(&all)
    );
    assert_eq!(
        all[2].body,
        "&lt;i&gt;100&lt;/i&gt; more",
        "{:?}",
        said(&all)
    );
}
