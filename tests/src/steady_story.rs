//! The story a steady view is measured on (#30 item 2), and one reading of it: mostly ordinary
//! lines, every so often something far taller or shorter (5,000-character lines, one unbroken
//! and one prose; title cards, letters, clippings, and pictures whose height is known only once
//! fetched and decoded). A virtual list places what it has not drawn by estimated heights, and
//! these are far from any estimate. The test holds a reading to zero jumps; the bench reports it.

use std::time::Duration;

use serde_json::{json, Value};
use transport::testpeer::{sha256_hex, PeerConfig, Serve};

use crate::peers::{runtime, test_peer};
use crate::play::join;
use crate::steady::{read_up, Reading};
use crate::{open_studio_with, out_dir, wait_for};

const LINES: usize = 160;
pub const LAST: &str = "STORY-END the lamp is lit again.";

fn narrative(i: usize, text: String, format: &str) -> Value {
    json!({"type":"narrative","id":format!("n{i}"),"speaker":"kp","text":text,"format":format})
}

fn inline(blocks: Value) -> Value {
    json!({"type":"ui","panel":"inline","blocks":blocks})
}

/// A picture: its height is known only once it has come over the media channel and decoded.
pub fn picture() -> Vec<u8> {
    std::fs::read(test_support::repo().join("assets/icon.png")).expect("assets/icon.png")
}

/// The story: mostly ordinary lines, every so often something far taller or shorter.
pub fn story() -> Vec<String> {
    let bytes = picture();
    let (hash, size) = (sha256_hex(&bytes), bytes.len());
    let sentence = "The lamps gutter along the front while the tide climbs the sea wall. ";
    let mut frames = vec![json!({"type":"state","party":[],"online":1})];
    for i in 0..LINES {
        frames.push(match i {
            _ if i + 1 == LINES => narrative(i, LAST.into(), "plain"),
            _ if i % 40 == 7 => narrative(
                i,
                format!("{}<script>window.__xss=1</script>", "a".repeat(5000)),
                "plain",
            ),
            _ if i % 40 == 23 => narrative(
                i,
                (0..72)
                    .map(|k| format!("{sentence}{}", if k % 9 == 8 { "\n\n" } else { "" }))
                    .collect(),
                "markdown",
            ),
            _ if i % 20 == 11 => inline(json!([
                {"kind":"title_card","title":format!("The night of the storm, part {i}"),"act":"Act II"}
            ])),
            _ if i % 20 == 15 => inline(json!([{
                "kind":"letter","from":"Martha","to":"Ada","date":"12 March 1924",
                "body":"Dear Ada,\n\nThe ferry did not come. I waited by the lamp until the tide \
                        turned, and when it did the water brought something up the steps.\n\n\
                        Burn this when you have read it.\n\nM."
            }])),
            _ if i % 20 == 5 => inline(json!([{
                "kind":"image","hash":hash,"mime":"image/png","size":size,
                "caption":format!("The lighthouse, plate {i}"),"alt":"A lighthouse"
            }])),
            _ if i % 30 == 3 => inline(json!([{
                "kind":"clipping","headline":"FERRYMAN MISSING","source":"Kingsport Gazette",
                "body":"The harbour master reports the ferry adrift at first light, its lamp still burning."
            }])),
            _ => narrative(i, format!("Line {i}: {}", sentence.repeat(1 + i % 4)), "markdown"),
        });
    }
    frames.into_iter().map(|f| f.to_string()).collect()
}

/// A window joined to a table telling [`story`], read from its end up to the top a wheel's step
/// (three lines of text) at a time; the top of the story is kept in `<out>/<shot>`.
pub fn read_the_story(shot: &str) -> Reading {
    let rt = runtime();
    let config = PeerConfig {
        after_welcome: story(),
        ..PeerConfig::default()
    };
    let peer = test_peer(&rt, config);
    peer.add_blob(picture(), "image/png", "icon.png", Serve::Honest);
    let s = open_studio_with(&[]);
    join(&s, &peer.ticket(), "good-key");
    wait_for(Duration::from_secs(60), "the story's end on screen", || {
        let v = s
            .execute(
                "const t = document.querySelector('#transcript');
                 return !!t && t.textContent.includes(arguments[0])
                   && t.scrollHeight - t.scrollTop - t.clientHeight < 40;",
                json!([LAST]),
            )
            .unwrap_or_else(|e| panic!("reading the transcript: {e}"));
        (v == true).then_some(())
    });
    let reading = read_up(&s, 120.0, 3_000, Duration::from_secs(240));
    s.screenshot(&out_dir().join(shot));
    drop(s);
    rt.block_on(peer.shutdown());
    reading
}
