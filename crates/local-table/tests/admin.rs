//! The keeper gate on every admin frame, key management and room backups.

mod common;

use common::*;
use local_table::{KeySource, TableConfig};
use serde_json::{json, Value};

fn file_config(tag: &str) -> (TableConfig, std::path::PathBuf) {
    let mut cfg = config(tag);
    let path = cfg.data_dir.join("keys.toml");
    std::fs::write(
        &path,
        format!(
            "[\"{KEEPER}\"]\nroom = \"demo\"\nname = \"Keeper\"\nrole = \"keeper\"\n\n\
             [\"{PLAYER}\"]\nroom = \"demo\"\nname = \"Player\"\nrole = \"player\"\n\n\
             [\"other-room-key-000\"]\nroom = \"elsewhere\"\nname = \"X\"\n"
        ),
    )
    .unwrap();
    cfg.keys = KeySource::File(path.clone());
    (cfg, path)
}

fn all_admin_frames(dir: &std::path::Path) -> Vec<Value> {
    let backup = dir.join("b.json").display().to_string();
    vec![
        json!({"type": "admin_get_config"}),
        json!({"type": "admin_set_model", "provider": "openai", "api_key": "sk-x"}),
        json!({"type": "admin_set_imagegen", "provider": "openai", "model": "m"}),
        json!({"type": "admin_list_models"}),
        json!({"type": "admin_list_keys"}),
        json!({"type": "admin_mint_key", "name": "Eve"}),
        json!({"type": "admin_update_key", "id": "x", "role": "keeper"}),
        json!({"type": "admin_delete_key", "id": "x"}),
        json!({"type": "admin_delete_room", "room": "demo"}),
        json!({"type": "admin_export_room", "room": "demo", "path": backup}),
        json!({"type": "admin_import_room", "path": backup}),
        json!({"type": "admin_delete_room_data", "room": "demo"}),
        json!({"type": "admin_reset_room", "room": "demo", "scope": "all"}),
        json!({"type": "admin_list_skills", "locale": "en"}),
        json!({"type": "admin_enable_skill", "id": "svg-mapmaker", "on": true}),
        json!({"type": "admin_list_rules"}),
        json!({"type": "admin_generate", "kind": "skill", "description": "x"}),
        json!({"type": "admin_update_server"}),
    ]
}

