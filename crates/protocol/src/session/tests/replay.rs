//! Reconnects: a replay with fresh ids must add only what is new.

use serde_json::{json, Value};

use super::super::*;
use super::{delta, dice, frame, kp, line, shown, state, welcome};

/// One transcript line as the server would send it on connection `conn`.
fn story(conn: u32, n: usize) -> ServerFrame {
    match n % 3 {
        0 => line(
            &format!("c{conn}-{n}"),
            "player",
            Some("Alice (Player)"),
            &format!("I act {n}"),
        ),
        1 => kp(&format!("c{conn}-{n}"), &format!("The keeper answers {n}.")),
        _ => line(
            &format!("c{conn}-{n}"),
            "npc",
            Some("Martha"),
            &format!("Martha says {n}."),
        ),
    }
}

fn join(m: &mut SessionModel) {
    m.apply(&welcome("demo", "Player"), 0.0);
    m.apply(
        &frame(json!({"type": "presence", "players": [], "online": 1})),
        0.0,
    );
}

#[test]
fn rejoin_replaying_five_lines_plus_one_new_shows_six() {
    let mut m = SessionModel::new();
    join(&mut m);
    for n in 0..5 {
        m.apply(&story(1, n), 0.0);
    }
    m.apply(&state(false), 0.0);
    let before: Vec<u64> = m.iter().map(|e| e.key).collect();

    m.begin_rejoin();
    join(&mut m);
    for n in 0..6 {
        assert!(m.apply(&story(2, n), 0.0).appended.is_empty(), "held back");
    }
    assert!(m.is_replaying());
    let c = m.apply(&state(false), 0.0);
    assert!(!m.is_replaying());
    assert_eq!(m.len(), 6);
    assert_eq!(c.appended.len(), 1);
    assert_eq!(m.iter().take(5).map(|e| e.key).collect::<Vec<_>>(), before);
    assert_eq!(shown(&m)[5], "npc:Martha says 5.");
    let r = m.last_replay.expect("the replay is reported");
    assert_eq!((r.count, r.items, r.known), (1, 6, 5));
}

#[test]
fn a_second_welcome_opens_the_window_and_unreplayed_lines_are_skipped() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    // A dot command: its echo and reply are shown live but never replayed.
    m.apply(
        &line("e", "player", Some("Alice (Player)"), ".r 1d100"),
        0.0,
    );
    m.apply(&dice("Alice (Player)", 13), 0.0);
    m.apply(&line("r", "system", None, "Roll: 13"), 0.0);
    m.apply(&story(1, 1), 0.0);
    m.apply(&dice("Keeper", 55), 0.0);
    m.apply(&story(1, 2), 0.0);
    m.apply(
        &frame(json!({"type": "system", "level": "info", "text": "Avatar updated."})),
        0.0,
    );
    let count = m.len();

    join(&mut m); // no begin_rejoin: the second welcome is enough
    assert!(m.is_replaying());
    for f in [
        story(2, 0),
        dice("Alice (Player)", 13),
        story(2, 1),
        dice("Keeper", 55),
        story(2, 2),
    ] {
        m.apply(&f, 0.0);
    }
    m.apply(&dice("Keeper", 99), 0.0);
    m.apply(&story(2, 3), 0.0);
    m.apply(&state(false), 0.0);
    assert_eq!(m.len(), count + 2);
    assert_eq!(&shown(&m)[count..], ["dice:Keeper:99", "player:I act 3"]);
}

#[test]
fn a_replay_whose_oldest_lines_scrolled_out_of_the_window() {
    let mut m = SessionModel::new();
    join(&mut m);
    for n in 0..40 {
        m.apply(&story(1, n), 0.0);
        if n % 7 == 0 {
            m.apply(&dice("Alice", n as u32), 0.0);
        }
    }
    let count = m.len();
    join(&mut m);
    // The server keeps 30 lines (10..=39, the dice that followed them), plus 2 new ones.
    for n in 10..42 {
        m.apply(&story(2, n), 0.0);
        if n % 7 == 0 {
            m.apply(&dice("Alice", n as u32), 0.0);
        }
    }
    m.apply(&frame(json!({"type": "ui_manifest", "panels": []})), 0.0);
    assert_eq!(m.len(), count + 2, "{:?}", &shown(&m)[count..]);
    assert_eq!(
        &shown(&m)[count..],
        ["kp:The keeper answers 40.", "npc:Martha says 41."]
    );
}

#[test]
fn a_repeated_old_line_does_not_misplace_the_anchor() {
    let mut m = SessionModel::new();
    join(&mut m);
    let text = |n: usize| {
        if n == 10 || n == 35 {
            "yes".to_owned()
        } else {
            format!("line {n}")
        }
    };
    for n in 0..40 {
        m.apply(&kp(&format!("a{n}"), &text(n)), 0.0);
    }
    join(&mut m);
    for n in 10..41 {
        m.apply(&kp(&format!("b{n}"), &text(n)), 0.0);
    }
    m.apply(&state(false), 0.0);
    assert_eq!(m.len(), 41);
    assert_eq!(shown(&m)[40], "kp:line 40");
}

