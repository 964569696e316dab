use serde_json::{json, Value};

use super::*;
use crate::frame::{ErrorCode, UiBlock};

// More of the session's tests, in tests/: reconnects and replays, sanitizing and scale.
mod replay;
mod scale;

pub(super) fn frame(value: Value) -> ServerFrame {
    serde_json::from_value(value).expect("a valid server frame")
}

pub(super) fn line(id: &str, speaker: &str, name: Option<&str>, text: &str) -> ServerFrame {
    let mut v = json!({"type": "narrative", "id": id, "speaker": speaker, "text": text, "format": "markdown"});
    if let Some(name) = name {
        v["name"] = json!(name);
    }
    frame(v)
}

pub(super) fn kp(id: &str, text: &str) -> ServerFrame {
    line(id, "kp", None, text)
}

pub(super) fn delta(id: &str, text: &str) -> ServerFrame {
    frame(json!({"type": "narrative_delta", "id": id, "speaker": "kp", "text": text}))
}

pub(super) fn dice(actor: &str, total: u32) -> ServerFrame {
    frame(
        json!({"type": "dice", "actor": actor, "kind": "roll", "expr": "1d100",
                 "rolls": [total], "total": total}),
    )
}

pub(super) fn welcome(room: &str, name: &str) -> ServerFrame {
    frame(
        json!({"type": "welcome", "protocol": "2.3", "features": ["media", "audio"],
                 "room": room, "you": {"id": "tui:1", "name": name, "role": "player"},
                 "locale": "en", "server": "loreweaver/1", "version": "1.0.0"}),
    )
}

pub(super) fn state(reset: bool) -> ServerFrame {
    frame(json!({"type": "state", "party": [], "initiative": [], "online": 1, "reset": reset}))
}

fn error(code: &str) -> ServerFrame {
    frame(json!({"type": "error", "code": code, "message": format!("refused: {code}")}))
}

fn ui(panel: &str, id: Option<&str>, replace: bool, blocks: Value) -> ServerFrame {
    let mut v = json!({"type": "ui", "panel": panel, "blocks": blocks, "replace": replace});
    if let Some(id) = id {
        v["id"] = json!(id);
    }
    frame(v)
}

fn badge(label: &str) -> Value {
    json!([{"kind": "badge", "label": label}])
}

fn busy(actor: &str, round: Option<u32>) -> ServerFrame {
    let mut v = json!({"type": "turn_status", "status": "busy", "actor": actor});
    if let Some(round) = round {
        v["round"] = json!(round);
        v["activity"] = json!("dice");
    }
    frame(v)
}

/// The transcript as short strings: `speaker:text`, `dice:actor:total`, ...
pub(super) fn shown(model: &SessionModel) -> Vec<String> {
    model
        .iter()
        .map(|entry| match &entry.body {
            EntryBody::Narrative(l) if l.draft => format!("draft:{}", l.text),
            EntryBody::Narrative(l) => format!("{}:{}", l.speaker, l.text),
            EntryBody::Dice(d) => format!("dice:{}:{}", d.actor, d.total),
            EntryBody::System { text, .. } => format!("sys:{text}"),
            EntryBody::Error { code, .. } => format!("err:{code}"),
            EntryBody::Ui(ui) => {
                format!("ui:{}:{}", ui.id.as_deref().unwrap_or("-"), ui.blocks.len())
            }
            EntryBody::TitleCard(card) => format!("card:{}", card.title),
            EntryBody::PendingInput(p) => match &p.failed {
                None => format!("pending:{}", p.text),
                Some(InputFailure::TimedOut) => format!("timedout:{}", p.text),
                Some(InputFailure::NotDelivered) => format!("lost:{}", p.text),
                Some(InputFailure::Refused { code, .. }) => format!("refused:{code}:{}", p.text),
            },
        })
        .collect()
}

fn keys(model: &SessionModel) -> Vec<u64> {
    model.iter().map(|e| e.key).collect()
}

