//! A joined table is remembered (its key in the keyring or a 0600 file, never in the list) and
//! rejoined with one click; forgetting it removes it.

use std::time::Duration;
use studio_e2e::peers::{fresh_dir, TestTable};
use studio_e2e::play::{join, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn a_joined_table_is_saved_and_rejoined_in_one_click() {
    let dir = fresh_dir("saved");
    let table = TestTable::start(dir.join("table"));
    let studio_dir = dir.join("studio");
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", studio_dir.to_str().unwrap()),
    ]);
    join(&s, table.ticket(), table.player_key());
    wait_online(&s, Duration::from_secs(30));
    let list = std::fs::read_to_string(studio_dir.join("tables.json")).expect("the saved list");
    assert!(list.contains("\"room\": \"demo\""), "{list}");
    assert!(
        !list.contains(table.player_key()),
        "the list never holds the key"
    );

    s.click(&s.find("#leave").expect("leave"));
    let saved = wait_for(Duration::from_secs(15), "the saved table", || {
        s.find(".saved-join")
    });
    assert!(
        s.text(&saved).contains("demo"),
        "saved entry: {}",
        s.text(&saved)
    );
    s.screenshot(&out_dir().join("saved-tables.png"));
    s.click(&saved);
    wait_online(&s, Duration::from_secs(30));

    s.click(&s.find("#leave").expect("leave"));
    let forget = wait_for(Duration::from_secs(15), "the forget button", || {
        s.find(".saved-forget")
    });
    s.click(&forget);
    wait_for(Duration::from_secs(10), "the list to empty", || {
        s.find(".saved-join").is_none().then_some(())
    });
}