#[test]
fn everything_is_new_after_a_long_absence() {
    let mut m = SessionModel::new();
    join(&mut m);
    for n in 0..5 {
        m.apply(&story(1, n), 0.0);
    }
    join(&mut m);
    for n in 100..130 {
        m.apply(&story(2, n), 0.0);
    }
    m.apply(&state(false), 0.0);
    assert_eq!(m.len(), 35);
}

#[test]
fn a_draft_cut_off_by_the_drop_is_completed_by_the_replayed_final() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    m.apply(&delta("k", "You run yo"), 0.0);
    m.apply(&dice("Alice", 88), 0.0); // a roll between deltas
    let draft = m.transcript().key_for_id("k").unwrap();
    join(&mut m);
    m.apply(&story(2, 0), 0.0);
    m.apply(&dice("Alice", 88), 0.0);
    m.apply(&kp("fresh", "You run your hands along the desk."), 0.0);
    let c = m.apply(&state(false), 0.0);
    assert_eq!(c.updated, vec![draft]);
    assert_eq!(
        shown(&m),
        [
            "player:I act 0",
            "kp:You run your hands along the desk.",
            "dice:Alice:88"
        ]
    );
}

#[test]
fn a_draft_still_streaming_continues_after_the_replay() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    m.apply(&delta("k", "Still "), 0.0);
    join(&mut m);
    m.apply(&story(2, 0), 0.0);
    // The live stream resumes: its delta ends the replay and extends the draft.
    m.apply(&delta("k", "going"), 0.0);
    assert!(!m.is_replaying());
    m.apply(&kp("k", "Still going."), 0.0);
    assert_eq!(shown(&m), ["player:I act 0", "kp:Still going."]);
}

#[test]
fn my_line_sent_before_the_drop_is_matched_by_the_replayed_echo() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 1), 0.0);
    let key = m.submit_input("I go north", 0.0);
    join(&mut m);
    m.apply(&story(2, 1), 0.0);
    m.apply(
        &line("fresh", "player", Some("Alice (Player)"), "I go north"),
        0.0,
    );
    m.apply(&state(false), 0.0);
    assert_eq!(shown(&m), ["kp:The keeper answers 1.", "player:I go north"]);
    assert_eq!(m.iter().nth(1).unwrap().key, key);
}

#[test]
fn a_replay_the_server_never_ends_is_closed_by_tick() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    m.apply(&welcome("demo", "Player"), 1_000.0); // opens the window at 1 s
    m.apply(&story(2, 0), 2_000.0);
    m.apply(&story(2, 1), 2_000.0);
    assert!(m.tick(1_000.0 + REPLAY_TIMEOUT_MS - 1.0).is_empty());
    let c = m.tick(1_000.0 + REPLAY_TIMEOUT_MS);
    assert_eq!(c.appended.len(), 1);
    assert_eq!(m.len(), 2);
}

#[test]
fn a_replay_that_times_out_with_nothing_new_is_still_a_change() {
    // The window must hear that the replay is over (its notice, the transcript's replay
    // marks): a tick that changes nothing else still says so.
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    m.apply(&welcome("demo", "Player"), 1_000.0);
    m.apply(&story(2, 0), 2_000.0);
    assert!(m.is_replaying());
    // Only a clock ends it: the window must keep one running meanwhile.
    assert!(m.awaits_clock());
    let c = m.tick(1_000.0 + REPLAY_TIMEOUT_MS);
    assert!(!m.is_replaying() && !m.awaits_clock());
    assert!(c.appended.is_empty() && c.updated.is_empty());
    assert!(c.replay && !c.is_empty(), "{c:?}");
    assert_eq!(m.last_replay.map(|r| r.known), Some(1));
}

#[test]
fn another_rooms_welcome_starts_over() {
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&story(1, 0), 0.0);
    let old = m.iter().next().unwrap().key;
    let c = m.apply(&welcome("elsewhere", "Player"), 0.0);
    assert!(c.reset && c.welcome && !m.is_replaying());
    assert!(m.is_empty() && m.presence.is_none());
    let fresh = m.apply(&story(2, 0), 0.0).appended[0];
    assert!(fresh > old);
}

