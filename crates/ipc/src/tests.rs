use super::*;

#[test]
fn command_names_are_unique_and_snake_case() {
    let mut names: Vec<&str> = cmd::ALL.to_vec();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "a command name is declared twice");
    for n in cmd::ALL {
        assert!(
            n.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{n} is not snake_case (Tauri registers the function's name)"
        );
    }
}

#[test]
fn the_payload_is_args_and_the_channel() {
    let join = cmd::JoinTable {
        ticket: "t".into(),
        key: "k".into(),
        name: None,
        remember: Some(false),
    };
    let p = payload(
        &join,
        Some((<cmd::JoinTable as Streams>::CHANNEL, "__CHANNEL__:7")),
    )
    .unwrap();
    assert_eq!(
        p,
        serde_json::json!({
            "args": {"ticket": "t", "key": "k", "name": null, "remember": false},
            "onEvent": "__CHANNEL__:7",
        })
    );
    let none = payload(&cmd::LeaveTable {}, None).unwrap();
    assert_eq!(none, serde_json::json!({"args": {}}));
}

#[test]
fn a_batch_the_backend_sends_is_read_by_the_ui_frame_as_json() {
    let frame: protocol::ServerFrame =
        serde_json::from_str(r#"{"type":"pong","t":5}"#).expect("a pong decodes");
    let sent: PumpBatch = vec![
        PumpEvent::Frame(frame),
        PumpEvent::Status(Status::Reconnecting {
            attempt: 2,
            in_ms: 500,
        }),
    ];
    let text = serde_json::to_string(&sent).unwrap();
    let read: PumpBatch<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(
        read[0],
        PumpEvent::Frame(serde_json::json!({"type": "pong", "t": 5}))
    );
    assert_eq!(
        read[1],
        PumpEvent::Status(Status::Reconnecting {
            attempt: 2,
            in_ms: 500
        })
    );
}
