//! A joined table is remembered when the person chose so (its key in the keyring or a 0600 file,
//! never in the list; where no keyring answers, the screen says which file before the join) and
//! rejoined with one click; forgetting it removes it. The saved list is a file: its words are
//! only text.

use std::time::Duration;
use studio_e2e::peers::{fresh_dir, TestTable};
use studio_e2e::play::{join, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn a_joined_table_is_saved_and_rejoined_in_one_click() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("saved");
    let table = TestTable::start(dir.join("table"));
    let studio_dir = dir.join("studio");
    // A list someone edited: control and bidi characters in its words.
    std::fs::create_dir_all(&studio_dir).unwrap();
    std::fs::write(
        studio_dir.join("tables.json"),
        serde_json::json!([{"id":"0000","name":"\u{202E}gnp.exe\u{7}","ticket":"x",
            "room":"crypt\u{1B}[31m","role":"player","last_used_ms":1}])
        .to_string(),
    )
    .unwrap();
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", studio_dir.to_str().unwrap()),
    ]);
    let edited = wait_for(Duration::from_secs(15), "the edited entry", || {
        s.find(".saved-join")
    });
    let shown = s.text(&edited);
    assert!(
        shown.contains("gnp.exe") && shown.contains("crypt[31m"),
        "{shown}"
    );
    assert!(
        !shown.contains('\u{202E}') && !shown.contains('\u{1B}') && !shown.contains('\u{7}'),
        "{shown:?}"
    );
    s.click(&s.find(".saved-forget").expect("forget"));
    wait_for(Duration::from_secs(10), "the edited entry gone", || {
        s.find(".saved-join").is_none().then_some(())
    });

    // No keyring here (tests keep keys in the file): the screen names the file first.
    let keys_file = studio_dir.join("keys.json");
    let note = wait_for(Duration::from_secs(10), "where the key would go", || {
        s.find("#remember-where")
    });
    assert!(
        s.text(&note).contains(keys_file.to_str().unwrap()),
        "{}",
        s.text(&note)
    );
    // Not remembered: joined and left, nothing saved.
    s.click(&s.find("#remember").expect("the remember box"));
    join(&s, table.ticket(), table.player_key());
    wait_online(&s, Duration::from_secs(30));
    s.click(&s.find("#leave").expect("leave"));
    wait_for(Duration::from_secs(15), "the connect screen", || {
        s.find("#ticket")
    });
    assert!(
        s.find(".saved-join").is_none(),
        "a table was saved against the choice"
    );
    assert!(!keys_file.exists(), "a key was kept against the choice");

    // Remembered: the box is ticked again on a fresh connect screen.
    let ticked = s
        .execute(
            "return document.getElementById('remember').checked;",
            serde_json::json!([]),
        )
        .unwrap();
    assert_eq!(ticked, true);
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