#[test]
fn deltas_interleaved_with_dice_and_npc_keep_one_bubble() {
    let mut m = SessionModel::new();
    let first = m.apply(&delta("k1", "You run "), 0.0);
    let bubble = first.appended[0];
    m.apply(&dice("Alice", 42), 1.0);
    m.apply(&delta("k1", "your hands "), 2.0);
    m.apply(&line("n1", "npc", Some("Martha"), "Careful."), 3.0);
    let c = m.apply(&delta("k1", "along the desk"), 4.0);
    assert_eq!(c.updated, vec![bubble]);
    assert!(c.appended.is_empty());
    assert_eq!(
        shown(&m),
        [
            "draft:You run your hands along the desk",
            "dice:Alice:42",
            "npc:Careful."
        ]
    );
    let c = m.apply(
        &kp("k1", "You run your hands along the desk. Nothing."),
        5.0,
    );
    assert_eq!(c.updated, vec![bubble]);
    assert_eq!(
        shown(&m)[0],
        "kp:You run your hands along the desk. Nothing."
    );
    assert_eq!(m.transcript().key_for_id("k1"), Some(bubble));
    // A stray delta after the close does not reopen or grow it.
    assert!(m.apply(&delta("k1", "!!"), 6.0).is_empty());
    assert_eq!(m.len(), 3);
}

#[test]
fn empty_final_text_removes_the_bubble() {
    let mut m = SessionModel::new();
    let key = m.apply(&delta("k1", "An abandoned"), 0.0).appended[0];
    m.apply(&dice("Alice", 7), 1.0);
    m.apply(&delta("k1", " round"), 2.0);
    let c = m.apply(&kp("k1", ""), 3.0);
    assert_eq!(c.removed, vec![key]);
    assert_eq!(shown(&m), ["dice:Alice:7"]);
    assert!(m.entry_by_key(key).is_none());
    // The discard of a draft never seen adds nothing.
    assert!(m.apply(&kp("k9", ""), 4.0).is_empty());
    // The survivors are still found by key after the removal.
    let dice_key = m.iter().next().unwrap().key;
    assert_eq!(m.transcript().position(dice_key), Some(0));
}

#[test]
fn repeated_narrative_id_replaces_in_place() {
    let mut m = SessionModel::new();
    m.apply(&kp("a", "one"), 0.0);
    m.apply(&kp("b", "two"), 0.0);
    let before = keys(&m);
    let c = m.apply(&kp("a", "one, corrected"), 0.0);
    assert_eq!(c.updated, vec![before[0]]);
    assert_eq!(keys(&m), before);
    assert_eq!(shown(&m), ["kp:one, corrected", "kp:two"]);
    assert_eq!(m.iter().next().unwrap().rev, 1);
}

#[test]
fn pending_echo_is_replaced_by_my_echo_in_place() {
    let mut m = SessionModel::new();
    m.apply(&welcome("demo", "Player"), 0.0);
    let key = m.submit_input("I open the door", 10.0);
    m.apply(&dice("Bob", 3), 11.0);
    // Someone else saying the same words is not my echo.
    m.apply(&line("x", "player", Some("Bob"), "I open the door"), 12.0);
    assert_eq!(shown(&m)[0], "pending:I open the door");
    let c = m.apply(
        &line("e", "player", Some("Alice (Player)"), "I open the door"),
        13.0,
    );
    assert_eq!(c.updated, vec![key]);
    assert!(c.appended.is_empty());
    assert_eq!(m.transcript().position(key), Some(0));
    assert_eq!(
        shown(&m),
        [
            "player:I open the door",
            "dice:Bob:3",
            "player:I open the door"
        ]
    );
    assert_eq!(m.transcript().key_for_id("e"), Some(key));
}

#[test]
fn pending_echo_matches_on_text_when_no_name_is_known() {
    let mut m = SessionModel::new();
    let a = m.submit_input("look", 0.0);
    let b = m.submit_input("look", 1.0);
    m.apply(&line("e1", "player", Some("Whoever"), "look"), 2.0);
    assert_eq!(m.transcript().key_for_id("e1"), Some(a));
    m.apply(&line("e2", "player", None, " look "), 3.0);
    assert_eq!(m.transcript().key_for_id("e2"), Some(b));
    assert_eq!(m.len(), 2);
}

#[test]
fn refused_input_fails_the_oldest_pending() {
    let mut m = SessionModel::new();
    let a = m.submit_input("first", 0.0);
    m.submit_input("second", 1.0);
    let c = m.apply(&error("rate_limited"), 2.0);
    assert_eq!(c.updated, vec![a]);
    assert_eq!(shown(&m), ["refused:rate_limited:first", "pending:second"]);
    m.apply(&error("input_too_long"), 3.0);
    assert_eq!(shown(&m)[1], "refused:input_too_long:second");
    // No pending left: the error is a line of its own.
    m.apply(&error("bad_frame"), 4.0);
    m.apply(&error("server_error"), 5.0);
    assert_eq!(&shown(&m)[2..], ["err:bad_frame", "err:server_error"]);
    // A refused line never reached the room, so an identical echo is someone else's.
    m.apply(&line("e", "player", None, "first"), 6.0);
    assert_eq!(m.len(), 5);
}

