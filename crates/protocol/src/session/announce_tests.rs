use super::*;
use crate::frame::TextFormat;
use crate::session::transcript::NarrativeLine;

fn line(id: &str, speaker: Speaker, name: Option<&str>, text: &str, draft: bool) -> EntryBody {
    EntryBody::Narrative(NarrativeLine {
        id: id.into(),
        speaker,
        name: name.map(str::to_string),
        text: text.into(),
        format: TextFormat::Markdown,
        draft,
    })
}

#[test]
fn a_streamed_line_is_announced_once_when_final_in_one_piece() {
    let mut t = Transcript::default();
    t.push(line("old", Speaker::Kp, None, "Before you came.", false));
    let mut a = Announcer::start(&t);
    assert!(a.next(&t).is_empty(), "history is not news");
    let key = t.push(line("n1", Speaker::Kp, None, "The lamp", true));
    assert!(a.next(&t).is_empty(), "a draft is not announced");
    t.replace(
        key,
        line("n1", Speaker::Kp, None, "The lamp *flickers*", true),
    );
    assert!(a.next(&t).is_empty(), "nor is its growth");
    t.push(line("p1", Speaker::Player, Some("Alice"), "I run.", false));
    t.replace(
        key,
        line("n1", Speaker::Kp, None, "The lamp *flickers* out.", false),
    );
    // Story order: the Keeper's line began first.
    assert_eq!(
        a.next(&t),
        vec!["The Keeper: The lamp flickers out.", "Alice: I run."]
    );
    assert!(a.next(&t).is_empty(), "each once");
}

#[test]
fn a_discarded_draft_and_panels_say_nothing() {
    let mut t = Transcript::default();
    let mut a = Announcer::start(&t);
    let key = t.push(line("n1", Speaker::Kp, None, "Half a", true));
    assert!(a.next(&t).is_empty());
    t.remove(key);
    t.push(EntryBody::System {
        level: SystemLevel::Warn,
        text: "The table is slow.".into(),
        spinner: false,
    });
    assert_eq!(a.next(&t), vec!["Warning: The table is slow."]);
}

#[test]
fn a_replay_skipped_is_never_announced() {
    let mut t = Transcript::default();
    let mut a = Announcer::start(&t);
    t.push(line("h1", Speaker::Kp, None, "Long ago.", false));
    t.push(line(
        "h2",
        Speaker::Player,
        Some("Bea"),
        "I remember.",
        false,
    ));
    a.skip(&t);
    assert!(a.next(&t).is_empty());
    t.push(line(
        "n1",
        Speaker::Npc,
        Some("Martha"),
        "Who is there?",
        false,
    ));
    assert_eq!(a.next(&t), vec!["Martha: Who is there?"]);
}

#[test]
fn my_line_is_announced_when_its_echo_replaces_it() {
    use crate::session::transcript::PendingInput;
    let mut t = Transcript::default();
    let mut a = Announcer::start(&t);
    let key = t.push(EntryBody::PendingInput(PendingInput {
        text: "I knock.".into(),
        sent_at: 0.0,
        failed: None,
    }));
    assert!(a.next(&t).is_empty(), "not before the table has it");
    t.replace(
        key,
        line("e1", Speaker::Player, Some("Alice"), "I knock.", false),
    );
    assert_eq!(a.next(&t), vec!["Alice: I knock."]);
}

#[test]
fn the_turn_is_told_when_it_changes_hands_not_when_its_activity_does() {
    use super::{turn_news, TurnNews};
    assert_eq!(
        turn_news(None, Some("Keeper")),
        Some(TurnNews::Taken("Keeper".into()))
    );
    assert_eq!(turn_news(Some("Keeper"), Some("Keeper")), None);
    assert_eq!(
        turn_news(Some("Keeper"), Some("Alice")),
        Some(TurnNews::Taken("Alice".into()))
    );
    assert_eq!(turn_news(Some("Keeper"), None), Some(TurnNews::Yours));
    assert_eq!(turn_news(None, None), None);
}
