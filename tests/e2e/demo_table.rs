//! Play the demo table in the real window: the replay, an input, a streaming draft that becomes
//! final, a dice line with its colour, resources as meters, the performance templates.

use std::time::Duration;
use studio_e2e::play::open_demo;
use studio_e2e::{out_dir, wait_for};

#[test]
fn demo_table_plays_a_turn() {
    let _scenario = studio_e2e::scenario();
    let s = open_demo();
    // Joined as keeper: the status bar names the role.
    let role = s.find(".status-role").expect("the role in the status bar");
    assert!(s.text(&role).ends_with("keeper"), "{}", s.text(&role));
    s.screenshot(&out_dir().join("demo-joined.png"));

    let input = s.find("#input").expect("input box");
    s.type_text(&input, "I knock on the cottage door.\u{E007}");
    // My line appears (pending, then echoed), then the Keeper's reply streams in and closes.
    wait_for(Duration::from_secs(10), "my line", || {
        s.find_all(".entry.narrative[data-speaker='player']")
            .iter()
            .any(|e| s.text(e).contains("I knock on the cottage door."))
            .then_some(())
    });
    wait_for(Duration::from_secs(30), "a keeper narrative", || {
        s.find_all(".entry.narrative[data-speaker='kp']:not(.draft)")
            .first()
            .map(|_| ())
    });
    wait_for(Duration::from_secs(30), "the turn to end", || {
        s.find("#turn").is_none().then_some(())
    });
    // The first beat starts the sea loop: Studio fetched it and the status bar says so.
    wait_for(Duration::from_secs(10), "the music to be announced", || {
        s.text(&s.find("#now-playing")?)
            .contains("Sea at Night")
            .then_some(())
    });
    s.screenshot(&out_dir().join("demo-turn.png"));

    // #29 item 2: the screen reader heard each finished line once, whole, in order, with who
    // said it — my line first, then each of the Keeper's final lines (never a streamed part).
    let heard: Vec<String> = s
        .find_all("#story-announcer p")
        .iter()
        .map(|p| s.text(p))
        .collect();
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let keeper_lines: Vec<String> = s
        .find_all(".entry.narrative[data-speaker='kp']:not(.draft) .body")
        .iter()
        .map(|b| format!("The Keeper: {}", words(&s.text(b))))
        .collect();
    let heard_keeper: Vec<String> = heard
        .iter()
        .filter(|h| h.starts_with("The Keeper: "))
        .map(|h| words(h))
        .collect();
    assert!(
        heard
            .first()
            .is_some_and(|h| h.contains("I knock on the cottage door.")),
        "my line first: {heard:#?}"
    );
    assert!(
        !heard_keeper.is_empty(),
        "nothing of the Keeper was heard: {heard:#?}"
    );
    assert_eq!(
        heard_keeper, keeper_lines,
        "the Keeper's lines heard once each, whole and in order"
    );

    // #29 item 3: Studio's Still switch stops what moves (a meter's glide here), and gives
    // it back.
    let glide = || {
        s.execute(
            "const e = document.querySelector('.meter-fill'); \
             return [e ? getComputedStyle(e).transitionDuration : null, \
                     document.documentElement.getAttribute('data-motion')];",
            serde_json::json!([]),
        )
        .expect("reading a meter's transition")
    };
    let seconds = |v: &serde_json::Value| {
        v[0].as_str()
            .and_then(|d| d.trim_end_matches('s').parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no meter's transition: {v}"))
    };
    let moving = glide();
    assert!(seconds(&moving) >= 0.3 && moving[1].is_null(), "{moving}");
    s.click(&s.find("#motion-switch").expect("the motion switch"));
    let still = glide();
    assert!(seconds(&still) < 0.001 && still[1] == "reduce", "{still}");
    s.click(&s.find("#motion-switch").unwrap());
    assert_eq!(seconds(&glide()), seconds(&moving), "motion comes back");
    // A plain roll: its detail is all zeros and false flags, so no chip says anything.
    studio_e2e::play::say(&s, ".r 1d6");
    let roll = wait_for(Duration::from_secs(15), "the roll's dice line", || {
        s.find_all(".transcript .entry.dice")
            .into_iter()
            .find(|d| s.text(d).contains("1d6"))
    });
    let chips = s
        .execute_on(
            &roll,
            "return [...arguments[0].querySelectorAll('.chip')].map(c => c.textContent);",
        )
        .unwrap();
    assert_eq!(
        chips,
        serde_json::json!([]),
        "chips that say nothing: {chips}"
    );
}