#[test]
fn a_line_that_never_left_studio_is_not_delivered_at_once() {
    let mut m = SessionModel::new();
    let a = m.submit_input("first", 0.0);
    let c = m.not_sent(a);
    assert_eq!(c.updated, vec![a]);
    assert_eq!(shown(&m), ["lost:first"]);
    // Not waiting any more: an identical echo is someone else's line.
    m.apply(&line("e", "player", None, "first"), 1.0);
    assert_eq!(m.len(), 2);
    // Twice is a no-op.
    assert!(m.not_sent(a).updated.is_empty());
}

#[test]
fn pending_times_out_after_120_s_and_a_late_echo_still_lands() {
    let mut m = SessionModel::new();
    let key = m.submit_input("hello", 1_000.0);
    assert!(m.tick(1_000.0 + PENDING_TIMEOUT_MS - 1.0).is_empty());
    let c = m.tick(1_000.0 + PENDING_TIMEOUT_MS);
    assert_eq!(c.updated, vec![key]);
    assert_eq!(shown(&m), ["timedout:hello"]);
    assert!(m.tick(1_000.0 + 3.0 * PENDING_TIMEOUT_MS).is_empty());
    m.apply(&line("e", "player", None, "hello"), 200_000.0);
    assert_eq!(shown(&m), ["player:hello"]);
}

#[test]
fn media_errors_go_to_the_uploader() {
    let mut m = SessionModel::new();
    m.submit_input("pending", 0.0);
    let c = m.apply(&error("media_too_large"), 1.0);
    assert!(c.media && !c.transcript());
    m.apply(&error("media_something_new"), 1.0);
    m.apply(&error("avatar_no_character"), 1.0);
    assert_eq!(m.media_errors.len(), 3);
    assert_eq!(m.media_errors[0].code, ErrorCode::MediaTooLarge);
    assert_eq!(shown(&m), ["pending:pending"]);
}

#[test]
fn reset_state_clears_the_transcript_and_keys_are_never_reused() {
    let mut m = SessionModel::new();
    m.apply(&kp("a", "before"), 0.0);
    let old = m.submit_input("x", 0.0);
    let c = m.apply(&state(false), 0.0);
    assert!(c.state && !c.reset);
    assert_eq!(m.len(), 2);
    let c = m.apply(&state(true), 0.0);
    assert!(c.reset && c.state && c.transcript());
    assert!(m.is_empty());
    assert_eq!(m.state.as_ref().map(|s| s.is_reset()), Some(true));
    let fresh = m.apply(&kp("a", "after"), 0.0).appended[0];
    assert!(fresh > old);
    // The old id died with the reset: "a" was a new line, not an update.
    assert_eq!(shown(&m), ["kp:after"]);
}

#[test]
fn inline_ui_appends_and_replace_updates_in_place() {
    let mut m = SessionModel::new();
    let first = m
        .apply(&ui("inline", Some("clue"), false, badge("one")), 0.0)
        .appended[0];
    m.apply(&kp("a", "text"), 0.0);
    let c = m.apply(
        &ui(
            "inline",
            Some("clue"),
            true,
            json!([{"kind": "divider"}, {"kind": "badge", "label": "two"}]),
        ),
        0.0,
    );
    assert_eq!(c.updated, vec![first]);
    assert_eq!(shown(&m), ["ui:clue:2", "kp:text"]);
    // Without replace: a new frame, and later replaces target the newest one.
    let second = m
        .apply(&ui("inline", Some("clue"), false, badge("three")), 0.0)
        .appended[0];
    assert_eq!(
        m.apply(&ui("inline", Some("clue"), true, badge("four")), 0.0)
            .updated,
        vec![second]
    );
    // replace for an id never seen appends.
    assert_eq!(
        m.apply(&ui("inline", Some("new"), true, badge("x")), 0.0)
            .appended
            .len(),
        1
    );
    assert_eq!(m.len(), 4);
}

#[test]
fn title_cards_become_lines_and_are_announced_once() {
    let mut m = SessionModel::new();
    let card = json!([{"kind": "title_card", "title": "Act II", "act": "II"}]);
    let c = m.apply(&ui("inline", Some("beat"), false, card.clone()), 0.0);
    assert_eq!(c.title_card, Some(c.appended[0]));
    assert_eq!(shown(&m), ["card:Act II"]);
    // A replace re-sending the same card shows nothing new.
    assert!(m
        .apply(&ui("inline", Some("beat"), true, card), 0.0)
        .title_card
        .is_none());
    let mixed = json!([{"kind": "title_card", "title": "Act III"}, {"kind": "text", "text": "Night falls"}]);
    let c = m.apply(&ui("inline", None, false, mixed), 0.0);
    assert_eq!(c.appended.len(), 2);
    assert_eq!(shown(&m), ["card:Act II", "card:Act III", "ui:-:1"]);
}

