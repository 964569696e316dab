//! Every type that carries a secret prints without it: invite and room keys, provider API keys,
//! a freshly minted key, the demo's keys and a table's key source. Each is formatted with
//! `{:?}` (and `{:#?}`) and searched for the secret. No window needed.

use std::collections::BTreeMap;

use local_table::admin::{AdminState, Credential};
use local_table::{DemoKeys, KeyEntry, KeySource};
use protocol::ClientFrame;
use transport::JoinParams;

const SECRET: &str = "sk-SECRET-never-printed-4242";

fn assert_hidden(what: &str, debug: String, pretty: String) {
    for text in [debug, pretty] {
        assert!(!text.contains(SECRET), "{what} printed its secret: {text}");
        // Not even the masked tail some screens show.
        assert!(
            !text.contains("4242"),
            "{what} printed part of its secret: {text}"
        );
    }
}

macro_rules! hidden {
    ($what:expr, $value:expr) => {{
        let v = $value;
        assert_hidden($what, format!("{v:?}"), format!("{v:#?}"));
    }};
}

#[test]
fn no_secret_bearing_type_prints_its_secret() {
    let _scenario = studio_e2e::scenario();
    let entry = KeyEntry {
        room: "r".into(),
        name: "Ann".into(),
        role: "player".into(),
    };
    hidden!(
        "JoinParams",
        JoinParams {
            key: SECRET.into(),
            name: Some("Ann".into()),
            client_version: "0.1.0".into(),
        }
    );
    let credential = Credential {
        api_key: SECRET.into(),
        base_url: "http://127.0.0.1:1".into(),
    };
    hidden!("Credential", credential.clone());
    hidden!(
        "AdminState",
        AdminState {
            current: credential.clone(),
            book: BTreeMap::from([("openai".to_string(), credential.clone())]),
            image: credential.clone(),
            ..AdminState::default()
        }
    );
    hidden!(
        "DemoKeys",
        DemoKeys {
            room: "demo".into(),
            keeper: SECRET.into(),
            player: SECRET.into(),
        }
    );
    hidden!(
        "KeySource",
        KeySource::Memory(vec![(SECRET.into(), entry.clone())])
    );
    let mut config =
        local_table::TableConfig::new(KeySource::Memory(vec![(SECRET.into(), entry)]), "/tmp/x");
    config.secret_key = Some(iroh::SecretKey::from_bytes(&[0x42; 32]));
    let shown = format!("{config:?}");
    assert!(!shown.contains(SECRET), "{shown}");
    assert!(
        !shown.contains(&"42".repeat(32)),
        "the endpoint's secret key printed: {shown}"
    );
    // Frames that carry secrets, decoded from the wire as Studio would see them.
    for frame in [
        serde_json::json!({"type":"join","key":SECRET}),
        serde_json::json!({"type":"admin_set_model","provider":"openai","api_key":SECRET}),
        serde_json::json!({"type":"admin_set_imagegen","provider":"openai","model":"m","api_key":SECRET}),
        serde_json::json!({"type":"admin_list_models","api_key":SECRET}),
    ] {
        let f: ClientFrame = serde_json::from_value(frame).unwrap();
        hidden!("a client frame", f);
    }
    let minted: protocol::ServerFrame = protocol::codec::decode_server(
        &serde_json::json!({"type":"admin_keys","keys":[],
            "minted":{"key":SECRET,"room":"r","name":"Ann","role":"player"}})
        .to_string(),
    )
    .unwrap();
    hidden!("admin_keys with a minted key", minted);
}
