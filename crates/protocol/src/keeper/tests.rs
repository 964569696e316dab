use serde_json::{json, Value};

use super::*;

fn server(v: Value) -> ServerFrame {
    crate::codec::decode_server_value(v).expect("a server frame")
}

fn client(v: Value) -> ClientFrame {
    serde_json::from_value(v).expect("a client frame")
}

/// Replays the keeper connection of the real engine's admin capture through the console,
/// checking what each screen would show at the moments that matter.
#[test]
fn engine_admin_capture_as_the_keeper_saw_it() {
    let text = test_support::read_shared("conformance/engine-admin-2.3.jsonl");
    let mut c = KeeperConsole::default();
    let mut now = 0.0;
    let mut seen_reveal = false;
    let mut seen_last_keeper = false;
    let mut seen_generate_failure = false;
    let mut seen_update_failure = false;
    let mut seen_export_path = false;
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).expect("a capture line");
        if record["conn"] != "keeper" {
            continue;
        }
        now += 100.0;
        if let Some(sent) = record.get("sent") {
            if sent["type"] == "join" || sent["type"] == "ping" {
                continue;
            }
            c.request(&client(sent.clone()), now);
            continue;
        }
        let Some(frame) = record.get("frame") else {
            continue;
        };
        c.apply(&server(frame.clone()));
        if let Some(r) = c.reveal() {
            assert_eq!(r.name, "Bob");
            assert!(!r.key.expose().is_empty());
            assert!(
                !format!("{c:?}").contains(r.key.expose()),
                "Debug shows the key"
            );
            seen_reveal = true;
        }
        if let Some(Failure::Refused { code, .. }) =
            c.failure(&Control::KeyEdit("268ba5f5aaccf694".into()))
        {
            assert_eq!(*code, AdminErrorCode::LastKeeper);
            seen_last_keeper = true;
        }
        if let Some(Failure::GenerateFailed { error }) = c.failure(&Control::Generate) {
            assert!(error.starts_with("llm_failed"), "{error}");
            seen_generate_failure = true;
        }
        if let Some(Failure::UpdateFailed { output }) = c.failure(&Control::Update) {
            assert!(output.contains("not a git repository"));
            seen_update_failure = true;
        }
        if let Some(op) = &c.room_op {
            if op.action == RoomOpAction::Export {
                assert!(op.path.as_deref().unwrap_or("").contains("room_backups"));
                seen_export_path = true;
            }
        }
    }
    assert!(seen_reveal && seen_last_keeper && seen_generate_failure);
    assert!(seen_update_failure && seen_export_path);
    // The model key is masked, the catalog is the engine's 18 providers.
    let config = c.config.as_ref().expect("a config");
    assert_eq!(config.api_key_masked, "sk-c...real");
    assert_eq!(config.providers.len(), 18);
    assert_eq!(c.skills.as_ref().map(|s| s.is_empty()), Some(false));
    assert_eq!(c.rules.as_ref().map(|r| r.len()), Some(3));
    // After the room's data is deleted, the next admin request is refused as plain `error`.
    assert!(c.room_gone);
    assert!(matches!(
        c.failure(&Control::Keys),
        Some(Failure::Error {
            code: ErrorCode::Forbidden,
            ..
        })
    ));
    assert!(!c.any_pending(), "every request was answered");
}

#[test]
fn an_admin_error_settles_the_oldest_request_but_a_slow_generate_last() {
    let mut c = KeeperConsole::default();
    c.request(
        &client(json!({"type":"admin_generate","kind":"skill","description":"d"})),
        0.0,
    );
    c.request(&client(json!({"type":"admin_delete_key","id":"k1"})), 1.0);
    c.apply(&server(json!({"type":"admin_error","code":"last_keeper"})));
    assert!(matches!(
        c.failure(&Control::KeyDelete("k1".into())),
        Some(Failure::Refused {
            code: AdminErrorCode::LastKeeper,
            ..
        })
    ));
    assert!(c.is_pending(&Control::Generate) && c.failure(&Control::Generate).is_none());
}

