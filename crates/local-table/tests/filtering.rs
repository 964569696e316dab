//! Per-viewer filtering: hidden variables and keeper-only panels; pack assets over GET.

mod common;

use common::*;
use serde_json::{json, Value};

fn var<'a>(state: &'a Value, id: &str) -> Option<&'a Value> {
    state["variables"]
        .as_array()?
        .iter()
        .find(|v| v["id"] == id)
}

fn panel_ids(manifest: &Value) -> Vec<String> {
    manifest["panels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn hidden_variables_reach_keepers_only() {
    let table = start(config("vars")).await;
    let mut keeper = Client::open(&table, KEEPER).await;
    let kf = keeper.until(|f| f["type"] == "ui_manifest").await;
    let ks = kf.iter().find(|f| f["type"] == "state").unwrap();
    assert_eq!(var(ks, "secret.martha").unwrap()["hidden"], true);
    let mut player = Client::open(&table, PLAYER).await;
    let pf = player.until(|f| f["type"] == "ui_manifest").await;
    let ps = pf.iter().find(|f| f["type"] == "state").unwrap();
    assert!(var(ps, "secret.martha").is_none());
    assert!(var(ps, "clue.ledger").is_none());
    assert!(var(ps, "day").is_some());
    assert!(
        !pf.iter().any(|f| f.to_string().contains("brother drowned")),
        "no hidden value in any player frame"
    );
    keeper.until_state().await;

    // A hidden variable's change is heard by keepers only; expose reveals it.
    keeper.input(".var set clue.ledger true").await;
    keeper.until_state().await;
    let kf = keeper.until_state().await;
    assert_eq!(
        kf[0]["text"],
        "The keeper's ledger [clue.ledger]: False → True."
    );
    for _ in 0..2 {
        let pf = player.until_state().await;
        assert_eq!(types(&pf), ["state"]);
        assert!(var(&pf[0], "clue.ledger").is_none());
    }
    keeper.input(".var expose clue.ledger").await;
    keeper.until_state().await;
    let pf = player.until_state().await;
    assert_eq!(
        var(pf.last().unwrap(), "clue.ledger").unwrap()["value"],
        true
    );
    assert!(var(pf.last().unwrap(), "clue.ledger")
        .unwrap()
        .get("hidden")
        .is_none());
    player.input(".var set day 3").await;
    let pf = player.until_state().await;
    assert_eq!(pf[1]["text"], "Only the keeper can change variables.");
    table.shutdown().await;
}

#[tokio::test]
async fn keeper_only_panels_never_reach_players() {
    let table = start(config("panels")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;
    let asset = {
        let dot = std::fs::read(fixture_pack().join("img/dot.svg")).unwrap();
        sha256_hex(&dot)
    };
    // Not enabled yet: the pack's assets are not reachable.
    assert_eq!(
        player.get(&asset).await.unwrap_err()["code"],
        "media_not_found"
    );

    keeper.input(".panels enable test-pack").await;
    let kf = keeper.until_state().await;
    let km = kf.iter().find(|f| f["type"] == "ui_manifest").unwrap();
    assert_eq!(
        panel_ids(km),
        ["test-pack/side", "test-pack/tray", "test-pack/board"]
    );
    let pf = player.until_state().await;
    let pm = pf.iter().find(|f| f["type"] == "ui_manifest").unwrap();
    assert_eq!(
        panel_ids(pm),
        [
            "test-pack/side",
            "test-pack/board",
            "test-pack/players-only"
        ]
    );
    assert!(
        !pm.to_string().contains("audience"),
        "audience never rides the wire"
    );
    let side = &km["panels"][0];
    assert_eq!(side["blocks"][1]["hash"], asset.as_str());
    assert_eq!(side["blocks"][1]["mime"], "image/svg+xml");
    let board = &km["panels"][2];
    assert_eq!(board["tier"], 2);
    let paths: Vec<&str> = board["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap())
        .collect();
    // The entry rides as `entry`; `assets` are the other declared files, as the engine sends.
    assert_eq!(paths, ["app.js"]);
    assert!(pm["panels"][2]["fallback"].is_null());

    let (header, body) = player.get(&asset).await.unwrap();
    assert_eq!(header["mime"], "image/svg+xml");
    assert_eq!(sha256_hex(&body), asset);
    let entry = board["entry"]["hash"].as_str().unwrap();
    assert!(player.get(entry).await.is_ok());

    // panel_intent: only panels in the member's own manifest.
    player.send(json!({"type": "panel_intent", "panel": "test-pack/tray", "kind": "choice", "value": "x"})).await;
    assert_eq!(player.next().await["code"], "forbidden");
    player.send(json!({"type": "panel_intent", "panel": "test-pack/side", "kind": "roll", "value": "1d6"})).await;
    let pf = player.until_state().await;
    assert_eq!(pf[0]["text"], ".r 1d6");
    assert_eq!(pf[1]["type"], "dice");
    table.shutdown().await;
}
