//! The keeper admin surface against the real engine's capture
//! (`shared/conformance/engine-admin-2.3.jsonl`): the capture's own requests are replayed
//! and the table's replies compared with the engine's — whole frames where the values
//! are deterministic, key sets where they are ids, paths or counts.

mod common;

use std::time::Duration;

use common::capture::{answer, assert_same_keys, features, last_answer, on, reply, sent};
use common::*;
use serde_json::{json, Value};

/// The first frame of `c`'s join (its welcome).
async fn welcome(table: &local_table::RunningTable, key: &str) -> (Client, Value) {
    let mut c = Client::open(table, key).await;
    let frames = c.until(|f| f["type"] == "ui_manifest").await;
    (c, frames[0].clone())
}

#[tokio::test]
async fn config_masks_and_imagegen_feature_match_the_engine() {
    let table = start(config("eng-cfg")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    keeper.send(sent("keeper", "admin_get_config")).await;
    let ours = keeper.next().await;
    assert_eq!(ours, reply("keeper", "admin_get_config"), "demo config");

    // Same requests, same masks: `sk-c...real`, `***********real`, using_demo false.
    keeper.send(sent("keeper", "admin_set_model")).await;
    assert_eq!(keeper.next().await, reply("keeper", "admin_set_model"));
    let (_p, before) = welcome(&table, PLAYER).await;
    keeper.send(sent("keeper", "admin_set_imagegen")).await;
    assert_eq!(
        keeper
            .until(|f| f["type"] == "admin_config")
            .await
            .pop()
            .unwrap(),
        reply("keeper", "admin_set_imagegen")
    );

    // A join after imagegen is configured advertises it (the capture's player2).
    let player2 = answer("player2", |s| s["type"] == "join");
    let (_p2, after) = welcome(&table, PLAYER2).await;
    assert_eq!(features(&after), features(&on(&player2, "player2")[0]));
    assert!(!features(&before).contains(&"imagegen".to_string()));
    table.shutdown().await;
}

#[tokio::test]
async fn key_rows_and_last_keeper_match_the_engine() {
    let table = start(config("eng-keys")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    keeper.send(sent("keeper", "admin_list_keys")).await;
    assert_same_keys(&keeper.next().await, &reply("keeper", "admin_list_keys"));
    keeper.send(sent("keeper", "admin_mint_key")).await;
    let minted = keeper.next().await;
    assert_same_keys(&minted, &reply("keeper", "admin_mint_key"));
    assert_eq!(minted["minted"]["purpose"], "join");

    // Demoting, then deleting, the room's only keeper key: the engine's exact refusal.
    let refusal = on(
        &answer("keeper", |s| s["id"] == "268ba5f5aaccf694"),
        "keeper",
    );
    assert_eq!(refusal[0]["code"], "last_keeper");
    let own = local_table::keystore::key_id(KEEPER);
    keeper
        .send(json!({"type": "admin_update_key", "id": own, "role": "player"}))
        .await;
    assert_eq!(keeper.next().await, refusal[0]);
    keeper
        .send(json!({"type": "admin_delete_key", "id": own}))
        .await;
    assert_eq!(keeper.next().await, refusal[0]);
    table.shutdown().await;
}

#[tokio::test]
async fn skills_and_rules_match_the_engine() {
    let table = start(config("eng-skills")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    for locale in ["en", "zh"] {
        let ask = |s: &Value| s["type"] == "admin_list_skills" && s["locale"] == locale;
        keeper
            .send(json!({"type": "admin_list_skills", "locale": locale}))
            .await;
        let engine = on(&answer("keeper", ask), "keeper");
        assert_eq!(keeper.next().await, engine[0], "skills in {locale}");
    }
    for on_off in [true, false] {
        let ask = |s: &Value| s["type"] == "admin_enable_skill" && s["on"] == on_off;
        let engine = answer("keeper", ask);
        keeper
            .send(json!({"type": "admin_enable_skill", "id": "image-gen", "on": on_off, "locale": "en"}))
            .await;
        assert_eq!(keeper.next().await, on(&engine, "keeper")[0]);
    }
    keeper.send(sent("keeper", "admin_list_rules")).await;
    assert_eq!(keeper.next().await, reply("keeper", "admin_list_rules"));
    table.shutdown().await;
}

#[tokio::test]
async fn failed_generate_and_update_match_the_engine() {
    let mut cfg = config("eng-gen");
    // A delayed answer would miss the 2 s window below: the failure must be prompt.
    cfg.pacing.generate = Duration::from_secs(10);
    cfg.update_command = Some(if cfg!(windows) {
        ">&2 echo fatal: not a git repository (or any of the parent directories): .git& exit 128"
            .into()
    } else {
        "echo 'fatal: not a git repository (or any of the parent directories): .git' >&2; exit 128"
            .into()
    });
    let table = start(cfg).await;
    let (mut keeper, kw) = welcome(&table, KEEPER).await;
    let (_player, pw) = welcome(&table, PLAYER).await;
    assert_eq!(features(&kw), features(&reply("keeper", "join")));
    assert_eq!(features(&pw), features(&reply("player", "join")));

    keeper.send(sent("keeper", "admin_set_model")).await;
    keeper.until(|f| f["type"] == "admin_config").await;
    keeper.send(sent("keeper", "admin_generate")).await;
    let ours = keeper.try_next(Duration::from_secs(2)).await;
    assert_eq!(ours, Some(reply("keeper", "admin_generate")));
    keeper.send(sent("keeper", "admin_update_server")).await;
    let mut ours = keeper.next().await;
    // cmd ends its lines with CRLF.
    if let Some(output) = ours["output"].as_str().filter(|_| cfg!(windows)) {
        ours["output"] = output.replace("\r\n", "\n").into();
    }
    assert_eq!(ours, reply("keeper", "admin_update_server"));
    table.shutdown().await;
}

#[tokio::test]
async fn room_ops_and_plain_error_refusals_match_the_engine() {
    let table = start(config("eng-rooms")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;

    keeper
        .send(json!({"type": "admin_export_room", "room": "demo"}))
        .await;
    let export = keeper.next().await;
    assert_same_keys(&export, &reply("keeper", "admin_export_room"));
    // An import is answered by its op alone: no state push to anyone.
    keeper
        .send(json!({"type": "admin_import_room", "path": export["path"], "room": "demo"}))
        .await;
    assert_same_keys(&keeper.next().await, &reply("keeper", "admin_import_room"));
    player.quiet(200).await;

    // A reset: everyone's state{reset:true} first, then the keeper's op (counts: nothing
    // deleted, exactly as the engine reports a story reset).
    let engine = answer("keeper", |s| s["type"] == "admin_reset_room");
    keeper.send(sent("keeper", "admin_reset_room")).await;
    let ours = keeper.until(|f| f["type"] == "admin_room_op").await;
    let theirs = on(&engine, "keeper");
    assert_eq!(types(&ours), types(&theirs));
    assert_eq!(ours[0]["reset"], true);
    assert_eq!(ours.last(), theirs.last());
    let ps = player.next().await;
    assert_eq!(
        types(std::slice::from_ref(&ps)),
        types(&on(&engine, "player"))
    );
    assert_eq!(ps["reset"], true);

    // A player's offer while uploads are off: a plain error frame, engine wording.
    keeper
        .send(json!({"type": "media_set_enabled", "enabled": false}))
        .await;
    keeper.next().await;
    player.next().await;
    player.send(sent("player", "media_offer")).await;
    let refused = answer("player", |s| s["type"] == "media_offer");
    assert_eq!(player.next().await, on(&refused, "player")[0]);

    // After its room is deleted a connection still answers pings, refuses admin with a
    // plain `error`, and hears nothing from the room (not even its keeper leaving).
    keeper.send(sent("keeper", "admin_delete_room_data")).await;
    assert_same_keys(
        &keeper.next().await,
        &reply("keeper", "admin_delete_room_data"),
    );
    keeper.send(sent("keeper", "ping")).await;
    assert_eq!(keeper.next().await, reply("keeper", "ping"));
    // The capture's last admin_list_keys is the one sent after the delete.
    let engine = last_answer("keeper", |s| s["type"] == "admin_list_keys");
    keeper.send(json!({"type": "admin_list_keys"})).await;
    assert_eq!(keeper.next().await, on(&engine, "keeper")[0]);
    keeper.close().await;
    player.quiet(500).await;
    table.shutdown().await;
}

/// A table whose module variables are the capture's (plus its keeper-only `doom`).
fn capture_vars_config(tag: &str) -> local_table::TableConfig {
    let mut cfg = config(tag);
    let first_state = on(&answer("keeper", |s| s["type"] == "join"), "keeper")
        .into_iter()
        .find(|f| f["type"] == "state")
        .unwrap();
    let mut vars = first_state["variables"].as_array().unwrap().clone();
    vars.push(json!({"id": "doom", "label": "Doom", "kind": "number", "value": 2, "hidden": true}));
    let dir = temp_dir(&format!("{tag}-story"));
    let beat = json!({"steps": [{"say": "The fog waits."}]});
    let story = json!({"title": "capture", "variables": vars, "beats": [beat]});
    std::fs::write(dir.join("story.json"), story.to_string()).unwrap();
    cfg.story = Some(dir);
    cfg
}

#[tokio::test]
async fn var_changes_match_the_engine() {
    let table = start(capture_vars_config("eng-vars")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;

    for line in [".var set hp 4", ".var add hp 3", ".var set lamp_lit true"] {
        let engine = answer("keeper", |s| s["text"] == line);
        keeper.input(line).await;
        // Keeper: echo, state, the private change line, state. Player: two states.
        let mut ours_k = keeper.until_state().await;
        ours_k.extend(keeper.until_state().await);
        let ours_p = vec![player.next().await, player.next().await];
        let (theirs_k, theirs_p) = (on(&engine, "keeper"), on(&engine, "player"));
        assert_eq!(types(&ours_k), types(&theirs_k), "{line}");
        assert_eq!(types(&ours_p), types(&theirs_p), "{line}");
        assert_eq!(ours_k[2]["text"], theirs_k[2]["text"], "{line}");
        assert_eq!(ours_k[2]["speaker"], "system");
        // Player snapshots equal the engine's, field for field.
        assert_eq!(ours_p, theirs_p, "{line}");
    }
    keeper.input(".var list").await;
    let engine = answer("keeper", |s| s["text"] == ".var list");
    let ours = keeper.until_state().await;
    assert_eq!(ours[1]["text"], on(&engine, "keeper")[1]["text"]);

    // Bounds hold and unknown variables change nothing.
    keeper.input(".var add hp 50").await;
    keeper.until_state().await;
    let ours = keeper.until_state().await;
    assert_eq!(ours[0]["text"], "HP [hp]: 7 → 12 (change: 50).");
    keeper.input(".var set nope 3").await;
    let ours = keeper.until_state().await;
    assert_eq!(types(&ours), ["narrative", "narrative", "state"]);
    // Players heard only snapshots: every change line above was keeper-private.
    while let Some(f) = player.try_next(Duration::from_millis(300)).await {
        assert_eq!(f["type"], "state", "{f}");
    }
    table.shutdown().await;
}
