//! The bench waits for the engine's answers before it goes on.

use super::*;
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn the_player_waits_for_the_answer_to_panels_enable() {
    let (tx, mut rx) = mpsc::channel(8);
    tx.send("World card bench-pack/world imported".into())
        .await
        .unwrap();
    tx.send("Enabled UI panels from pack: bench-pack-two".into())
        .await
        .unwrap();
    tx.send("Enabled UI panels from pack: bench-pack".into())
        .await
        .unwrap();
    tx.send("later".into()).await.unwrap();
    panels_enabled(&mut rx, "bench-pack", WAIT).await.unwrap();
    // Only the answer naming this pack was taken: what came after it is still there.
    assert_eq!(rx.recv().await.as_deref(), Some("later"));
}

#[tokio::test]
async fn a_pack_without_panels_is_answered_too() {
    let (tx, mut rx) = mpsc::channel(8);
    tx.send("No installed pack with UI panels named: bench-pack".into())
        .await
        .unwrap();
    panels_enabled(&mut rx, "bench-pack", WAIT).await.unwrap();
}

#[tokio::test]
async fn no_answer_is_an_error_not_a_wait_forever() {
    let (tx, mut rx) = mpsc::channel::<String>(8);
    tx.send("Dev mount live: bench-pack".into()).await.unwrap();
    let short = Duration::from_millis(50);
    let err = panels_enabled(&mut rx, "bench-pack", short)
        .await
        .unwrap_err();
    assert!(err.contains("did not answer .panels enable"), "{err}");
    drop(tx);
}

#[tokio::test]
async fn a_closed_connection_is_an_error() {
    let (tx, mut rx) = mpsc::channel::<String>(8);
    drop(tx);
    let err = panels_enabled(&mut rx, "bench-pack", WAIT)
        .await
        .unwrap_err();
    assert!(err.contains("closed"), "{err}");
}

#[tokio::test]
async fn mount_answers_still_read() {
    let (tx, mut rx) = mpsc::channel(8);
    tx.send("Dev mount live: /packs/bench-pack\nmore".into())
        .await
        .unwrap();
    assert_eq!(
        mounted(&mut rx).await.unwrap(),
        "Dev mount live: /packs/bench-pack"
    );
    tx.send("That directory has no pack.yaml".into())
        .await
        .unwrap();
    assert!(mounted(&mut rx).await.is_err());
}
