//! "Play the demo table": the table starts in-process and Studio's real transport joins it.

use std::time::Duration;

use protocol::ServerFrame;
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_table_joins_in_process_and_replays() {
    let dir = std::env::temp_dir().join(format!("studio-demo-join-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut config, keys) = local_table::table::demo_config(dir.clone()).expect("demo config");
    config.pacing = local_table::Pacing::fast();
    let table = local_table::LocalTable::start(config)
        .await
        .expect("table starts");
    let endpoint = bind(NetworkMode::LocalOnly).await.expect("endpoint");
    let params = JoinParams {
        key: keys.keeper.clone(),
        name: None,
        client_version: "test".into(),
    };
    let (handle, mut events) = tokio::time::timeout(
        Duration::from_secs(20),
        Session::connect(endpoint, table.endpoint_ticket(), params),
    )
    .await
    .expect("join within 20 s")
    .expect("joined");
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while let Ok(Some(event)) = tokio::time::timeout_at(deadline, events.recv()).await {
        if let SessionEvent::Frame(f, _) = event {
            let manifest = matches!(f, ServerFrame::UiManifest(_));
            seen.push(f.tag().to_string());
            if manifest {
                break;
            }
        }
    }
    assert!(seen.contains(&"welcome".to_string()), "{seen:?}");
    assert!(seen.contains(&"state".to_string()), "{seen:?}");
    assert!(seen.contains(&"ui_manifest".to_string()), "{seen:?}");
    handle.close();
    table.shutdown().await;
}