#[test]
fn sidebar_regions_keep_first_seen_order_and_replace_by_id() {
    let mut m = SessionModel::new();
    m.apply(&ui("sidebar", Some("clock"), false, badge("dawn")), 0.0);
    m.apply(&ui("sidebar", Some("heat"), false, badge("low")), 0.0);
    let c = m.apply(&ui("sidebar", Some("clock"), false, badge("noon")), 0.0);
    assert!(c.sidebar && !c.transcript());
    m.apply(&ui("sidebar", None, false, badge("loose")), 0.0);
    let ids: Vec<_> = m.sidebar().iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, [Some("clock".into()), Some("heat".into()), None]);
    let clock = &m.sidebar()[0];
    assert_eq!(clock.rev, 1);
    assert!(matches!(&clock.blocks[0], UiBlock::Badge(b) if b.label == "noon"));
    for i in 0..40 {
        m.apply(&ui("sidebar", None, false, badge(&i.to_string())), 0.0);
    }
    assert_eq!(m.sidebar().len(), 2 + ANONYMOUS_REGION_CAP);
    assert!(m.is_empty());
}

#[test]
fn busy_refreshes_one_indicator_idle_clears_and_it_times_out() {
    let mut m = SessionModel::new();
    m.apply(&busy("Alice", None), 1_000.0);
    m.apply(&busy("Alice", Some(2)), 5_000.0);
    let turn = m.turn.clone().unwrap();
    assert_eq!(
        (turn.actor.as_str(), turn.round, turn.since_ms),
        ("Alice", Some(2), 1_000.0)
    );
    assert_eq!(turn.activity, Some(crate::frame::Activity::Dice));
    assert!(m.tick(5_000.0 + TURN_TIMEOUT_MS - 1.0).is_empty());
    assert!(m.tick(5_000.0 + TURN_TIMEOUT_MS).turn);
    assert!(m.turn.is_none());
    m.apply(&busy("Bob", None), 0.0);
    assert!(
        m.apply(
            &frame(json!({"type": "turn_status", "status": "idle"})),
            1.0
        )
        .turn
    );
    assert!(m.turn.is_none());
}

#[test]
fn system_lines_presence_manifest_panel_events_and_media() {
    let mut m = SessionModel::new();
    m.apply(
        &frame(json!({"type": "system", "level": "info", "text": "Drawing…", "spinner": true})),
        0.0,
    );
    assert!(matches!(
        &m.iter().next().unwrap().body,
        EntryBody::System { spinner: true, .. }
    ));
    let c = m.apply(&frame(json!({"type": "presence", "players": [{"id": "a", "name": "A", "online": true}], "online": 1})), 0.0);
    assert!(c.presence && m.presence.is_some());
    m.apply(&frame(json!({"type": "ui_manifest", "panels": [{"id": "p/q", "title": "Q", "slot": "sidebar", "tier": 1, "blocks": []}]})), 0.0);
    assert_eq!(m.panels.len(), 1);
    assert!(
        m.apply(&frame(json!({"type": "ui_manifest", "panels": []})), 0.0)
            .manifest
    );
    assert!(m.panels.is_empty());
    let c = m.apply(
        &frame(json!({"type": "panel_event", "panel": "p/q", "payload": {"n": 1}})),
        0.0,
    );
    assert_eq!(c.panel_events, ["p/q"]);
    m.apply(
        &frame(json!({"type": "panel_event", "panel": "p/q", "payload": 2})),
        0.0,
    );
    assert_eq!(m.take_panel_events("p/q"), [json!({"n": 1}), json!(2)]);
    assert!(m.take_panel_events("p/q").is_empty());
    let media = json!({"type": "media", "id": "m1", "hash": "h", "mime": "image/png", "size": 1, "name": "a.png", "from": "A", "ts": 5});
    assert!(m.apply(&frame(media.clone()), 0.0).media);
    assert!(m.apply(&frame(media), 0.0).is_empty());
    m.apply(
        &frame(json!({"type": "media_enabled", "enabled": false})),
        0.0,
    );
    assert!(!m.media_enabled && m.media.len() == 1);
    assert!(m
        .apply(&frame(json!({"type": "pong", "t": 1})), 0.0)
        .is_empty());
}
