//! Hot reload of a pack folder (the pack bench): a saved edit republishes the manifest to the
//! rooms using the pack; a broken file is an error that names its line, and the last good pack
//! stays served.

mod common;

use common::{start, Client, KEEPER};
use test_support::copy_dir;

fn titles(manifest: &serde_json::Value) -> Vec<String> {
    manifest["panels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["title"]["en"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn an_edit_republishes_and_a_broken_file_keeps_the_last_good_pack() {
    let mut cfg = common::config("reload");
    let dir = common::temp_dir("reload-pack").join("pack");
    copy_dir(&common::fixture_pack(), &dir);
    cfg.packs = vec![dir.clone()];
    cfg.enable_packs = true;
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let first = keeper.seen.last().unwrap().clone();
    assert!(titles(&first).contains(&"Sidebar".to_string()), "{first}");

    let panels = dir.join("ui/panels.yaml");
    let text = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(&panels, text.replace("\"Sidebar\"", "\"Sidebar, edited\"")).unwrap();
    table.reload_pack(&dir).expect("a clean edit reloads");
    let fresh = keeper.until(|f| f["type"] == "ui_manifest").await;
    let fresh = fresh.last().unwrap();
    assert!(
        titles(fresh).contains(&"Sidebar, edited".to_string()),
        "{fresh}"
    );

    // A typo: the error names the file and the line; nothing new is published.
    std::fs::write(&panels, "panels:\n  - id: side\n    title: [unclosed\n").unwrap();
    let err = table
        .reload_pack(&dir)
        .expect_err("a broken file is refused")
        .to_string();
    assert!(err.contains("ui/panels.yaml:3:"), "{err}");
    eprintln!("{err}");
    let late = Client::join(&table, KEEPER).await;
    let served = late.seen.last().unwrap().clone();
    assert!(
        titles(&served).contains(&"Sidebar, edited".to_string()),
        "{served}"
    );
    late.close().await;
    keeper.close().await;
}

fn vars_of(frames: &[serde_json::Value]) -> Vec<(String, serde_json::Value, bool)> {
    let state = frames
        .iter()
        .rev()
        .find(|f| f["type"] == "state")
        .expect("a state");
    state["variables"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|v| v["id"].as_str().unwrap_or("").starts_with("w."))
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["value"].clone(),
                v["hidden"] == true,
            )
        })
        .collect()
}

const CARD: &str = r#"{"format": "loreweaver.card", "format_version": 1, "name": "World", "variables": [
  {"id": "w.day", "kind": "number", "visibility": "player", "labels": {"en": "Day"}, "default": 1, "minimum": 0, "maximum": 9},
  {"id": "w.killer", "kind": "text", "visibility": "keeper", "labels": {"en": "Killer"}, "default": "the butler"}
]}"#;

#[tokio::test]
async fn world_cards_seed_variables_keeper_only_ones_hidden_and_values_survive_a_reload() {
    let mut cfg = common::config("world-vars");
    let dir = common::temp_dir("world-pack").join("pack");
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    std::fs::write(
        dir.join("pack.yaml"),
        "id: w\nversion: \"0.1.0\"\nname: W\ndescription: D\nlicense: MIT\ncontents:\n  cards: [cards/world.lorecard.json]\n",
    )
    .unwrap();
    std::fs::write(dir.join("cards/world.lorecard.json"), CARD).unwrap();
    cfg.packs = vec![dir.clone()];
    cfg.enable_packs = true;
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, common::PLAYER).await;
    assert_eq!(
        vars_of(&keeper.seen),
        [
            ("w.day".into(), serde_json::json!(1), false),
            ("w.killer".into(), serde_json::json!("the butler"), true)
        ]
    );
    assert_eq!(
        vars_of(&player.seen),
        [("w.day".into(), serde_json::json!(1), false)]
    );

    player
        .send(serde_json::json!({"type": "list_pack_cards"}))
        .await;
    let cards = player.until(|f| f["type"] == "pack_cards").await;
    assert_eq!(
        cards.last().unwrap()["cards"],
        serde_json::json!([{"ref": "w/cards/world.lorecard.json", "pack": "w", "name": "world.lorecard", "kind": "world"}])
    );

    // The bench's editor: a value (clamped to the card's maximum) and an ad-hoc variable.
    table.set_var("demo", "w.day", "", "12").unwrap();
    assert_eq!(
        vars_of(&player.until_state().await),
        [("w.day".into(), serde_json::json!(9), false)]
    );
    table.set_var("demo", "w.flag", "bool", "true").unwrap();
    let seen = player.until_state().await;
    assert_eq!(
        vars_of(&seen)[1],
        ("w.flag".into(), serde_json::json!(true), false)
    );
    assert!(table.set_var("demo", "w.day", "", "many").is_err());

    // A new variable in the card: seeded on reload; the edited value stays.
    std::fs::write(
        dir.join("cards/world.lorecard.json"),
        CARD.replace(
            "\n]}",
            ",\n  {\"id\": \"w.storm\", \"kind\": \"bool\", \"default\": true}\n]}",
        ),
    )
    .unwrap();
    table.reload_pack(&dir).expect("reloads");
    let seen = keeper
        .until(|f| f["type"] == "state" && f["variables"].to_string().contains("w.storm"))
        .await;
    let vars = vars_of(&seen);
    assert_eq!(vars[0], ("w.day".into(), serde_json::json!(9), false));
    assert_eq!(
        vars.last().unwrap(),
        &("w.storm".to_string(), serde_json::json!(true), false)
    );
    player.close().await;
    keeper.close().await;
}
