//! Frame shapes the capture does not exercise, and the tolerant-reader rules.

use protocol::codec::{decode_client, decode_media_reply, decode_server, encode_line, DecodeError};
use protocol::frame::*;
use protocol::{ClientFrame, ServerFrame};
use serde_json::{json, Value};

fn server(v: Value) -> ServerFrame {
    decode_server(&v.to_string()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

/// Decodes, checks the variant is known, and checks the re-encode is identical.
fn roundtrip(v: Value) -> ServerFrame {
    let frame = server(v.clone());
    assert!(!frame.is_unknown(), "{v}");
    let back: Value = serde_json::from_str(&encode_line(&frame)).unwrap();
    assert_eq!(back, v);
    frame
}

#[test]
fn unknown_type_is_a_value_not_an_error() {
    let v = json!({"type": "hologram", "beam": [1, 2], "x": {"y": null}});
    let frame = server(v.clone());
    match &frame {
        ServerFrame::Unknown { frame_type, raw } => {
            assert_eq!(frame_type, "hologram");
            assert_eq!(raw, &v);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(
        serde_json::from_str::<Value>(&encode_line(&frame)).unwrap(),
        v
    );
    let client = decode_client(r#"{"type":"teleport","to":"mars"}"#).unwrap();
    assert_eq!(client.tag(), "teleport");
    assert!(client.is_unknown());
}

#[test]
fn unknown_fields_are_ignored() {
    let frame = server(json!({"type": "pong", "t": 5, "future": true}));
    assert_eq!(frame, ServerFrame::Pong(Pong { t: 5.0 }));
}

#[test]
fn wrong_field_type_is_an_error_naming_the_frame_and_the_next_line_is_fine() {
    let err = decode_server(
        r#"{"type":"dice","actor":"A","kind":"roll","expr":"1d6","rolls":"six","total":6}"#,
    )
    .unwrap_err();
    match &err {
        DecodeError::BadFrame { frame_type, .. } => assert_eq!(frame_type, "dice"),
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("`dice`"), "{err}");
    assert!(matches!(
        decode_server(r#"{"type":"pong","t":1}"#),
        Ok(ServerFrame::Pong(_))
    ));
    // A missing required field is the same kind of error.
    assert!(matches!(
        decode_server(r#"{"type":"narrative","id":"x","speaker":"kp"}"#),
        Err(DecodeError::BadFrame { .. })
    ));
}

#[test]
fn not_json_not_object_and_missing_type_are_errors() {
    assert!(matches!(
        decode_server("{oops"),
        Err(DecodeError::NotJson(_))
    ));
    assert!(matches!(
        decode_server("[1,2]"),
        Err(DecodeError::NotObject)
    ));
    assert!(matches!(
        decode_server(r#"{"t":1}"#),
        Err(DecodeError::MissingType)
    ));
    assert!(matches!(
        decode_server(r#"{"type":7}"#),
        Err(DecodeError::MissingType)
    ));
    assert!(matches!(decode_client(""), Err(DecodeError::NotJson(_))));
    // A trailing CRLF is fine.
    assert!(decode_server("{\"type\":\"pong\",\"t\":1}\r\n").is_ok());
}

#[test]
fn error_codes_known_and_unknown() {
    let ServerFrame::Error(e) =
        roundtrip(json!({"type": "error", "code": "media_bad_svg", "message": "m"}))
    else {
        panic!()
    };
    assert_eq!(e.code, ErrorCode::MediaBadSvg);
    assert!(e.code.is_media() && !e.code.closes_connection());
    let ServerFrame::Error(e) =
        roundtrip(json!({"type": "error", "code": "quantum_flux", "message": "m"}))
    else {
        panic!()
    };
    assert_eq!(e.code, ErrorCode::Other("quantum_flux".into()));
    assert!(ErrorCode::BadKey.closes_connection());
    let ServerFrame::AdminError(e) =
        roundtrip(json!({"type": "admin_error", "code": "last_keeper"}))
    else {
        panic!()
    };
    assert_eq!(e.code, AdminErrorCode::LastKeeper);
    assert_eq!(
        AdminErrorCode::from_wire("nope"),
        AdminErrorCode::Other("nope".into())
    );
}

#[test]
fn turn_status_has_two_shapes() {
    let busy = roundtrip(
        json!({"type": "turn_status", "status": "busy", "actor": "A", "activity": "cast", "round": 2}),
    );
    assert_eq!(
        busy,
        ServerFrame::TurnStatus(TurnStatus::Busy {
            actor: "A".into(),
            activity: Some(Activity::Cast),
            round: Some(2)
        })
    );
    let idle = roundtrip(json!({"type": "turn_status", "status": "idle"}));
    assert_eq!(idle, ServerFrame::TurnStatus(TurnStatus::Idle));
}

#[test]
fn opposed_dice_detail_has_typed_accessors() {
    let ServerFrame::Dice(d) = roundtrip(json!({
        "type": "dice", "actor": "A", "kind": "opposed", "expr": "STR vs STR",
        "rolls": [12, 80], "total": 12,
        "detail": {
            "left": {"name": "A", "total": 12, "target": 50,
                     "outcome": {"id": "hard", "label": "Hard", "success": true, "critical": false, "fumble": false, "tier": 3}},
            "right": {"name": "B", "total": 80},
            "winner": "left", "note": "verbatim"
        }
    })) else {
        panic!()
    };
    assert_eq!(d.kind, DiceKind::Opposed);
    let left = d.opposed_left().unwrap();
    assert_eq!(
        (left.name.as_str(), left.total, left.target),
        ("A", 12.0, Some(50.0))
    );
    assert!(left.outcome.unwrap().success);
    assert_eq!(d.opposed_right().unwrap().outcome, None);
    assert_eq!(d.opposed_winner(), Some(Winner::Left));
    assert_eq!(
        d.detail_field::<String>("note").as_deref(),
        Some("verbatim")
    );
}

#[test]
fn every_ui_block_kind_and_the_unknown_fallback() {
    let blocks = json!([
        {"kind": "meter", "label": "HP", "value": 3, "min": 0, "max": 10},
        {"kind": "stat", "label": "Day", "value": 46},
        {"kind": "stat", "label": "Lit", "value": true},
        {"kind": "badge", "label": "Hunted", "tone": "danger"},
        {"kind": "text", "text": "hi", "style": "quote"},
        {"kind": "divider"},
        {"kind": "choices", "prompt": "Go?", "options": [{"id": "a", "label": "A", "input": "go a"}]},
        {"kind": "image", "hash": "h", "mime": "image/png", "size": 9, "caption": "c", "alt": "a"},
        {"kind": "letter", "body": "Dear", "from": "M", "to": "A", "date": "1925"},
        {"kind": "clipping", "headline": "H", "body": "B", "source": "S", "date": "D"},
        {"kind": "map_pin", "hash": "h", "label": "Here", "x": 0.25, "y": 0.5, "note": "n"},
        {"kind": "title_card", "title": "Act I", "subtitle": "s", "act": "1"},
        {"kind": "hologram", "beam": 1},
        {"kind": "meter", "label": "broken", "value": "high"}
    ]);
    let v = json!({"type": "ui", "blocks": blocks, "panel": "sidebar", "id": "r", "replace": true});
    let ServerFrame::Ui(ui) = roundtrip(v) else {
        panic!()
    };
    let tags: Vec<&str> = ui.blocks.iter().map(UiBlock::tag).collect();
    assert_eq!(
        tags,
        [
            "meter",
            "stat",
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
            "hologram",
            "meter"
        ]
    );
    assert!(ui.blocks[..12].iter().all(|b| !b.is_unknown()));
    // Unknown kinds and malformed known kinds are skipped by renderers, not fatal.
    assert!(ui.blocks[12].is_unknown() && ui.blocks[13].is_unknown());
    assert_eq!(ui.panel, UiPlacement::Sidebar);
    let UiBlock::MapPin(pin) = &ui.blocks[10] else {
        panic!()
    };
    assert_eq!((pin.x, pin.y), (0.25, 0.5));
}

#[test]
fn manifest_tiers_and_fallback_absent_null_blocks() {
    let tier1 = json!({"id": "p/a", "title": {"en": "Map", "zh": "地图"}, "slot": "sidebar", "tier": 1,
        "blocks": [{"kind": "stat", "label": "Day", "value": {"$var": "day"}, "visible_when": "day >= 46"}]});
    let tier2 = |fallback: Option<Value>| {
        let mut p = json!({"id": "p/b", "title": "Plain", "slot": "modal", "tier": 2,
            "entry": {"hash": "e", "size": 1}, "assets": [{"path": "app.js", "hash": "h", "size": 2, "mime": "text/javascript"}]});
        if let Some(f) = fallback {
            p["fallback"] = f;
        }
        p
    };
    let v = json!({"type": "ui_manifest", "panels": [
        tier1, tier2(None), tier2(Some(Value::Null)), tier2(Some(json!([{"kind": "divider"}])))
    ]});
    let ServerFrame::UiManifest(m) = roundtrip(v) else {
        panic!()
    };
    let p = &m.panels;
    assert_eq!(p[0].title.pick("zh-CN"), "地图");
    assert_eq!(p[0].title.pick("fr"), "Map");
    assert_eq!(p[1].title.pick("zh"), "Plain");
    assert_eq!(
        p[0].text_first_blocks().unwrap()[0]["visible_when"],
        "day >= 46"
    );
    assert_eq!(p[1].fallback, None);
    assert_eq!(p[2].fallback, Some(PanelFallback::RichClientOnly));
    assert_eq!(p[2].text_first_blocks(), None);
    assert_eq!(p[3].text_first_blocks().unwrap().len(), 1);
    assert_eq!(p[1].assets.as_ref().unwrap()[0].path, "app.js");
    assert_eq!(p[3].slot, PanelSlot::Modal);
}

#[test]
fn full_state_frame() {
    let ServerFrame::State(s) = roundtrip(json!({
        "type": "state",
        "character": {"name": "A", "system": "coc7", "resources": [{"id": "hp", "label": "HP", "value": 9}],
                      "attributes": {"STR": 50, "CON": 40}, "status_effects": ["bleeding"],
                      "avatar": {"hash": "h", "mime": "image/png", "size": 3}},
        "party": [{"name": "A", "online": true, "active": true, "initiative": 12}],
        "scene": {"name": "Library", "focus": "desk"}, "clock": {"time": "21:00", "round": 3},
        "initiative": [{"name": "A", "value": 12, "current": true}], "online": 1,
        "variables": [
            {"id": "day", "label": "Day", "kind": "number", "value": 46, "min": 0, "max": 90},
            {"id": "mvu.x.y", "label": "x.y", "kind": "text", "value": "s", "hidden": true},
            {"id": "lit", "label": "Lit", "kind": "bool", "value": false}
        ],
        "pregens": [{"name": "B", "claimed_by": ""}], "systems": [{"id": "wod"}], "reset": true
    })) else {
        panic!()
    };
    assert!(s.is_reset());
    let c = s.character.unwrap();
    assert_eq!(c.attributes.keys().collect::<Vec<_>>(), ["STR", "CON"]);
    assert_eq!(c.resources[0].max, None);
    let vars = s.variables.unwrap();
    assert_eq!(vars[0].value.as_f64(), Some(46.0));
    assert!(vars[1].is_hidden());
    assert_eq!(vars[2].value, Scalar::Bool(false));
}

#[test]
fn media_audio_and_remaining_frames_roundtrip() {
    let item = json!({"id": "a", "hash": "h", "mime": "audio/ogg", "size": 5, "name": "n.ogg", "from": "K",
        "ts": 1.5, "title": "T", "license": "CC0", "source": "s", "tags": ["rain"]});
    roundtrip(json!({"type": "media_accept", "upload_id": "", "existing": true, "audio": item}));
    let mut frame = item.clone();
    frame["type"] = json!("audio_library_item");
    roundtrip(frame);
    roundtrip(
        json!({"type": "audio_control", "id": "c", "action": "play", "layer": "bgm", "hash": "h",
        "mime": "audio/ogg", "name": "n", "title": "t", "loop": true, "volume": 0.8, "fade_ms": 500,
        "position_ms": 0, "server_ts": 17.25}),
    );
    roundtrip(
        json!({"type": "audio_state", "layers": [{"layer": "ambience", "playing": false, "volume": 1, "loop": false, "started_at": 3.5}]}),
    );
    roundtrip(json!({"type": "panel_event", "panel": "p/a", "payload": [1, {"a": null}]}));
    roundtrip(
        json!({"type": "pack_cards", "cards": [{"ref": "pack:x.png", "pack": "pack", "name": "x", "kind": "world"}]}),
    );
    roundtrip(json!({"type": "system", "level": "warn", "text": "t", "spinner": true}));
    roundtrip(
        json!({"type": "narrative", "id": "i", "speaker": "npc", "name": "Martha", "text": "", "format": "markdown"}),
    );
    roundtrip(
        json!({"type": "admin_room_op", "action": "reset", "room": "r", "keys": 2, "store_rows": 0,
        "vector_points": 0, "media_files": 1, "scope": "chars"}),
    );
    roundtrip(
        json!({"type": "admin_generated", "kind": "module", "ok": true, "id": "m", "name": "M", "error": "", "detail": "installed"}),
    );
    roundtrip(json!({"type": "admin_update", "status": "failed", "output": "tail"}));
    let ServerFrame::PackCards(cards) =
        server(json!({"type": "pack_cards", "cards": [{"ref": "r", "pack": "p", "name": "n"}]}))
    else {
        panic!()
    };
    assert_eq!(cards.cards[0].kind_or_default(), CardKind::Character);
}

#[test]
fn client_frames_encode_as_the_spec_writes_them() {
    let line = |f: &ClientFrame| serde_json::from_str::<Value>(&encode_line(f)).unwrap();
    assert_eq!(
        line(&ClientFrame::ListPackCards),
        json!({"type": "list_pack_cards"})
    );
    assert_eq!(
        line(&ClientFrame::AdminUpdateServer),
        json!({"type": "admin_update_server"})
    );
    assert_eq!(
        line(&ClientFrame::ping(2.0)),
        json!({"type": "ping", "t": 2})
    );
    assert_eq!(
        encode_line(&ClientFrame::input("hi")),
        "{\"type\":\"input\",\"text\":\"hi\"}\n"
    );
    let frames = [
        json!({"type": "join", "key": "k", "name": "N", "client": {"name": "studio", "version": "0.1.0"}}),
        json!({"type": "panel_intent", "panel": "p/a", "kind": "roll", "value": "1d6"}),
        json!({"type": "admin_set_model", "provider": "openai", "chat_model": "m", "api_key": "", "base_url": "u"}),
        json!({"type": "admin_set_imagegen", "provider": "p", "model": "m", "size": "512x512"}),
        json!({"type": "admin_update_key", "id": "i", "role": "keeper"}),
        json!({"type": "admin_delete_key", "id": "i"}),
        json!({"type": "admin_delete_room", "room": "r"}),
        json!({"type": "admin_export_room", "room": "r", "path": "/p"}),
        json!({"type": "admin_import_room", "path": "/p", "room": "r"}),
        json!({"type": "admin_delete_room_data", "room": "r", "backup": false}),
        json!({"type": "admin_reset_room", "room": "r", "scope": "all"}),
        json!({"type": "admin_enable_skill", "id": "s", "on": true, "locale": "zh"}),
        json!({"type": "admin_generate", "kind": "rule", "description": "d"}),
        json!({"type": "admin_get_config"}),
        json!({"type": "admin_list_rules"}),
    ];
    for v in frames {
        let f = decode_client(&v.to_string()).unwrap();
        assert!(!f.is_unknown(), "{v}");
        assert_eq!(line(&f), v);
    }
    // Admin `api_key: ""` (explicit clear) survives as Some("").
    let ClientFrame::AdminSetModel(m) =
        decode_client(r#"{"type":"admin_set_model","provider":"p","api_key":""}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(m.api_key.as_deref(), Some(""));
    assert_eq!(m.base_url, None);
}

#[test]
fn frames_embed_in_serde_types() {
    let f: ServerFrame = serde_json::from_value(json!({"type": "pong", "t": 1})).unwrap();
    assert_eq!(f, ServerFrame::Pong(Pong { t: 1.0 }));
    assert!(serde_json::from_value::<ServerFrame>(json!({"type": "pong"})).is_err());
}

#[test]
fn media_channel_headers() {
    let get = decode_media_reply(
        "{\"op\":\"get\",\"hash\":\"h\",\"size\":3,\"mime\":\"image/png\",\"name\":\"n\"}\n",
    )
    .unwrap();
    assert_eq!(
        get,
        MediaReply::Get(MediaGetHeader {
            hash: "h".into(),
            size: 3,
            mime: "image/png".into(),
            name: "n".into()
        })
    );
    let err =
        decode_media_reply(r#"{"type":"error","code":"media_not_found","message":"m"}"#).unwrap();
    assert!(matches!(
        err,
        MediaReply::Error(ErrorFrame {
            code: ErrorCode::MediaNotFound,
            ..
        })
    ));
    assert!(matches!(
        decode_media_reply(r#"{"op":"warp"}"#),
        Err(DecodeError::BadMediaHeader)
    ));
    assert_eq!(
        encode_line(&MediaRequest::Get { hash: "h".into() }),
        "{\"op\":\"get\",\"hash\":\"h\"}\n"
    );
    assert_eq!(
        encode_line(&MediaRequest::Put {
            upload_id: "u".into()
        }),
        "{\"op\":\"put\",\"upload_id\":\"u\"}\n"
    );
}
