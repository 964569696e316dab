//! Join, broadcasts, commands, Keeper turns and error wording over real loopback connections.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

#[tokio::test]
async fn join_sequence_and_presence_match_the_engine() {
    let table = start(config("join")).await;
    let mut keeper = Client::open(&table, KEEPER).await;
    let frames = keeper.until(|f| f["type"] == "ui_manifest").await;
    // The demo story seeds an audio library, which the replay carries (as the engine's does).
    assert_eq!(
        types(&frames),
        [
            "welcome",
            "presence",
            "audio_library_item",
            "audio_state",
            "state",
            "ui_manifest"
        ]
    );
    let welcome = &frames[0];
    assert_eq!(welcome["protocol"], "2.3");
    assert_eq!(welcome["you"]["role"], "keeper");
    assert_eq!(welcome["you"]["id"], local_table::member_id(KEEPER));
    assert!(welcome["you"]["id"].as_str().unwrap().starts_with("tui:"));
    assert_eq!(frames[1]["online"], 1);

    let mut player = Client::open(&table, PLAYER).await;
    let pf = player.until(|f| f["type"] == "ui_manifest").await;
    assert_eq!(types(&pf)[..2], ["welcome", "presence"]);
    assert_eq!(pf[1]["online"], 2);
    // The keeper hears the new presence and a refreshed state.
    let kf = keeper.until_state().await;
    assert_eq!(types(&kf), ["presence", "state"]);
    assert_eq!(kf[1]["online"], 2);

    keeper.send(json!({"type": "ping", "t": 123.5})).await;
    assert_eq!(keeper.next().await, json!({"type": "pong", "t": 123.5}));

    player.close().await;
    let kf = keeper.until_state().await;
    assert_eq!(kf[0]["type"], "presence");
    assert_eq!(kf[0]["online"], 1);
    table.shutdown().await;
}

#[tokio::test]
async fn bad_key_and_join_timeout_close_the_connection() {
    let mut cfg = config("badkey");
    cfg.limits.join_timeout = Duration::from_millis(300);
    let table = start(cfg).await;
    let mut c = Client::open(&table, "no-such-key").await;
    let f = c.next().await;
    assert_eq!(f["type"], "error");
    assert_eq!(f["code"], "bad_key");
    assert!(
        c.try_next(Duration::from_secs(5)).await.is_none(),
        "closed after bad_key"
    );

    let (_ep, conn) = connect(&table.ticket()).await;
    let (mut send, recv) = conn.open_bi().await.unwrap();
    send.write_all(b"").await.unwrap();
    // Opening a stream only reaches the server with data: send a partial line.
    send.write_all(b"{").await.unwrap();
    let mut lines = local_table::carrier::LineReader::new(recv);
    let line = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
        .await
        .unwrap()
        .unwrap();
    let f = check_decodes(&line);
    assert_eq!(f["code"], "join_timeout");
    table.shutdown().await;
}

