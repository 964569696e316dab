//! Media offers, PUT/GET on extra streams, and every error path.

mod common;

use common::*;
use serde_json::json;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\nnot really a png but opaque bytes are fine";

#[tokio::test]
async fn upload_then_download_and_errors() {
    let mut cfg = config("media");
    cfg.limits.uploads_per_minute = 7;
    let table = start(cfg).await;
    let mut keeper = Client::join(&table, KEEPER).await;
    let mut player = Client::join(&table, PLAYER).await;
    keeper.until_state().await;
    let hash = sha256_hex(PNG);
    let offer = |mime: &str, size: usize, sha: &str| json!({"type": "media_offer", "name": "dot.png", "mime": mime, "size": size, "sha256": sha});

    player.send(offer("text/html", PNG.len(), &hash)).await;
    assert_eq!(player.next().await["code"], "media_bad_mime");
    player.send(offer("image/png", 9 << 20, &hash)).await;
    assert_eq!(player.next().await["code"], "media_too_large");
    player.send(offer("image/png", PNG.len(), "abc")).await;
    assert_eq!(player.next().await["code"], "media_bad_hash");

    player.send(offer("image/png", PNG.len(), &hash)).await;
    let accept = player.next().await;
    let upload_id = accept["upload_id"].as_str().unwrap().to_string();
    // A PUT with the wrong bytes is refused, and the upload id is spent.
    let bad = player.put(&upload_id, b"wrong bytes").await;
    assert_eq!(bad["code"], "media_size_mismatch");
    player.send(offer("image/png", PNG.len(), &hash)).await;
    let upload_id = player.next().await["upload_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut tampered = PNG.to_vec();
    tampered[20] ^= 1;
    assert_eq!(
        player.put(&upload_id, &tampered).await["code"],
        "media_hash_mismatch"
    );
    assert_eq!(player.put("unknown", PNG).await["code"], "media_bad_upload");

    player.send(offer("image/png", PNG.len(), &hash)).await;
    let upload_id = player.next().await["upload_id"]
        .as_str()
        .unwrap()
        .to_string();
    let ok = player.put(&upload_id, PNG).await;
    assert_eq!(ok, json!({"op": "put_ok", "hash": hash}));
    let media = keeper.next().await;
    assert_eq!(media["type"], "media");
    assert_eq!(media["from"], "Player");
    assert_eq!(player.next().await["hash"], hash.as_str());
    let (header, body) = keeper.get(&hash).await.unwrap();
    assert_eq!(
        header,
        json!({"op": "get", "hash": hash, "size": PNG.len(), "mime": "image/png", "name": "dot.png"})
    );
    assert_eq!(body, PNG);
    assert_eq!(
        keeper.get(&"0".repeat(64)).await.unwrap_err()["code"],
        "media_not_found"
    );

    // A known hash needs no PUT.
    player.send(offer("image/png", PNG.len(), &hash)).await;
    let again = player.next().await;
    assert_eq!(again["existing"], true);
    assert_eq!(again["media"]["hash"], hash.as_str());
    assert_eq!(
        player.next().await["type"],
        "media",
        "and the room hears it again"
    );

    // The 10-per-minute limiter (7 here) counts every offer.
    player.send(offer("image/png", PNG.len(), &hash)).await;
    assert_eq!(player.next().await["code"], "media_rate_limited");

    // The room switch: keeper-only, broadcast to everyone, replayed on join when off.
    player
        .send(json!({"type": "media_set_enabled", "enabled": false}))
        .await;
    assert_eq!(player.next().await["code"], "forbidden");
    keeper
        .send(json!({"type": "media_set_enabled", "enabled": false}))
        .await;
    let kf = keeper.until(|f| f["type"] == "media_enabled").await;
    assert_eq!(
        kf.last().unwrap(),
        &json!({"type": "media_enabled", "enabled": false})
    );
    player.until(|f| f["type"] == "media_enabled").await;
    keeper.send(offer("image/png", PNG.len(), &hash)).await;
    assert_eq!(keeper.next().await["code"], "media_disabled");
    let mut late = Client::open(&table, PLAYER2).await;
    let frames = late.until(|f| f["type"] == "ui_manifest").await;
    assert!(
        frames
            .iter()
            .any(|f| f["type"] == "media" && f["hash"] == hash.as_str()),
        "media history replayed"
    );
    assert!(frames
        .iter()
        .any(|f| *f == json!({"type": "media_enabled", "enabled": false})));
    table.shutdown().await;
}

#[tokio::test]
async fn unsafe_svg_is_refused_and_avatars_bind_only_the_caller() {
    let table = start(config("svg")).await;
    let mut player = Client::join(&table, PLAYER).await;
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#;
    let hash = sha256_hex(svg);
    player.send(json!({"type": "media_offer", "name": "x.svg", "mime": "image/svg+xml", "size": svg.len(), "sha256": hash})).await;
    let id = player.next().await["upload_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(player.put(&id, svg).await["code"], "media_bad_svg");

    let hash = sha256_hex(PNG);
    player.send(json!({"type": "media_offer", "name": "me.png", "mime": "image/png", "size": PNG.len(), "sha256": hash})).await;
    let id = player.next().await["upload_id"]
        .as_str()
        .unwrap()
        .to_string();
    player.put(&id, PNG).await;
    player.next().await; // media broadcast
    player
        .send(json!({"type": "avatar_set", "hash": hash}))
        .await;
    assert_eq!(player.next().await["code"], "avatar_no_character");
    player.input(".coc Alice").await;
    player.until_state().await;
    player
        .send(json!({"type": "avatar_set", "hash": hash, "character": "Someone else"}))
        .await;
    assert_eq!(player.next().await["code"], "forbidden");
    player
        .send(json!({"type": "avatar_set", "hash": hash}))
        .await;
    assert_eq!(
        player.next().await,
        json!({"type": "system", "level": "info", "text": "Avatar updated."})
    );
    let state = player.next().await;
    assert_eq!(state["character"]["avatar"]["hash"], hash.as_str());
    assert_eq!(state["party"][0]["avatar"]["name"], "me.png");
    table.shutdown().await;
}
