//! Join replay: the last transcript lines with the dice/npc frames that followed each,
//! in live order, fresh ids; live frames during a join arrive after the replay, once.

mod common;

use std::time::Duration;

use common::*;
use serde_json::Value;

/// The story-lane view of a frame: what replay must reproduce.
fn lane(f: &Value) -> Option<String> {
    match f["type"].as_str()? {
        "narrative"
            if f["speaker"] != "system"
                && f["text"] != ""
                && !f["text"].as_str()?.starts_with('.') =>
        {
            Some(format!("{}:{}", f["speaker"], f["text"]))
        }
        "dice" => Some(format!("dice:{}:{}:{}", f["kind"], f["expr"], f["total"])),
        _ => None,
    }
}

#[tokio::test]
async fn replay_keeps_the_live_interleaving_with_fresh_ids() {
    let table = start(config("replay")).await;
    let mut p = Client::join(&table, PLAYER).await;
    p.input(".coc Alice").await;
    p.until_state().await;
    p.input(".r 1d20").await; // a roll before any transcript line
    p.until_state().await;
    let mut live = vec![];
    for text in [
        "I climb the path",
        "I search the desk for letters",
        "I follow Martha",
    ] {
        p.input(text).await;
        live.extend(p.until_turn_end().await);
        p.input(".ra listen").await; // a typed check anchored after the Keeper's reply
        live.extend(p.until_state().await);
    }
    let roll = p
        .seen
        .iter()
        .find(|f| f["type"] == "dice" && f["expr"] == "1d20")
        .cloned()
        .unwrap();
    let mut expected: Vec<String> = vec![lane(&roll).unwrap()];
    expected.extend(live.iter().filter_map(lane));
    assert!(
        expected.iter().any(|l| l.starts_with("\"npc\"")),
        "{expected:?}"
    );

    let mut late = Client::open(&table, PLAYER2).await;
    let frames = late.until(|f| f["type"] == "ui_manifest").await;
    let replayed: Vec<String> = frames.iter().filter_map(lane).collect();
    assert_eq!(replayed, expected);
    // Replay ids are fresh per join.
    let live_ids: Vec<&Value> = live
        .iter()
        .filter(|f| f["type"] == "narrative")
        .map(|f| &f["id"])
        .collect();
    for f in frames.iter().filter(|f| f["type"] == "narrative") {
        assert!(
            !live_ids.contains(&&f["id"]),
            "replayed narrative reuses a live id"
        );
    }
    table.shutdown().await;
}

#[tokio::test]
async fn live_frames_during_a_join_arrive_after_the_replay_once() {
    let mut cfg = config("replay-live");
    cfg.pacing.delta = Duration::from_millis(15);
    let table = start(cfg).await;
    let mut p = Client::join(&table, PLAYER).await;
    p.input("I climb the path").await;
    // Wait until the turn is streaming, then join mid-turn.
    p.until(|f| f["type"] == "narrative_delta").await;
    let mut late = Client::open(&table, PLAYER2).await;
    let mut frames = late.until(|f| f["type"] == "ui_manifest").await;
    frames.extend(late.until_turn_end().await);
    let closing: Vec<&Value> = frames
        .iter()
        .filter(|f| f["type"] == "narrative" && f["speaker"] == "kp")
        .collect();
    assert_eq!(closing.len(), 1, "the Keeper's line arrives once");
    let manifest_at = frames
        .iter()
        .position(|f| f["type"] == "ui_manifest")
        .unwrap();
    let first_delta = frames
        .iter()
        .position(|f| f["type"] == "narrative_delta")
        .unwrap();
    assert!(
        first_delta > manifest_at,
        "live deltas come after the join sequence"
    );
    let player_lines = frames
        .iter()
        .filter(|f| f["text"] == "I climb the path")
        .count();
    assert_eq!(player_lines, 1, "the replayed line is not delivered twice");
    table.shutdown().await;
}