#[tokio::test]
async fn players_are_refused_every_admin_frame_and_nothing_changes() {
    let (cfg, path) = file_config("gate");
    let dir = cfg.data_dir.clone();
    let table = start(cfg).await;
    let before = std::fs::read(&path).unwrap();
    let mut player = Client::join(&table, PLAYER).await;
    for frame in all_admin_frames(&dir) {
        player.send(frame.clone()).await;
        let reply = player.next().await;
        assert_eq!(reply["type"], "admin_error", "{frame}");
        assert_eq!(reply["code"], "forbidden", "{frame}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before, "keys file untouched");
    assert!(!dir.join("b.json").exists());
    assert!(!dir.join("room_backups").exists());
    table.shutdown().await;
}

#[tokio::test]
async fn keeper_manages_keys_without_locking_itself_out() {
    let (cfg, path) = file_config("keys");
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    keeper.send(json!({"type": "admin_list_keys"})).await;
    let keys = keeper.next().await;
    assert_eq!(
        keys["keys"].as_array().unwrap().len(),
        2,
        "only the caller's room"
    );
    assert!(!keys.to_string().contains(KEEPER), "keys are masked");
    keeper
        .send(json!({"type": "admin_mint_key", "name": "Bob", "room": "elsewhere"}))
        .await;
    assert_eq!(keeper.next().await["code"], "forbidden");
    keeper
        .send(json!({"type": "admin_mint_key", "name": "Bob"}))
        .await;
    let minted = keeper.next().await;
    let secret = minted["minted"]["key"].as_str().unwrap().to_string();
    assert!(std::fs::read_to_string(&path).unwrap().contains(&secret));
    keeper.send(json!({"type": "admin_list_keys"})).await;
    assert!(
        !keeper.next().await.to_string().contains(&secret),
        "cleartext only once"
    );

    let keeper_id = local_table::keystore::key_id(KEEPER);
    keeper
        .send(json!({"type": "admin_update_key", "id": keeper_id, "role": "player"}))
        .await;
    assert_eq!(keeper.next().await["code"], "last_keeper");
    keeper
        .send(json!({"type": "admin_delete_key", "id": keeper_id}))
        .await;
    assert_eq!(keeper.next().await["code"], "last_keeper");
    let bob = local_table::keystore::key_id(&secret);
    keeper
        .send(json!({"type": "admin_update_key", "id": bob, "name": "Robert"}))
        .await;
    assert!(keeper.next().await.to_string().contains("Robert"));
    keeper
        .send(json!({"type": "admin_delete_key", "id": bob}))
        .await;
    let after = keeper.next().await;
    assert_eq!(after["keys"].as_array().unwrap().len(), 2);
    keeper
        .send(json!({"type": "admin_delete_key", "id": "nope"}))
        .await;
    assert_eq!(keeper.next().await["code"], "not_found");
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("other-room-key-000"));
    table.shutdown().await;
}

#[tokio::test]
async fn concurrent_mints_never_lose_a_key() {
    let (cfg, path) = file_config("mints");
    let table = start(cfg).await;
    let mut a = Client::join(&table, KEEPER).await;
    let mut b = Client::join(&table, KEEPER).await;
    a.until_state().await;
    for n in 0..15 {
        a.send(json!({"type": "admin_mint_key", "name": format!("a{n}")}))
            .await;
        b.send(json!({"type": "admin_mint_key", "name": format!("b{n}")}))
            .await;
    }
    let mut secrets = vec![];
    for c in [&mut a, &mut b] {
        let mut got = 0;
        while got < 15 {
            let f = c.next().await;
            if f["type"] == "admin_keys" {
                secrets.push(f["minted"]["key"].as_str().unwrap().to_string());
                got += 1;
            }
        }
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed: toml::Table = text.parse().unwrap();
    assert_eq!(parsed.len(), 3 + 30);
    for s in &secrets {
        assert!(parsed.contains_key(s));
    }
    table.shutdown().await;
}

#[tokio::test]
async fn room_backups_are_real_files() {
    let (cfg, _path) = file_config("backup");
    let dir = cfg.data_dir.clone();
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    keeper.input("I open the door").await;
    keeper.until_turn_end().await;
    keeper
        .send(json!({"type": "admin_export_room", "room": "demo"}))
        .await;
    let op = keeper.next().await;
    assert_eq!(op["action"], "export");
    let backup = op["path"].as_str().unwrap().to_string();
    assert!(backup.starts_with(dir.join("room_backups").to_str().unwrap()));
    let snap: Value = serde_json::from_str(&std::fs::read_to_string(&backup).unwrap()).unwrap();
    assert_eq!(snap["keys"].as_array().unwrap().len(), 2);

    keeper
        .send(json!({"type": "admin_reset_room", "room": "demo", "scope": "story"}))
        .await;
    let frames = keeper.until(|f| f["type"] == "admin_room_op").await;
    assert!(frames
        .iter()
        .any(|f| f["type"] == "state" && f["reset"] == true));
    assert_eq!(frames.last().unwrap()["scope"], "story");

    keeper
        .send(json!({"type": "admin_import_room", "path": backup}))
        .await;
    let frames = keeper.until(|f| f["type"] == "admin_room_op").await;
    assert_eq!(frames.last().unwrap()["action"], "import");

    keeper
        .send(json!({"type": "admin_delete_room_data", "room": "demo"}))
        .await;
    let op = keeper.next().await;
    assert_eq!(op["action"], "delete");
    assert!(
        std::path::Path::new(op["path"].as_str().unwrap()).exists(),
        "backup written first"
    );

    keeper.send(json!({"type": "admin_list_rules"})).await;
    // The key is gone: the gate re-reads the keystore and refuses.
    assert_eq!(keeper.next().await["code"], "forbidden");
    table.shutdown().await;
}

#[tokio::test]
async fn config_models_skills_and_generate() {
    let table = start(config("cfg")).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    // On the scripted Keeper (no model set) generation "succeeds", slowly.
    keeper
        .send(json!({"type": "admin_generate", "kind": "module", "description": "a haunted mill"}))
        .await;
    keeper.send(json!({"type": "ping", "t": 1})).await;
    assert_eq!(
        keeper.next().await["type"],
        "pong",
        "generate does not block the connection"
    );
    let g = keeper.next().await;
    assert_eq!(g["type"], "admin_generated");
    assert_eq!(g["ok"], true);
    keeper.send(json!({"type": "admin_set_model", "provider": "openai", "api_key": "sk-secret-123456", "base_url": "https://a"})).await;
    let c = keeper.next().await;
    assert_eq!(c["api_key_masked"], "sk-s...3456");
    keeper
        .send(json!({"type": "admin_set_model", "provider": "openai", "base_url": "https://b"}))
        .await;
    assert_eq!(
        keeper.next().await["api_key_masked"],
        "",
        "new endpoint never gets the old key"
    );
    keeper
        .send(json!({"type": "admin_set_model", "provider": "nope"}))
        .await;
    assert_eq!(keeper.next().await["code"], "unknown_provider");
    keeper.send(json!({"type": "admin_list_models"})).await;
    assert_eq!(keeper.next().await["type"], "admin_models");
    keeper
        .send(json!({"type": "admin_enable_skill", "id": "svg-mapmaker", "on": true}))
        .await;
    let skills = keeper.next().await;
    assert!(skills["skills"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == "svg-mapmaker" && s["enabled"] == true));
    keeper
        .send(json!({"type": "admin_generate", "kind": "module", "description": "a haunted mill"}))
        .await;
    // A configured model is unreachable from the table: the engine's prompt failure.
    let g = keeper.next().await;
    assert_eq!(g["ok"], false);
    assert!(g["error"].as_str().unwrap().starts_with("llm_failed: "));
    keeper.send(json!({"type": "admin_update_server"})).await;
    assert_eq!(keeper.next().await["code"], "not_configured");
    table.shutdown().await;
}
