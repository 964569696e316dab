//! A table announcing a different major protocol is refused, with both versions on screen.

use std::collections::HashMap;
use std::time::Duration;

use studio_e2e::peers::{runtime, test_peer};
use studio_e2e::play::{join, wait_problem};
use studio_e2e::{open_studio_with, out_dir};
use transport::testpeer::PeerConfig;

#[test]
fn a_protocol_3_table_is_refused_naming_both_versions() {
    let _scenario = studio_e2e::scenario();
    let rt = runtime();
    let config = PeerConfig {
        protocol: "3.0".into(),
        keys: HashMap::from([("future-key".to_string(), "Alice".to_string())]),
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    let s = open_studio_with(&[("STUDIO_NETWORK", "local")]);
    join(&s, &peer.ticket(), "future-key");
    let problem = wait_problem(&s, Duration::from_secs(30));
    s.screenshot(&out_dir().join("version-refused.png"));
    assert!(
        problem.contains("3.0"),
        "names the table's version: {problem}"
    );
    assert!(problem.contains("2.3"), "names Studio's version: {problem}");
    // Still on the connect screen, able to try again.
    assert!(s.find("#ticket").is_some(), "stays on the connect screen");
    assert!(s.find("#room").is_none(), "never entered the play view");
    assert_eq!(
        peer.state.joins.load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    rt.block_on(peer.shutdown());
}