/// The real engine capture, as the player connection saw it, then a reconnect that
/// replays its story lines and dice with fresh ids: nothing is duplicated.
#[test]
fn engine_capture_then_a_reconnect() {
    // A missing capture is a failure, never a skip (#24.15): read_shared panics.
    let text = test_support::read_shared("conformance/engine-session-2.3.jsonl");
    let mut m = SessionModel::new();
    let mut now = 0.0;
    for record in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        if record["conn"] != "player" {
            continue;
        }
        now += 100.0;
        if let Some(sent) = record.get("sent") {
            if sent["type"] == "input" {
                m.submit_input(sent["text"].as_str().unwrap(), now);
            }
        } else {
            m.apply(
                &crate::codec::decode_server_value(record["frame"].clone()).unwrap(),
                now,
            );
        }
    }
    let lines = shown(&m);
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("pending:") || l.starts_with("draft:")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("refused:input_too_long:")));
    assert!(lines
        .iter()
        .any(|l| l == "player:I search the desk for letters"));
    assert!(lines.iter().any(|l| l.starts_with("kp:You run your hands")));
    assert!(m.media_errors.is_empty() && m.media.len() == 1 && m.media_enabled);

    // Reconnect: the server replays story lines (not dot commands) and dice.
    let replay: Vec<ServerFrame> = m
        .iter()
        .filter_map(|e| match &e.body {
            EntryBody::Narrative(l) if !l.text.starts_with('.') => Some(line(
                &format!("replayed-{}", e.key),
                l.speaker.as_str(),
                l.name.as_deref(),
                &l.text,
            )),
            EntryBody::Dice(d) => Some(ServerFrame::Dice((**d).clone())),
            _ => None,
        })
        .collect();
    let count = m.len();
    m.apply(&welcome("demo", "Player"), now);
    for f in &replay {
        m.apply(f, now);
    }
    m.apply(&state(false), now);
    assert_eq!(m.len(), count, "{:?}", shown(&m));
}

#[test]
fn a_keeper_line_streamed_around_an_npc_is_not_replayed_twice() {
    // Live: the Keeper's draft opens, Martha speaks while it streams, the draft closes.
    let mut m = SessionModel::new();
    join(&mut m);
    m.apply(&line("p1", "player", Some("Alice"), "I knock."), 0.0);
    m.apply(&delta("k1", "Rain needles sideways. "), 0.0);
    m.apply(&line("n1", "npc", Some("Martha"), "Come in."), 0.0);
    m.apply(&delta("k1", "Martha holds the door."), 0.0);
    m.apply(
        &kp("k1", "Rain needles sideways. Martha holds the door."),
        0.0,
    );
    m.apply(
        &line("p2", "player", Some("Alice"), "I search the desk."),
        0.0,
    );
    m.apply(&dice("Alice", 7), 0.0);
    m.apply(&kp("k2", "A letter."), 0.0);
    m.apply(&state(false), 0.0);
    let before = shown(&m);
    assert_eq!(
        before[1],
        "kp:Rain needles sideways. Martha holds the door."
    );
    assert_eq!(before[2], "npc:Come in.");

    // History records the Keeper line when it closed: after Martha's.
    m.begin_rejoin();
    join(&mut m);
    m.apply(&line("r1", "player", Some("Alice"), "I knock."), 0.0);
    m.apply(&line("r2", "npc", Some("Martha"), "Come in."), 0.0);
    m.apply(
        &kp("r3", "Rain needles sideways. Martha holds the door."),
        0.0,
    );
    m.apply(
        &line("r4", "player", Some("Alice"), "I search the desk."),
        0.0,
    );
    m.apply(&dice("Alice", 7), 0.0);
    m.apply(&kp("r5", "A letter."), 0.0);
    m.apply(&kp("r6", "Something new."), 0.0);
    m.apply(&state(false), 0.0);
    let after = shown(&m);
    assert_eq!(after.len(), before.len() + 1, "{after:?}");
    assert_eq!(after[..before.len()], before[..]);
    assert_eq!(after.last().unwrap(), "kp:Something new.");
}

#[test]
fn a_line_lost_with_the_connection_is_not_delivered_once_the_replay_ends() {
    let mut m = SessionModel::new();
    join(&mut m);
    for n in 0..3 {
        m.apply(&story(1, n), 0.0);
    }
    m.apply(&state(false), 0.0);
    // Two lines typed; the connection drops; only the first reached the table.
    let delivered = m.submit_input("I open the door", 1.0);
    let lost = m.submit_input("I light the lamp", 2.0);
    m.begin_rejoin();
    join(&mut m);
    for n in 0..3 {
        m.apply(&story(2, n), 0.0);
    }
    m.apply(
        &line("c2-9", "player", Some("Alice (Player)"), "I open the door"),
        0.0,
    );
    let failure =
        |m: &SessionModel, key: u64| match m.iter().find(|e| e.key == key).map(|e| &e.body) {
            Some(EntryBody::PendingInput(p)) => Some(p.failed.clone()),
            _ => None,
        };
    // Still waiting while the replay is open…
    assert_eq!(failure(&m, lost), Some(None));
    m.apply(&state(false), 0.0);
    // …and told the moment it ends: the echoed one became the room's line, the other is
    // marked, long before the two-minute timeout.
    assert_eq!(
        failure(&m, delivered),
        None,
        "the echoed line is a narrative now"
    );
    assert_eq!(failure(&m, lost), Some(Some(InputFailure::NotDelivered)));
    // Retry or Edit takes it off the story; a line still waiting cannot be dismissed.
    assert_eq!(m.dismiss_failed(lost).removed, vec![lost]);
    assert_eq!(failure(&m, lost), None);
    let waiting = m.submit_input("again", 3.0);
    assert!(m.dismiss_failed(waiting).removed.is_empty());
}
