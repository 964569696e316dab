//! A table whose manifest asks too much of Studio: a panel page over the 2 MiB cap, one with more
//! files than a page may bring, and one whose declared size the server's own reply contradicts.
//! None starts; each says why in its notice, and nothing of the oversized files is fetched.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use studio_e2e::peers::runtime;
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::testpeer::{sha256_hex, PeerConfig, PeerState, Serve, TestPeer};

#[test]
fn panel_pages_over_their_limits_say_why() {
    let _scenario = studio_e2e::scenario();
    let page = b"<!doctype html><p>a real page</p>".to_vec();
    let page_hash = sha256_hex(&page);
    let entry = |hash: &str, size: u64| json!({"path": "index.html", "hash": hash, "size": size});
    let panel = |id: &str, entry: serde_json::Value, assets: serde_json::Value| {
        json!({"id": format!("limits/{id}"), "title": {"en": id}, "slot": "sidebar", "tier": 2,
               "entry": entry, "assets": assets, "fallback": [{"kind": "text", "text": format!("{id} fallback")}]})
    };
    let many: Vec<_> = (0..70)
        .map(|i| json!({"path": format!("a{i}.js"), "hash": page_hash, "size": page.len(), "mime": "text/javascript"}))
        .collect();
    let manifest = json!({"type": "ui_manifest", "panels": [
        panel("big", entry(&page_hash, 3 << 20), json!([])),
        panel("many", entry(&page_hash, page.len() as u64), json!(many)),
        panel("liar", entry(&page_hash, page.len() as u64 + 1000), json!([])),
    ]});
    let state = Arc::new(PeerState::default());
    let rt = runtime();
    let peer = rt
        .block_on(TestPeer::start(
            PeerConfig {
                after_welcome: vec![manifest.to_string()],
                ..PeerConfig::default()
            },
            state.clone(),
        ))
        .expect("the peer starts");
    peer.add_blob(page, "text/html", "index.html", Serve::Honest);
    let s = open_studio_with(&[("STUDIO_NETWORK", "local")]);
    join(&s, &peer.ticket(), "good-key");
    // The room's code runs only once the person says so.
    studio_e2e::keeper::click(&s, "#panel-code-run");
    let why = |id: &str| {
        let css = format!(".slot-sidebar[data-panel='limits/{id}'] .panel-why");
        wait_for(Duration::from_secs(30), &format!("{id}'s notice"), || {
            s.find(&css).map(|e| s.text(&e))
        })
    };
    let big = why("big");
    assert!(
        big.contains("3.0 MiB") && big.contains("at most 2 MiB"),
        "{big}"
    );
    let many = why("many");
    assert!(
        many.contains("71 files") && many.contains("at most 64"),
        "{many}"
    );
    let liar = why("liar");
    assert!(
        liar.contains("not the") && liar.contains("nothing was fetched"),
        "{liar}"
    );
    s.screenshot(&out_dir().join("panel-limits.png"));
    // The capped pages asked for nothing; the liar's GET stopped at the header.
    assert!(state.get_count() <= 1, "{} GETs", state.get_count());
    drop(s);
    rt.block_on(peer.shutdown());
}
