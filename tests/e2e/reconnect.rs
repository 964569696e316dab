//! Kill the table and start it again under the same ticket: Studio reconnects by itself and the
//! rejoin's replay (which carries fresh ids) adds no duplicated line. The story is compared
//! whole, as Studio saves it (every entry, dice included), not only the lines drawn.

use std::time::Duration;

use studio_e2e::peers::{fresh_dir, TestTable};
use studio_e2e::play::{join, narrative, play_turn, saved_story, say, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn restarted_table_reconnects_without_duplicates() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("reconnect");
    let mut table = TestTable::start(dir.join("table"));
    let app_data = dir.join("studio");
    let cache = dir.join("cache");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", app_data.to_str().unwrap()),
        ("STUDIO_MEDIA_CACHE", cache.to_str().unwrap()),
        ("STUDIO_SAVE_DIR", saves.to_str().unwrap()),
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
    // A roll too: the replay carries dice lines, which must not come back twice either.
    say(&s, ".r 1d20");
    wait_for(Duration::from_secs(15), "the roll's dice line", || {
        s.find_all(".transcript .entry.dice")
            .into_iter()
            .find(|d| s.text(d).contains("1d20"))
    });
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
    let story_before = saved_story(&s, &saves);
    assert!(
        story_before.contains("1d20") && story_before.contains("I search the desk for letters."),
        "the saved story holds the whole evening: {story_before}"
    );
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
    // Nothing happened while the table was down: everything it replayed was already shown.
    assert_eq!(
        known, replayed,
        "the replay brought {replayed} items, of which only {known} were known"
    );
    let narrated = before.len();
    assert!(
        replayed >= narrated,
        "the table replayed {replayed} items for {narrated} narrative lines"
    );
    let after = narrative(&s);
    s.screenshot(&out_dir().join("reconnect-after.png"));
    let mut seen = std::collections::HashSet::new();
    for line in &after {
        assert!(
            seen.insert((line.speaker.clone(), line.text.clone())),
            "duplicated line after the reconnect: {line:?}"
        );
    }
    let entries_after = entries(&s);
    assert_eq!(
        entries_after, entries_before,
        "replayed entries piled up: {entries_before} before, {entries_after} after"
    );
    // The whole story, exactly as before the table went away.
    let story_after = saved_story(&s, &saves);
    assert_eq!(
        story_after, story_before,
        "the reconnect changed the story (a line lost or kept twice)"
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
