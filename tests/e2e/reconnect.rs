//! Kill the table and start it again under the same ticket: Studio reconnects by itself and the
//! rejoin's replay (which carries fresh ids) adds no duplicated line.

use std::time::Duration;

use studio_e2e::peers::{fresh_dir, TestTable};
use studio_e2e::play::{join, narrative, play_turn, wait_online, Line};
use studio_e2e::{open_studio_with, out_dir, wait_for};

fn texts(lines: &[Line]) -> Vec<(String, String)> {
    lines
        .iter()
        .map(|l| (l.speaker.clone(), l.text.clone()))
        .collect()
}

#[test]
fn restarted_table_reconnects_without_duplicates() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("reconnect");
    let mut table = TestTable::start(dir.join("table"));
    let app_data = dir.join("studio");
    let cache = dir.join("cache");
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", app_data.to_str().unwrap()),
        ("STUDIO_MEDIA_CACHE", cache.to_str().unwrap()),
    ]);
    join(&s, table.ticket(), table.keeper_key());
    wait_for(Duration::from_secs(30), "the play view", || {
        s.text(&s.find("#room")?).contains("demo").then_some(())
    });
    wait_online(&s, Duration::from_secs(10));

    play_turn(&s, "I knock on the cottage door.");
    play_turn(&s, "I search the desk for letters.");
    let before = narrative(&s);
    assert!(
        before.iter().filter(|l| l.speaker == "kp").count() >= 2,
        "the Keeper answered both turns: {before:?}"
    );
    // The whole story's length (the transcript draws only what is near the view).
    let entries = |s: &studio_e2e::Studio| -> usize {
        s.attr(
            &s.find("#transcript").expect("the transcript"),
            "data-entries",
        )
        .and_then(|n| n.parse().ok())
        .expect("the transcript's length")
    };
    let entries_before = entries(&s);
    s.screenshot(&out_dir().join("reconnect-before.png"));

    // The table goes away: Studio says so and keeps trying.
    table.shutdown();
    let state = wait_for(
        Duration::from_secs(45),
        "the status to leave Online",
        || {
            let t = s.text(&s.find("#conn-state")?);
            (!t.starts_with("Online")).then_some(t)
        },
    );
    eprintln!("status while the table is down: {state}");
    wait_for(
        Duration::from_secs(45),
        "Reconnecting in the status bar",
        || {
            s.text(&s.find("#conn-state")?)
                .starts_with("Reconnecting")
                .then_some(())
        },
    );
    let input = s.find("#input").expect("the input box");
    assert!(
        s.attr(&input, "disabled").is_some(),
        "the input is disabled while reconnecting"
    );
    s.screenshot(&out_dir().join("reconnect-waiting.png"));

    // Back under the same identity and port, with the rooms it persisted.
    table.restart();
    wait_online(&s, Duration::from_secs(60));
    // The rejoin's replay has ended (the reducer says so), and it did replay the story.
    let (replayed, known) = wait_for(Duration::from_secs(30), "the replay to end", || {
        let t = s.find("#transcript")?;
        let count: u32 = s.attr(&t, "data-replays")?.parse().ok()?;
        let items: usize = s.attr(&t, "data-replayed")?.parse().ok()?;
        let known: usize = s.attr(&t, "data-replay-known")?.parse().ok()?;
        (count >= 1).then_some((items, known))
    });
    eprintln!("the replay carried {replayed} lines and dice, {known} already shown");
    let narrated = before.len();
    assert!(
        replayed >= narrated,
        "the table replayed {replayed} items for {narrated} narrative lines"
    );
    let after = narrative(&s);
    s.screenshot(&out_dir().join("reconnect-after.png"));
    assert_eq!(
        texts(&after),
        texts(&before),
        "the replay added or lost narrative lines"
    );
    let mut seen = std::collections::HashSet::new();
    for line in &after {
        assert!(
            seen.insert((line.speaker.clone(), line.text.clone())),
            "duplicated line after the reconnect: {line:?}"
        );
    }
    let entries_after = entries(&s);
    assert!(
        entries_after <= entries_before + 1,
        "no replayed entries piled up: {entries_before} before, {entries_after} after"
    );

    // And the session goes on: a new turn lands once.
    play_turn(&s, "I ask Martha about the letter.");
    let last = narrative(&s);
    assert!(entries(&s) > entries_after, "the next turn was played");
    let mine = last
        .iter()
        .filter(|l| l.speaker == "player" && l.text.contains("I ask Martha about the letter."))
        .count();
    assert_eq!(mine, 1, "my new line shows once");
}