#[tokio::test]
async fn commands_reply_as_system_and_everyone_sees_them() {
    let table = start(config("cmds")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;

    player.input(".coc Alice").await;
    let pf = player.until_state().await;
    assert_eq!(types(&pf), ["narrative", "narrative", "state"]);
    assert_eq!(pf[0]["speaker"], "player");
    assert_eq!(pf[1]["text"], "Created coc7 character: Alice");
    let ch = &pf[2]["character"];
    let keys: Vec<&String> = ch["attributes"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "LUC"]
    );
    assert_eq!(ch["resources"][0]["id"], "hp");
    assert_eq!(pf[2]["party"][0]["active"], true);
    // The keeper sees the reply but not the dot-command echo, and no character of its own.
    let kf = keeper.until_state().await;
    assert_eq!(types(&kf), ["narrative", "state"]);
    assert_eq!(kf[0]["speaker"], "system");
    assert!(kf[1].get("character").is_none());
    assert_eq!(kf[1]["party"][0]["active"], false);

    player.input(".r 2d6+1").await;
    let pf = player.until_state().await;
    assert_eq!(types(&pf), ["narrative", "dice", "narrative", "state"]);
    assert_eq!(pf[0]["name"], "Alice (Player)");
    let dice = &pf[1];
    assert_eq!(dice["kind"], "roll");
    assert_eq!(dice["expr"], "2d6+1");
    let rolls: i64 = dice["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_i64().unwrap())
        .sum();
    assert_eq!(dice["total"].as_i64().unwrap(), rolls + 1);
    let kf = keeper.until_state().await;
    assert_eq!(kf[0], pf[1], "both members see the same dice frame");

    player.input(".ra spot hidden").await;
    let pf = player.until_state().await;
    let check = &pf[1];
    assert_eq!(check["kind"], "check");
    assert_eq!(check["target"], 25);
    let outcome = &check["outcome"];
    for k in [
        "id", "label", "success", "critical", "fumble", "tier", "margin",
    ] {
        assert!(outcome.get(k).is_some(), "outcome.{k}");
    }
    keeper.until_state().await;

    player.input(".sc 1/1d6").await;
    let pf = player.until_state().await;
    assert_eq!(pf[1]["kind"], "subsystem");
    assert_eq!(pf[1]["subsystem"], "sanity_check");
    let remaining = pf[1]["detail"]["remaining"].clone();
    assert_eq!(pf[3]["character"]["resources"][1]["value"], remaining);
    keeper.until_state().await;

    player.input(".r 3x").await;
    let pf = player.until_state().await;
    assert!(pf[1]["text"].as_str().unwrap().starts_with("Cannot roll"));
    keeper.until_state().await;

    // Audio is keeper-only; the demo story seeds an audio library.
    player.input(".bgm play sea").await;
    let pf = player.until_state().await;
    assert_eq!(pf[1]["text"], "Only the keeper can control audio.");
    keeper.until_state().await;
    keeper.input(".bgm play sea").await;
    let kf = keeper.until_state().await;
    assert_eq!(
        types(&kf),
        [
            "narrative",
            "audio_control",
            "audio_state",
            "narrative",
            "state"
        ]
    );
    assert_eq!(kf[1]["action"], "play");
    // As the engine: seconds on the table's clock, all three layers in the state.
    assert!(
        kf[1]["server_ts"].as_f64().unwrap() < 1e11,
        "server_ts in seconds"
    );
    assert!(kf[1].get("position_ms").is_none() && kf[1].get("volume").is_none());
    let layers = kf[2]["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 3);
    let bgm = layers.iter().find(|l| l["layer"] == "bgm").unwrap();
    assert_eq!(bgm["playing"], true);
    assert!(
        bgm["started_at"].as_f64().unwrap() < 1e11,
        "started_at in seconds"
    );
    keeper.input(".bgm volume 40").await;
    let kf = keeper.until_state().await;
    assert_eq!(kf[1]["volume"], 0.4);
    keeper.input(".sfx sea").await;
    let kf = keeper.until_state().await;
    assert_eq!(
        types(&kf),
        ["narrative", "audio_control", "narrative", "state"]
    );
    assert_eq!(kf[1]["layer"], "sfx");
    table.shutdown().await;
}

#[tokio::test]
async fn input_errors_are_worded_like_the_engine() {
    let mut cfg = config("errors");
    cfg.limits.inputs_per_member = 2;
    let table = start(cfg).await;
    let mut player = Client::join(&table, PLAYER).await;
    player.input(&"x".repeat(4001)).await;
    let f = player.next().await;
    assert_eq!(f["code"], "input_too_long");
    assert_eq!(
        f["message"],
        "Messages may contain at most 4,000 characters. Nothing was sent."
    );
    player.send(json!({"type": "bogus_frame"})).await;
    let f = player.next().await;
    assert_eq!(
        f,
        json!({"type": "error", "code": "bad_frame", "message": "Malformed message."})
    );
    player.send(json!({"type": "list_pack_cards"})).await;
    assert_eq!(
        player.next().await,
        json!({"type": "pack_cards", "cards": []})
    );
    // list_pack_cards spent one allowance; one more input, then the limiter answers.
    player.input(".help").await;
    player.until_state().await;
    player.input(".help").await;
    let f = player.next().await;
    assert_eq!(f["code"], "rate_limited");
    table.shutdown().await;
}

#[tokio::test]
async fn keeper_turn_streams_like_the_engine() {
    let table = start(config("turn")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;
    keeper.input(".panels enable test-pack").await;
    keeper.until_state().await;
    player.until_state().await;

    let mut all = vec![];
    for n in 0..6 {
        player.input(&format!("I look around ({n})")).await;
        let pf = player.until_turn_end().await;
        let kf = keeper.until_turn_end().await;
        // Two members see the same broadcasts, in the same order.
        let strip = |fs: &[serde_json::Value]| -> Vec<serde_json::Value> {
            fs.iter()
                .filter(|f| f["type"] != "state" && f["type"] != "panel_event")
                .cloned()
                .collect()
        };
        assert_eq!(strip(&pf), strip(&kf));
        assert_eq!(pf[0]["speaker"], "player");
        assert_eq!(
            pf[1],
            json!({"type": "turn_status", "status": "busy", "actor": "Player"})
        );
        all.extend(pf);
    }
    let t = types(&all);
    for kind in ["narrative_delta", "dice", "ui", "audio_control"] {
        assert!(t.iter().any(|x| x == kind), "a turn emits {kind}");
    }
    assert!(all
        .iter()
        .any(|f| f["type"] == "turn_status" && f["round"] == 1 && f.get("activity").is_some()));
    assert!(all
        .iter()
        .any(|f| f["speaker"] == "npc" && f["name"] == "Martha"));
    // Every delta's draft is closed by a narrative with the same id; one draft is abandoned.
    let deltas: std::collections::BTreeSet<_> = all
        .iter()
        .filter(|f| f["type"] == "narrative_delta")
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    for id in &deltas {
        assert!(
            all.iter()
                .any(|f| f["type"] == "narrative" && f["id"] == *id),
            "draft {id} closed"
        );
    }
    assert!(all
        .iter()
        .any(|f| f["type"] == "narrative" && f["speaker"] == "kp" && f["text"] == ""));
    let kinds: Vec<&str> = all
        .iter()
        .filter(|f| f["type"] == "ui")
        .flat_map(|f| {
            f["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["kind"].as_str().unwrap())
        })
        .collect();
    for kind in [
        "meter",
        "stat",
        "badge",
        "text",
        "divider",
        "choices",
        "image",
        "letter",
        "clipping",
        "map_pin",
        "title_card",
    ] {
        assert!(kinds.contains(&kind), "block kind {kind} covered");
    }
    // Image/map blocks carry a hash reachable from this room.
    let pin = all
        .iter()
        .flat_map(|f| f["blocks"].as_array().cloned().unwrap_or_default())
        .find(|b| b["kind"] == "map_pin")
        .unwrap();
    let (header, body) = player.get(pin["hash"].as_str().unwrap()).await.unwrap();
    assert_eq!(header["mime"], "image/svg+xml");
    assert_eq!(sha256_hex(&body), pin["hash"].as_str().unwrap());
    table.shutdown().await;
}

#[tokio::test]
async fn restart_keeps_the_ticket_and_the_room() {
    let mut cfg = config("restart");
    let secret = iroh::SecretKey::generate();
    cfg.secret_key = Some(secret);
    let port = {
        let sock = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        sock.local_addr().unwrap().port()
    };
    cfg.port = port;
    let table = start(cfg.clone()).await;
    let ticket = table.ticket();
    let mut p = Client::join(&table, PLAYER).await;
    p.input("I knock on the door").await;
    p.until_turn_end().await;
    p.close().await;
    table.shutdown().await;
    // Shutdown's promise: the port is free the moment it returns (CI once lost this race).
    drop(std::net::UdpSocket::bind(("127.0.0.1", port)).expect("shutdown released the port"));
    let table = start(cfg).await;
    assert_eq!(table.ticket(), ticket);
    let mut p = Client::open(&table, PLAYER).await;
    let frames = p.until(|f| f["type"] == "ui_manifest").await;
    assert!(
        frames.iter().any(|f| f["text"] == "I knock on the door"),
        "history survives a restart"
    );
    table.shutdown().await;
}
