//! Nothing typed is lost silently: a line sent on a connection that then dropped, and not echoed
//! in the replay after the reconnect, is marked "not delivered" as soon as the replay completes
//! (not after the two-minute timeout), with Retry and Edit.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use studio_e2e::peers::runtime;
use studio_e2e::play::{join, say, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::testpeer::{PeerConfig, PeerState, TestPeer};

#[test]
fn a_line_lost_with_the_connection_says_so_after_the_replay() {
    let _scenario = studio_e2e::scenario();
    // A table that replays one line and its state on every join, and never gets to our input.
    let config = PeerConfig {
        mute_inputs: true,
        after_welcome: vec![
            json!({"type":"narrative","id":"r1","speaker":"kp","text":"The fog rolls in.","format":"plain"}).to_string(),
            json!({"type":"state","party":[],"initiative":[],"online":1}).to_string(),
        ],
        ..PeerConfig::default()
    };
    let rt = runtime();
    let state = Arc::new(PeerState::default());
    let first = rt
        .block_on(TestPeer::start(config.clone(), state.clone()))
        .expect("the peer starts");
    let (ticket, port) = (first.ticket(), first.port());
    let s = open_studio_with(&[]);
    join(&s, &ticket, "good-key");
    wait_online(&s, Duration::from_secs(30));
    say(&s, "I light the lamp.");
    wait_for(Duration::from_secs(5), "my pending line", || {
        s.find(".entry.pending")
    });
    // The table goes away and comes back (same identity): the replay does not hold my line.
    rt.block_on(first.shutdown());
    let second = rt
        .block_on(TestPeer::start(PeerConfig { port, ..config }, state))
        .expect("the peer restarts");
    let lost = wait_for(Duration::from_secs(30), "the not-delivered mark", || {
        s.find(".entry.pending.lost")
    });
    assert!(s.text(&lost).contains("not delivered"), "{}", s.text(&lost));
    s.screenshot(&out_dir().join("undelivered.png"));
    // Edit: the line goes back into the input box, and off the story.
    s.click(&s.find(".entry.pending.lost .edit-line").expect("Edit"));
    let input = s.find("#input").expect("the input box");
    wait_for(Duration::from_secs(5), "the line back in the input", || {
        let v = s.execute_on(&input, "return arguments[0].value;").ok()?;
        (v.as_str() == Some("I light the lamp.")).then_some(())
    });
    assert!(
        s.find(".entry.pending.lost").is_none(),
        "the lost copy stayed"
    );
    drop(s);
    rt.block_on(second.shutdown());
}
