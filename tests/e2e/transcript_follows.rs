//! A flood of lines keeps the reader at the end, and a reader who scrolled up stays where they
//! are while more lines arrive. The transcript is a virtual list whose content settles under the
//! view (heights measured, spacers redrawn): that settling must not read as the reader leaving.

use std::time::Duration;

use serde_json::{json, Value};
use studio_e2e::peers::{runtime, test_peer};
use studio_e2e::play::join;
use studio_e2e::{open_studio_with, out_dir, wait_for, Studio};
use transport::testpeer::PeerConfig;

const FLOOD: usize = 4_000;

fn line(id: String, text: String) -> String {
    json!({"type":"narrative","id":id,"speaker":"kp","text":text,"format":"markdown"}).to_string()
}

/// The model's length, how far the view is from the end, and the first and last drawn lines.
fn view(s: &Studio) -> Value {
    s.execute(
        "const t = document.querySelector('#transcript');
         if (!t) { return null; }
         const all = t.querySelectorAll('.entry');
         return { entries: Number(t.dataset.entries), top: t.scrollTop,
                  fromEnd: t.scrollHeight - t.scrollTop - t.clientHeight,
                  first: all.length ? all[0].textContent : '',
                  last: all.length ? all[all.length - 1].textContent : '' };",
        json!([]),
    )
    .expect("reading the transcript")
}

#[test]
fn a_flood_is_followed_and_a_reader_who_scrolled_up_stays() {
    let _scenario = studio_e2e::scenario();
    let rt = runtime();
    let mut after = vec![json!({"type":"state","party":[],"online":1}).to_string()];
    after.extend((0..FLOOD).map(|i| {
        let text = if i + 1 == FLOOD {
            "FLOOD-END the tide is in.".to_string()
        } else {
            format!("Line {i}: the lamps gutter along the front, one by one.")
        };
        line(format!("f{i}"), text)
    }));
    let config = PeerConfig {
        after_welcome: after,
        // Then a slow trickle, long enough to still be coming once the reader has scrolled up.
        paced: (0..400)
            .map(|i| line(format!("p{i}"), format!("LATE-{i} a gull cries.")))
            .collect(),
        paced_every: Duration::from_millis(250),
        paced_from: Duration::from_secs(1),
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    let s = open_studio_with(&[]);
    join(&s, &peer.ticket(), "good-key");

    // The whole flood arrives and the view is at its end, showing the newest line.
    let end = wait_for(
        Duration::from_secs(60),
        "the view at the flood's end",
        || {
            let v = view(&s);
            let newest = v["last"].as_str().unwrap_or_default();
            (v["entries"].as_u64()? >= FLOOD as u64
                && v["fromEnd"].as_f64()? < 40.0
                && (newest.contains("FLOOD-END") || newest.contains("LATE-")))
            .then_some(v)
        },
    );
    s.screenshot(&out_dir().join("transcript-flood-end.png"));

    // The reader goes to the top; the trickle goes on and must not pull them back down.
    s.execute(
        "const t = document.querySelector('#transcript'); t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); return 0;",
        json!([]),
    )
    .expect("scrolling to the top");
    let at_top = wait_for(Duration::from_secs(30), "the first line drawn", || {
        let v = view(&s);
        v["first"]
            .as_str()?
            .contains("Line 0:")
            .then_some(v["entries"].as_u64()?)
    });
    wait_for(
        Duration::from_secs(30),
        "three more lines while reading",
        || (view(&s)["entries"].as_u64()? >= at_top + 3).then_some(()),
    );
    let v = view(&s);
    assert!(
        v["top"].as_f64().unwrap_or(f64::MAX) < 200.0
            && v["first"].as_str().unwrap_or_default().contains("Line 0:"),
        "the reader was moved from the top: {v} (at the end before: {end})"
    );
    drop(s);
    rt.block_on(peer.shutdown());
}
