//! Against the real engine (#23.3): a line typed just before the engine dies is settled once the
//! reconnect's replay ends, never left "sending…": delivered (once) when the engine's replay
//! echoes it, "not delivered" with Retry when the engine never received it.

use std::time::{Duration, Instant};

use studio_e2e::engine::EngineTable;
use studio_e2e::peers::fresh_dir;
use studio_e2e::play::{join, narrative, play_turn, say, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for, Studio};

/// How many replays have ended so far in this window.
fn replays(s: &Studio) -> u32 {
    s.find("#transcript")
        .and_then(|t| s.attr(&t, "data-replays"))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no #transcript[data-replays] in the window"))
}

/// The transcript's entries for `text`: (classes, speaker) of each, read from the DOM.
fn entries_for(s: &Studio, text: &str) -> Vec<String> {
    let js = "const t = arguments[0]; return Array.from(document.querySelectorAll('#transcript .entry'))\
              .filter(e => e.textContent.includes(t)).map(e => e.className);";
    let v = s
        .execute(js, serde_json::json!([text]))
        .expect("read the entries");
    v.as_array()
        .expect("a list")
        .iter()
        .map(|c| c.as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_line_sent_as_the_engine_dies_is_settled_when_the_replay_ends() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("engine-pending");
    let mut engine = EngineTable::start(dir.join("engine"));
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap()),
    ]);
    join(&s, engine.ticket(), &engine.player_key);
    wait_online(&s, Duration::from_secs(30));
    // Our own part of the story starts here: the room is fresh, the marks are unique.
    let mark = format!("{}", std::process::id());

    // 1. Delivered: the engine has the line when it dies mid-turn. The same words twice, as a
    //    room's history repeats them: matching by text alone is not enough.
    let words = format!("I wait by the door ({mark}).");
    play_turn(&s, &words);
    say(&s, &words);
    std::thread::sleep(Duration::from_millis(250));
    let before = replays(&s);
    engine.kill();
    engine.restart();
    let back = Instant::now();
    // A table that died without a word is noticed in seconds, not after QUIC's 30 s.
    wait_for(
        Duration::from_secs(12),
        "the reconnect's replay to end",
        || (replays(&s) > before).then_some(()),
    );
    let replay_end = Instant::now();
    eprintln!(
        "replay ended {} ms after the engine came back",
        (replay_end - back).as_millis()
    );
    let settled = wait_for(Duration::from_secs(5), "both lines settled", || {
        let e = entries_for(&s, &words);
        (e.len() >= 2 && e.iter().all(|c| !c.contains("pending"))).then_some(e)
    });
    eprintln!(
        "delivered variant: settled {} ms after the replay ended: {settled:?}",
        replay_end.elapsed().as_millis()
    );
    assert_eq!(settled.len(), 2, "each line once, delivered: {settled:?}");
    assert_eq!(
        narrative(&s)
            .iter()
            .filter(|l| l.speaker == "player" && l.text.contains(&words))
            .count(),
        2,
        "no duplicate from the replay"
    );
    s.screenshot(&out_dir().join("engine-pending-delivered.png"));

    // 2. Never received: the engine is gone before the line is sent.
    wait_online(&s, Duration::from_secs(30));
    let third = format!("I call out into the dark ({mark}-c).");
    let before = replays(&s);
    engine.kill();
    say(&s, &third);
    wait_for(Duration::from_secs(5), "my pending line", || {
        entries_for(&s, &third)
            .iter()
            .any(|c| c.contains("pending"))
            .then_some(())
    });
    engine.restart();
    wait_for(Duration::from_secs(12), "the second replay to end", || {
        (replays(&s) > before).then_some(())
    });
    let replay_end = Instant::now();
    let lost = wait_for(Duration::from_secs(5), "the not-delivered mark", || {
        let e = entries_for(&s, &third);
        e.iter().any(|c| c.contains("lost")).then_some(e)
    });
    eprintln!(
        "lost variant: marked {} ms after the replay ended: {lost:?}",
        replay_end.elapsed().as_millis()
    );
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert!(
        s.find(".entry.pending.lost .retry-line").is_some(),
        "Retry is offered"
    );
    s.screenshot(&out_dir().join("engine-pending-lost.png"));
}
