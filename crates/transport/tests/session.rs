//! The control stream against a loopback test peer: join, refusals, pings, reconnects.

mod support;

use protocol::{ClientFrame, ServerFrame};
use support::*;
use transport::testpeer::{PeerConfig, PeerState, TestPeer};
use transport::{ConnectionStatus, SessionEvent, TransportError};

#[tokio::test]
async fn join_gets_welcome_echo_and_latency() {
    let peer = peer(PeerConfig::default()).await;
    let (handle, mut events) = dial(&peer.ticket(), "good-key").await.unwrap();
    let welcome = wait_for(&mut events, "welcome", |e| {
        matches!(e, SessionEvent::Frame(ServerFrame::Welcome(_), _))
    })
    .await;
    let SessionEvent::Frame(ServerFrame::Welcome(w), _) = welcome else {
        unreachable!()
    };
    assert_eq!(w.you.name, "Alice");
    // The first ping goes out at once; its pong sets the latency.
    wait_for(&mut events, "latency", |e| {
        is_status(e, |s| {
            matches!(
                s,
                ConnectionStatus::Online {
                    latency_ms: Some(_)
                }
            )
        })
    })
    .await;
    handle
        .send(ClientFrame::input("hello table"))
        .await
        .unwrap();
    wait_for(
        &mut events,
        "echo",
        |e| matches!(e, SessionEvent::Frame(ServerFrame::Narrative(n), _) if n.text == "hello table"),
    )
    .await;
    handle.close();
    wait_for(&mut events, "closed", |e| {
        is_status(e, |s| matches!(s, ConnectionStatus::Closed { .. }))
    })
    .await;
    assert!(matches!(
        handle.send(ClientFrame::input("late")).await,
        Err(TransportError::SessionEnded)
    ));
}

#[tokio::test]
async fn bad_key_is_a_clear_error_without_retry() {
    let peer = peer(PeerConfig::default()).await;
    let err = dial(&peer.ticket(), "wrong-key")
        .await
        .err()
        .expect("bad key fails");
    assert!(matches!(err, TransportError::BadKey { .. }), "{err:?}");
    assert!(err.to_string().contains("rejected the key"), "{err}");
    assert!(
        !err.to_string().contains("wrong-key"),
        "the key is a secret: {err}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        peer.state.joins.load(std::sync::atomic::Ordering::SeqCst),
        1
    );
}

#[tokio::test]
async fn a_different_major_is_refused_naming_both_versions() {
    let peer = peer(PeerConfig {
        protocol: "3.0".into(),
        ..Default::default()
    })
    .await;
    let err = dial(&peer.ticket(), "good-key")
        .await
        .err()
        .expect("3.0 is refused");
    assert_eq!(
        err.to_string(),
        "this table speaks protocol 3.0; Studio speaks 2.3 — update whichever is behind"
    );
}

#[tokio::test]
async fn an_unreadable_banner_and_a_newer_minor_are_accepted() {
    for banner in ["abc", "2.9"] {
        let peer = peer(PeerConfig {
            protocol: banner.into(),
            ..Default::default()
        })
        .await;
        let (handle, _events) = dial(&peer.ticket(), "good-key").await.expect(banner);
        assert!(matches!(handle.status(), ConnectionStatus::Online { .. }));
        handle.close();
    }
}

#[tokio::test]
async fn outbound_frames_are_validated_before_sending() {
    let peer = peer(PeerConfig::default()).await;
    let (handle, _events) = dial(&peer.ticket(), "good-key").await.unwrap();
    let err = handle
        .send(ClientFrame::input("x".repeat(4001)))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("at most 4000"), "{err}");
    handle
        .send(ClientFrame::input("é".repeat(4000)))
        .await
        .unwrap();
    let intent: ClientFrame = serde_json::from_value(serde_json::json!(
        {"type": "panel_intent", "panel": "p/x", "kind": "input", "value": "v".repeat(2001)}
    ))
    .unwrap();
    let err = handle.send(intent).await.unwrap_err();
    assert!(err.to_string().contains("at most 2000"), "{err}");
}

#[tokio::test]
async fn a_line_over_one_mib_is_skipped_and_the_stream_goes_on() {
    let big = format!(
        "{{\"type\":\"system\",\"level\":\"info\",\"text\":\"{}\"}}",
        "x".repeat(3 << 20)
    );
    let after = r#"{"type": "system", "level": "info", "text": "after"}"#.to_string();
    let peer = peer(PeerConfig {
        after_welcome: vec![big, after],
        ..Default::default()
    })
    .await;
    let (_handle, mut events) = dial(&peer.ticket(), "good-key").await.unwrap();
    let skipped = wait_for(&mut events, "oversize", |e| {
        matches!(e, SessionEvent::Oversize { .. })
    })
    .await;
    assert!(matches!(skipped, SessionEvent::Oversize { discarded } if discarded > 3 << 20));
    wait_for(
        &mut events,
        "the next frame",
        |e| matches!(e, SessionEvent::Frame(ServerFrame::System(s), _) if s.text == "after"),
    )
    .await;
}

