//! The connect screen explains a wrong key and an unreadable ticket in words a player can act on.

use std::time::Duration;

use studio_e2e::peers::{fresh_dir, TestTable};
use studio_e2e::play::{join, wait_problem};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn wrong_key_and_bad_ticket_are_explained() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("join-errors");
    let table = TestTable::start(dir.join("table"));
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap()),
    ]);

    // A key the table does not know.
    join(&s, table.ticket(), "not-a-real-key");
    let problem = wait_problem(&s, Duration::from_secs(30));
    s.screenshot(&out_dir().join("bad-key.png"));
    let lower = problem.to_lowercase();
    assert!(
        lower.contains("key") && (lower.contains("reject") || lower.contains("unknown")),
        "a wrong key is named as such: {problem}"
    );
    assert!(
        problem.contains("Unknown access key."),
        "the table's own reason is shown: {problem}"
    );
    assert!(s.find("#room").is_none(), "still on the connect screen");
    // The join button is usable again.
    let join_button = s.find("#join").expect("join button");
    assert!(
        s.attr(&join_button, "disabled").is_none(),
        "join re-enabled"
    );

    // A table that closes on the key without a word (the real engine's bad_key is often lost):
    // the screen says what most likely happened.
    let rt = studio_e2e::peers::runtime();
    let silent = rt
        .block_on(transport::testpeer::TestPeer::start(
            transport::testpeer::PeerConfig {
                silent_bad_key: true,
                ..Default::default()
            },
            Default::default(),
        ))
        .expect("the silent peer");
    join(&s, &silent.ticket(), "a-deleted-key");
    let problem = wait_for(Duration::from_secs(30), "the not-admitted problem", || {
        let t = s.text(&s.find(".problem")?);
        t.contains("admit").then_some(t)
    });
    assert!(
        problem.contains("did not admit this invite key"),
        "closed without a word is explained: {problem}"
    );
    assert!(s.find("#room").is_none(), "still on the connect screen");
    rt.block_on(silent.shutdown());

    // A ticket that is not a ticket.
    join(&s, "this is not a ticket", "whatever-key");
    let problem = wait_for(Duration::from_secs(15), "the ticket problem", || {
        let t = s.text(&s.find(".problem")?);
        t.contains("ticket").then_some(t)
    });
    assert!(
        problem.contains("not an iroh endpoint ticket"),
        "an unparseable ticket is explained: {problem}"
    );
    // A ticket that looks right but is damaged.
    let damaged = &table.ticket()[..table.ticket().len() - 6];
    join(&s, damaged, table.keeper_key());
    let problem = wait_for(
        Duration::from_secs(15),
        "the damaged ticket problem",
        || {
            let t = s.text(&s.find(".problem")?);
            (t.contains("ticket") && t != problem).then_some(t)
        },
    );
    s.screenshot(&out_dir().join("bad-ticket.png"));
    assert!(
        problem.contains("not an iroh endpoint ticket"),
        "a damaged ticket is explained: {problem}"
    );
    assert!(s.find("#room").is_none(), "still on the connect screen");
}
