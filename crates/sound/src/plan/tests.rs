use super::*;
use protocol::ServerFrame;

/// The audio frames a real engine sent the player connection, in order.
fn captured_audio() -> Vec<ServerFrame> {
    let text = test_support::read_shared("conformance/engine-admin-2.3.jsonl");
    let frames: Vec<ServerFrame> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["conn"] == "player")
        .filter(|v| {
            let t = v["frame"]["type"].as_str().unwrap_or("");
            t == "audio_control" || t == "audio_state"
        })
        .map(|v| serde_json::from_value(v["frame"].clone()).expect("a captured audio frame"))
        .collect();
    assert!(
        frames.len() >= 10,
        "the capture's audio frames: {}",
        frames.len()
    );
    frames
}

fn feed(plan: &mut Plan, f: &ServerFrame, now: f64) -> Vec<Action> {
    match f {
        ServerFrame::AudioControl(c) => plan.control(c, now),
        ServerFrame::AudioState(s) => plan.state(s, now),
        _ => Vec::new(),
    }
}

fn state(json: serde_json::Value) -> AudioState {
    serde_json::from_value(json).unwrap()
}

fn control(json: serde_json::Value) -> AudioControl {
    serde_json::from_value(json).unwrap()
}

#[test]
fn the_engines_session_plays_each_step_once_and_never_restarts_on_its_echoed_state() {
    let mut plan = Plan::default();
    let mut seen = Vec::new();
    for f in captured_audio() {
        let actions = feed(&mut plan, &f, 1_796_064_000.0);
        if let ServerFrame::AudioState(_) = f {
            // Every bgm/ambience control is followed by a fresh state: it changes nothing here.
            assert_eq!(actions, vec![], "a state echo acted");
        }
        seen.extend(actions.into_iter().map(|a| match a {
            Action::Play { layer, looped, .. } => format!("play {layer} loop={looped}"),
            Action::Stop { layer, .. } => format!("stop {layer}"),
            Action::Pause { layer, .. } => format!("pause {layer}"),
            Action::Resume { layer, .. } => format!("resume {layer}"),
            Action::Volume { layer, volume, .. } => format!("volume {layer} {volume}"),
        }));
    }
    assert_eq!(
        seen[..8],
        [
            "play bgm loop=true",
            "volume bgm 0.4",
            "pause bgm",
            "resume bgm",
            "play ambience loop=true",
            "stop bgm",
            "stop ambience",
            "play sfx loop=false",
        ]
    );
}

#[test]
fn a_joining_listener_starts_where_the_table_is() {
    let mut plan = Plan::default();
    let actions = plan.state(
        &state(serde_json::json!({"layers": [
            {"layer": "bgm", "playing": true, "hash": "aa", "volume": 0.5, "loop": true, "started_at": 1000.0},
            {"layer": "ambience", "playing": false},
            {"layer": "sfx", "playing": false}
        ]})),
        1012.25,
    );
    assert_eq!(
        actions,
        vec![Action::Play {
            layer: "bgm".into(),
            hash: "aa".into(),
            looped: true,
            volume: 0.5,
            fade_ms: 0,
            start: Start::Elapsed(Duration::from_millis(12_250)),
        }]
    );
}

#[test]
fn a_track_paused_at_the_table_does_not_start_on_join_and_a_resume_starts_it() {
    let mut plan = Plan::default();
    let paused = state(serde_json::json!({"layers": [
        {"layer": "bgm", "playing": false, "hash": "aa", "volume": 1.0, "loop": true, "started_at": 1000.0}
    ]}));
    assert_eq!(plan.state(&paused, 1010.0), vec![]);
    let resume = control(
        serde_json::json!({"type": "audio_control", "id": "r", "action": "resume", "layer": "bgm", "server_ts": 1020.0}),
    );
    let actions = plan.control(&resume, 1020.0);
    assert!(
        matches!(&actions[..], [Action::Play { hash, start: Start::Beginning, .. }] if hash == "aa"),
        "{actions:?}"
    );
}

#[test]
fn a_track_change_crossfades_and_a_missed_stop_is_caught_up() {
    let mut plan = Plan::default();
    let play = |hash: &str, fade: Option<u64>| {
        let mut v = serde_json::json!({"type": "audio_control", "id": "p", "action": "play", "layer": "bgm", "hash": hash});
        if let Some(f) = fade {
            v["fade_ms"] = f.into();
        }
        control(v)
    };
    let first = plan.control(&play("aa", None), 1.0);
    assert!(
        matches!(&first[..], [Action::Play { fade_ms: 0, .. }]),
        "{first:?}"
    );
    let second = plan.control(&play("bb", None), 2.0);
    assert!(
        matches!(
            &second[..],
            [Action::Play {
                fade_ms: CROSSFADE_MS,
                ..
            }]
        ),
        "{second:?}"
    );
    let third = plan.control(&play("cc", Some(400)), 3.0);
    assert!(
        matches!(&third[..], [Action::Play { fade_ms: 400, .. }]),
        "{third:?}"
    );
    // The table says nothing plays: a stop this client missed.
    let stopped = plan.state(
        &state(serde_json::json!({"layers": [{"layer": "bgm", "playing": false, "hash": "cc"}]})),
        4.0,
    );
    assert_eq!(
        stopped,
        vec![Action::Stop {
            layer: "bgm".into(),
            fade_ms: 0
        }]
    );
}

#[test]
fn the_tables_clock_comes_from_the_controls() {
    let mut plan = Plan::default();
    // This client's clock runs 5 s ahead: a control stamped 1000 arrives at 1005.
    let vol = control(
        serde_json::json!({"type": "audio_control", "id": "v", "action": "volume", "layer": "bgm", "server_ts": 1000.0, "volume": 0.3}),
    );
    plan.control(&vol, 1005.0);
    let actions = plan.state(
        &state(serde_json::json!({"layers": [{"layer": "ambience", "playing": true, "hash": "aa", "started_at": 990.0}]})),
        1006.0,
    );
    assert!(
        matches!(&actions[..], [Action::Play { start: Start::Elapsed(d), .. }] if *d == Duration::from_secs(11)),
        "{actions:?}"
    );
}
