//! Sanitizing, batching, and the transcript at scale.

use super::super::*;
use super::{delta, dice, kp};

#[test]
fn sanitize_strips_controls_and_bidi_overrides() {
    assert_eq!(sanitize_text("plain\ttext\nline"), "plain\ttext\nline");
    assert_eq!(sanitize_text("a\u{1b}[31mb\r\n\u{7}c\u{85}"), "a[31mb\nc");
    assert_eq!(
        sanitize_text("evil\u{202E}gpj.exe\u{2066}x\u{2069}"),
        "evilgpj.exex"
    );
    assert_eq!(sanitize_text("调查员 <b>"), "调查员 <b>");
}

#[test]
fn twenty_thousand_entries_and_a_hundred_thousand_deltas_stay_fast() {
    let started = std::time::Instant::now();
    let mut m = SessionModel::new();
    for i in 0..20_000 {
        m.apply(&kp(&format!("line{i}"), "An old line of the story."), 0.0);
    }
    let piece = delta("", "word ");
    for i in 0..100_000u32 {
        let draft = format!("draft{}", i % 4);
        if i % 1_000 == 0 {
            m.apply(&dice("Alice", i % 100), 0.0);
        }
        let ServerFrame::NarrativeDelta(mut d) = piece.clone() else {
            unreachable!()
        };
        d.id = draft;
        m.apply(&ServerFrame::NarrativeDelta(d), 0.0);
    }
    m.apply(&kp("draft0", ""), 0.0);
    let elapsed = started.elapsed();
    eprintln!("20,000 lines + 100,000 deltas: {elapsed:?}");
    assert_eq!(m.len(), 20_000 + 100 + 3);
    let draft1 = m.transcript().key_for_id("draft1").unwrap();
    let EntryBody::Narrative(l) = &m.entry_by_key(draft1).unwrap().body else {
        panic!()
    };
    assert_eq!(l.text.len(), 25_000 * 5);
    assert!(elapsed.as_secs_f64() < 5.0, "too slow: {elapsed:?}");
}

#[test]
fn changes_merge_batches_calls() {
    let mut m = SessionModel::new();
    let mut batch = m.apply(&delta("d", "a"), 0.0);
    batch.merge(m.apply(&delta("d", "b"), 0.0));
    batch.merge(m.apply(&kp("x", "y"), 0.0));
    assert_eq!(batch.appended.len(), 2);
    assert!(batch.updated.is_empty());
    batch.merge(m.apply(&kp("d", ""), 0.0));
    assert_eq!(batch.appended.len(), 1);
    assert!(batch.removed.is_empty());
}
