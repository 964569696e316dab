//! The story streams in: while the Keeper's line arrives as `narrative_delta`s, the person sees
//! its draft grow, delta by delta, and never shrink, until the final `narrative` replaces it.
//! (A draft once froze at its first words and the whole line appeared only at its end: every
//! other check waited for the final line and stayed green.)

use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::{runtime, test_peer};
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::testpeer::PeerConfig;

/// Deltas in the line, one every [`EVERY`]: slower than a frame, so each can be drawn alone.
const DELTAS: usize = 60;
const EVERY: Duration = Duration::from_millis(40);

/// Records, in the page, each length the draft's text had when the page changed.
const RECORD: &str = r#"
window.__draftLengths = [];
new MutationObserver(() => {
  const body = document.querySelector('.entry.narrative.draft .body');
  if (!body) { return; }
  const n = body.textContent.trim().length;
  const seen = window.__draftLengths;
  if (seen.length === 0 || seen[seen.length - 1] !== n) { seen.push(n); }
}).observe(document.body, { subtree: true, childList: true, characterData: true });
return 0;
"#;

#[test]
fn a_streaming_line_grows_in_the_window_before_it_is_final() {
    let _scenario = studio_e2e::scenario();
    let rt = runtime();
    let mut full = String::new();
    let mut paced = Vec::new();
    for k in 0..DELTAS {
        let piece = if k + 1 == DELTAS {
            " STREAM-END".to_string()
        } else {
            format!(" w{k}")
        };
        full.push_str(&piece);
        paced.push(
            json!({"type":"narrative_delta","id":"s1","speaker":"kp","text":piece}).to_string(),
        );
    }
    paced.push(
        json!({"type":"narrative","id":"s1","speaker":"kp","text":full,"format":"markdown"})
            .to_string(),
    );
    let config = PeerConfig {
        after_welcome: vec![json!({"type":"state","party":[],"online":1}).to_string()],
        paced,
        paced_every: EVERY,
        paced_from: Duration::from_secs(1),
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    let s = open_studio_with(&[]);
    s.execute(RECORD, json!([])).expect("recording the draft");
    join(&s, &peer.ticket(), "good-key");

    // Halfway through, the draft shows some of the line and not yet its end.
    let mid = wait_for(Duration::from_secs(30), "the draft half grown", || {
        let body = s.find(".entry.narrative.draft .body")?;
        let text = s.text(&body);
        (text.contains(&format!("w{}", DELTAS / 2)) && !text.contains("STREAM-END")).then_some(text)
    });
    s.screenshot(&out_dir().join("story-streaming.png"));
    wait_for(Duration::from_secs(30), "the final line", || {
        s.find_all(".entry.narrative:not(.draft) .body")
            .iter()
            .any(|b| s.text(b).contains("STREAM-END"))
            .then_some(())
    });

    let lengths: Vec<u64> = match s.execute("return window.__draftLengths;", json!([])) {
        Ok(Value::Array(a)) => a.iter().filter_map(Value::as_u64).collect(),
        other => panic!("the page's record of the draft: {other:?}"),
    };
    assert!(
        lengths.windows(2).all(|w| w[0] < w[1]),
        "the draft only ever grows: {lengths:?}"
    );
    // One length per drawn change; a frame may take two deltas on a loaded machine, so a
    // third of them is asked for, not all.
    assert!(
        lengths.len() >= DELTAS / 3,
        "the draft grew in {} steps, not delta by delta (seen mid-stream: {mid:?}): {lengths:?}",
        lengths.len()
    );
    let last = *lengths.last().expect("a draft was seen");
    assert!(
        last as usize >= full.trim().len() * 3 / 4,
        "the draft reached {last} of {} characters before its final line",
        full.trim().len()
    );
}
