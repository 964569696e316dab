//! A desktop notification when the Keeper's turn ends while Studio is in the background, and
//! none once the person switched them off. The page's focus is stubbed to "elsewhere" (a
//! WebDriver window cannot be sent behind another here); what reaches the backend's notify
//! command is read from the profile's log.

use std::time::Duration;

use studio_e2e::peers::fresh_dir;
use studio_e2e::play::{join_demo, play_turn};
use studio_e2e::{open_studio_with, wait_for};

fn notified(log_dir: &std::path::Path) -> usize {
    std::fs::read_dir(log_dir)
        .map(|d| {
            d.flatten()
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .map(|t| t.matches("desktop notification").count())
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn the_keepers_turn_ending_notifies_in_the_background_unless_switched_off() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("notify");
    let data = dir.join("data");
    let s = open_studio_with(&[
        ("STUDIO_DEMO_PACING", "fast"),
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
    ]);
    join_demo(&s);
    let logs = data.join("logs");
    // In front: the turn ends without a notification.
    play_turn(&s, "I knock on the cottage door.");
    assert_eq!(notified(&logs), 0, "notified while in front");
    // In the background: it notifies.
    s.execute(
        "document.hasFocus = () => false; return 0;",
        serde_json::json!([]),
    )
    .unwrap();
    play_turn(&s, "I step inside.");
    wait_for(Duration::from_secs(10), "the notification", || {
        (notified(&logs) >= 1).then_some(())
    });
    let after_on = notified(&logs);
    // Switched off: the next turn ends quietly.
    s.click(&s.find("#notify-switch").expect("the notification switch"));
    play_turn(&s, "I look at the desk.");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        notified(&logs),
        after_on,
        "notified after being switched off"
    );
}
