//! Against the real engine (#23.2): a keeper deletes a player's key while the player's window is
//! at the table. The engine keeps that connection open and answers its next event with an
//! unasked `forbidden`; Studio checks the key by a fresh join, which the engine refuses, and
//! returns the player to the connect screen saying the key was revoked, and the saved table
//! says the key no longer works.

use std::time::{Duration, Instant};

use protocol::frame::Input;
use protocol::{ClientFrame, ServerFrame};
use studio_e2e::engine::EngineTable;
use studio_e2e::peers::{fresh_dir, runtime};
use studio_e2e::play::{join, wait_online, wait_problem};
use studio_e2e::{open_studio_with, out_dir, wait_for};
use transport::endpoint::{bind, NetworkMode};
use transport::session::{JoinParams, Session, SessionEvent};
use transport::ticket::parse_ticket;

#[test]
fn a_key_deleted_mid_session_returns_the_player_to_the_connect_screen() {
    let _scenario = studio_e2e::scenario();
    let name = "engine-revoked";
    let dir = fresh_dir(name);
    let engine = EngineTable::start(dir.join("engine"));
    let s = open_studio_with(&[
        ("STUDIO_NETWORK", "local"),
        ("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap()),
    ]);
    join(&s, engine.ticket(), &engine.player_key);
    wait_online(&s, Duration::from_secs(30));

    // The keeper, as the engine's own admin surface sees it: a second connection of the test's.
    let rt = runtime();
    let (keeper, mut events) = rt.block_on(async {
        let endpoint = bind(NetworkMode::LocalOnly)
            .await
            .expect("a loopback endpoint");
        let params = JoinParams {
            key: engine.keeper_key.clone(),
            name: Some("Keeper".into()),
            client_version: "e2e".into(),
        };
        Session::connect(endpoint, parse_ticket(engine.ticket()).unwrap(), params)
            .await
            .expect("the keeper joins")
    });
    let delete = serde_json::json!({"type": "admin_delete_key", "id": EngineTable::key_id(&engine.player_key)});
    rt.block_on(keeper.send(protocol::codec::decode_client(&delete.to_string()).unwrap()))
        .expect("sent the delete");
    // The engine lists the keys left: the player's is gone.
    rt.block_on(async {
        let end = Instant::now() + Duration::from_secs(15);
        while Instant::now() < end {
            if let Ok(Some(SessionEvent::Frame(ServerFrame::AdminKeys(k), _))) =
                tokio::time::timeout(Duration::from_secs(1), events.recv()).await
            {
                let listed = serde_json::to_string(&k).unwrap();
                assert!(
                    !listed.contains(&EngineTable::key_id(&engine.player_key)),
                    "{listed}"
                );
                return;
            }
        }
        panic!("no admin_keys after the delete:\n{}", engine.log());
    });
    // The keeper acts, so the engine has an event to deliver to the player.
    let acted = Instant::now();
    rt.block_on(keeper.send(ClientFrame::Input(Input {
        text: ".r 1d6".into(),
    })))
    .expect("the keeper rolls");

    let problem = wait_problem(&s, Duration::from_secs(15));
    eprintln!(
        "back at the connect screen {} ms after the keeper acted",
        acted.elapsed().as_millis()
    );
    s.screenshot(&out_dir().join(format!("{name}.png")));
    assert!(
        problem.contains("the keeper revoked this invite key"),
        "{problem}"
    );
    assert!(s.find("#room").is_none(), "left the table");
    let saved = wait_for(Duration::from_secs(10), "the saved table's refusal", || {
        let t = s.text(&s.find(".saved-refused")?);
        (!t.is_empty()).then_some(t)
    });
    assert!(
        saved.contains("no longer works") && saved.contains("revoked"),
        "{saved}"
    );
}
