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
fn a_batch_carries_frames_as_sent_and_events_in_order() {
    let mut sent = PumpBatch::default();
    sent.frame(r#"{"type":"pong","t":5}"#);
    sent.event(&PumpEvent::Status(Status::Reconnecting {
        attempt: 2,
        in_ms: 500,
    }));
    // Whitespace newlines inside a frame's JSON do not cut it in two.
    sent.frame("{\"type\":\"pong\",\n\"t\":6}");
    // An event whose text holds a newline and a leading `!` stays one event.
    sent.event(&PumpEvent::DecodeError("!line one\nline two".into()));
    // Through the channel: a JSON string both ways.
    let text: String = serde_json::from_str(&serde_json::to_string(&sent).unwrap()).unwrap();
    let read: Vec<PumpItem> = PumpBatch::items(&text).collect();
    assert_eq!(
        read,
        vec![
            PumpItem::Frame(serde_json::json!({"type": "pong", "t": 5})),
            PumpItem::Event(PumpEvent::Status(Status::Reconnecting {
                attempt: 2,
                in_ms: 500
            })),
            PumpItem::Frame(serde_json::json!({"type": "pong", "t": 6})),
            PumpItem::Event(PumpEvent::DecodeError("!line one\nline two".into())),
        ]
    );
}

#[test]
fn an_unreadable_item_is_said_and_the_rest_read() {
    let read: Vec<PumpItem> =
        PumpBatch::items("{\"type\":\"pong\",\"t\":1}\n!{\"nope\":1}\nnot json\n").collect();
    assert!(matches!(read[0], PumpItem::Frame(_)));
    assert!(matches!(&read[1], PumpItem::Unreadable(why) if why.contains("event")));
    assert!(matches!(&read[2], PumpItem::Unreadable(why) if why.contains("frame")));
    assert_eq!(read.len(), 3);
}

#[test]
fn a_frame_the_codec_reads_reads_in_the_window_whatever_whitespace_wraps_it() {
    let line = "\u{a0}{\"type\":\"narrative\",\"id\":\"n1\",\"speaker\":\"system\",\"text\":\"BGM\",\"format\":\"plain\"}\u{b}\u{c}";
    let frame = protocol::codec::decode_server(line).expect("the codec reads it");
    let mut batch = PumpBatch::default();
    batch.frame(line);
    let items: Vec<PumpItem> = PumpBatch::items(batch.as_str()).collect();
    match items.as_slice() {
        [PumpItem::Frame(v)] => assert_eq!(
            protocol::codec::decode_server_value(v.clone()).expect("the window decodes it"),
            frame
        ),
        other => panic!("the window read {other:?}"),
    }
}

#[test]
fn a_bench_report_older_than_the_one_kept_does_not_replace_it() {
    let report = |seq: u64| PackBenchStatus {
        dir: "pack".into(),
        viewer: "keeper".into(),
        problems: vec![],
        warnings: vec![],
        panels: vec![],
        reloads: 0,
        engine: None,
        beside: None,
        seq,
    };
    let seq = |s: Option<PackBenchStatus>| s.map(|s| s.seq);
    // The channel's newer report came first; the join's answer, older, comes after it.
    assert_eq!(
        seq(PackBenchStatus::newest(Some(report(5)), Some(report(4)))),
        Some(5)
    );
    assert_eq!(
        seq(PackBenchStatus::newest(Some(report(4)), Some(report(5)))),
        Some(5)
    );
    assert_eq!(seq(PackBenchStatus::newest(None, Some(report(1)))), Some(1));
    assert_eq!(seq(PackBenchStatus::newest(Some(report(1)), None)), Some(1));
}