#[tokio::test]
async fn a_table_that_floods_before_welcome_is_cut_off() {
    let line = r#"{"type": "system", "level": "info", "text": "noise"}"#.to_string();
    // A few frames before the welcome are tolerated (and kept)…
    let few = peer(PeerConfig {
        before_welcome: vec![line.clone(); 3],
        ..Default::default()
    })
    .await;
    let (_h, mut events) = dial(&few.ticket(), "good-key").await.unwrap();
    wait_for(&mut events, "welcome", |e| {
        matches!(e, SessionEvent::Frame(ServerFrame::Welcome(_), _))
    })
    .await;
    // …a flood of frames is not…
    let many = peer(PeerConfig {
        before_welcome: vec![line; 5000],
        ..Default::default()
    })
    .await;
    let err = dial(&many.ticket(), "good-key")
        .await
        .err()
        .expect("cut off");
    assert!(
        matches!(err, TransportError::FloodBeforeWelcome { frames: 17, .. }),
        "{err:?}"
    );
    // …and neither is one endless line (counted in bytes, not frames).
    let endless = peer(PeerConfig {
        before_welcome: vec!["x".repeat(4 << 20)],
        ..Default::default()
    })
    .await;
    let err = dial(&endless.ticket(), "good-key")
        .await
        .err()
        .expect("cut off");
    assert!(
        matches!(err, TransportError::FloodBeforeWelcome { frames, bytes, .. } if frames <= 1 && bytes > 256 * 1024),
        "{err:?}"
    );
}

#[tokio::test]
async fn the_join_timeout_says_the_engine_sends_nothing() {
    let peer = peer(PeerConfig {
        silent_join: true,
        ..Default::default()
    })
    .await;
    let err = dial(&peer.ticket(), "good-key")
        .await
        .err()
        .expect("times out");
    assert!(
        matches!(err, TransportError::JoinTimeout { secs: 15 }),
        "{err:?}"
    );
    assert!(err.to_string().contains("sends nothing"), "{err}");
}

#[tokio::test]
async fn reconnects_after_the_peer_restarts_and_refuses_a_new_major() {
    let state = std::sync::Arc::new(PeerState::default());
    let config = PeerConfig::default();
    let first = TestPeer::start(config.clone(), state.clone())
        .await
        .unwrap();
    let (ticket, port) = (first.ticket(), first.port());
    let (handle, mut events) = dial(&ticket, "good-key").await.unwrap();
    wait_for(&mut events, "welcome", |e| {
        matches!(e, SessionEvent::Frame(ServerFrame::Welcome(_), _))
    })
    .await;

    first.shutdown().await;
    wait_for(&mut events, "reconnecting", |e| {
        is_status(e, |s| matches!(s, ConnectionStatus::Reconnecting { .. }))
    })
    .await;
    assert!(matches!(
        handle.send(ClientFrame::input("x")).await,
        Err(TransportError::Offline)
    ));
    assert!(handle.media().is_none());

    // Same identity, same port: the old ticket still names it.
    let second = TestPeer::start(
        PeerConfig {
            port,
            ..config.clone()
        },
        state.clone(),
    )
    .await
    .unwrap();
    assert_eq!(second.ticket(), ticket);
    wait_for(&mut events, "second welcome", |e| {
        matches!(e, SessionEvent::Frame(ServerFrame::Welcome(_), _))
    })
    .await;
    assert!(state.joins.load(std::sync::atomic::Ordering::SeqCst) >= 2);
    handle.send(ClientFrame::input("back")).await.unwrap();
    wait_for(
        &mut events,
        "echo",
        |e| matches!(e, SessionEvent::Frame(ServerFrame::Narrative(n), _) if n.text == "back"),
    )
    .await;

    second.shutdown().await;
    let third = TestPeer::start(
        PeerConfig {
            port,
            protocol: "3.0".into(),
            ..config
        },
        state,
    )
    .await
    .unwrap();
    let refused = wait_for(&mut events, "refusal", |e| {
        is_status(e, |s| matches!(s, ConnectionStatus::Refused { .. }))
    })
    .await;
    let SessionEvent::Status(ConnectionStatus::Refused { reason }) = refused else {
        unreachable!()
    };
    assert!(reason.contains("3.0") && reason.contains("2.3"), "{reason}");
    third.shutdown().await;
}

#[tokio::test]
async fn a_table_that_closes_without_a_word_did_not_admit_the_key() {
    // The join: closed before any answer is named for what it most likely is.
    let silent = PeerConfig {
        silent_bad_key: true,
        ..PeerConfig::default()
    };
    let peer = peer(silent.clone()).await;
    let err = dial(&peer.ticket(), "revoked-key")
        .await
        .err()
        .expect("not admitted");
    assert!(matches!(err, TransportError::NotAdmitted), "{err:?}");
    assert!(
        err.to_string().contains("did not admit this invite key"),
        "{err}"
    );

    // Mid-session: the key is revoked, the table restarts and now closes on it. A few silent
    // closes in a row end the session (Refused), instead of reconnecting forever.
    let state = std::sync::Arc::new(PeerState::default());
    // Same identity before and after (the ticket names it).
    let admitting = PeerConfig {
        silent_bad_key: false,
        ..silent.clone()
    };
    let first = TestPeer::start(admitting, state.clone()).await.unwrap();
    let (ticket, port) = (first.ticket(), first.port());
    let (_handle, mut events) = dial(&ticket, "good-key").await.unwrap();
    wait_for(&mut events, "welcome", |e| {
        matches!(e, SessionEvent::Frame(ServerFrame::Welcome(_), _))
    })
    .await;
    first.shutdown().await;
    let revoked = TestPeer::start(
        PeerConfig {
            port,
            keys: Default::default(),
            ..silent
        },
        state.clone(),
    )
    .await
    .unwrap();
    let refused = wait_for(&mut events, "refusal", |e| {
        is_status(e, |s| matches!(s, ConnectionStatus::Refused { .. }))
    })
    .await;
    let SessionEvent::Status(ConnectionStatus::Refused { reason }) = refused else {
        unreachable!()
    };
    assert!(reason.contains("did not admit"), "{reason}");
    // The first join, then at least NOT_ADMITTED_LIMIT (3) silent closes.
    assert!(state.joins.load(std::sync::atomic::Ordering::SeqCst) > 3);
    revoked.shutdown().await;
}