#[test]
fn a_reply_settles_the_request_it_answers_not_another() {
    let mut c = KeeperConsole::default();
    c.request(&client(json!({"type":"admin_list_rules"})), 0.0);
    c.request(&client(json!({"type":"admin_list_keys"})), 0.0);
    c.apply(&server(json!({"type":"admin_keys","keys":[]})));
    assert!(!c.is_pending(&Control::Keys) && c.is_pending(&Control::Rules));
    assert_eq!(c.keys, Some(vec![]));
}

#[test]
fn requests_time_out_per_control() {
    let mut c = KeeperConsole::default();
    c.request(&client(json!({"type":"admin_list_keys"})), 0.0);
    c.request(
        &client(json!({"type":"admin_generate","kind":"rule","description":"d"})),
        0.0,
    );
    assert!(!c.tick(19_000.0));
    assert!(c.tick(20_000.0));
    assert_eq!(
        c.failure(&Control::Keys),
        Some(&Failure::TimedOut { after_s: 20 })
    );
    assert!(c.is_pending(&Control::Generate));
}

#[test]
fn the_reveal_is_gone_once_closed_and_a_new_mint_replaces_it() {
    let mut c = KeeperConsole::default();
    let minted = json!({"type":"admin_keys","keys":[],"minted":
        {"key":"lw-secret-1","room":"r","name":"Ann","role":"player","purpose":"join","expires_at":null}});
    c.request(&client(json!({"type":"admin_mint_key","name":"Ann"})), 0.0);
    c.apply(&server(minted));
    assert_eq!(c.reveal().map(|r| r.key.expose()), Some("lw-secret-1"));
    c.close_reveal();
    assert!(c.reveal().is_none());
    assert!(!format!("{c:?}").contains("lw-secret-1"));
    // A later roster refresh (no `minted`) does not bring it back.
    c.apply(&server(json!({"type":"admin_keys","keys":[]})));
    assert!(c.reveal().is_none());
}

#[test]
fn a_plain_error_with_nothing_in_flight_is_not_the_consoles() {
    let mut c = KeeperConsole::default();
    let e = json!({"type":"error","code":"forbidden","message":"no"});
    assert!(!c.apply(&server(e.clone())));
    assert!(!c.room_gone);
    c.request(&client(json!({"type":"admin_list_keys"})), 0.0);
    assert!(c.apply(&server(e)));
    assert!(c.room_gone);
}

#[test]
fn update_restarting_expects_a_reconnect() {
    let mut c = KeeperConsole::default();
    c.request(&client(json!({"type":"admin_update_server"})), 0.0);
    c.apply(&server(
        json!({"type":"admin_update","status":"restarting"}),
    ));
    assert!(c.expect_reconnect && c.failure(&Control::Update).is_none());
}

#[test]
fn frames_with_secrets_never_print_them() {
    let frames = [
        json!({"type":"admin_set_model","provider":"openai","api_key":"sk-very-secret"}),
        json!({"type":"admin_set_imagegen","provider":"openai","model":"m","api_key":"sk-very-secret"}),
        json!({"type":"admin_list_models","provider":"openai","api_key":"sk-very-secret"}),
        json!({"type":"join","key":"sk-very-secret"}),
    ];
    for f in frames {
        let printed = format!("{:?}", client(f));
        assert!(!printed.contains("very-secret"), "{printed}");
        assert!(
            printed.contains("openai") || printed.contains("Join"),
            "{printed}"
        );
    }
    let minted = server(json!({"type":"admin_keys","keys":[],"minted":
        {"key":"sk-very-secret","room":"r","name":"Ann","role":"player"}}));
    let printed = format!("{minted:?}");
    assert!(
        !printed.contains("very-secret") && printed.contains("Ann"),
        "{printed}"
    );
}
