use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::{merge, Conflict};

fn none() -> BTreeSet<String> {
    BTreeSet::new()
}

fn places(conflicts: &[Conflict]) -> Vec<&str> {
    conflicts.iter().map(|c| c.at.as_str()).collect()
}

#[test]
fn a_field_only_one_side_changed_takes_that_side() {
    let base = json!({"name": "Harbour", "opening": "Fog.", "tags": ["sea"], "old": 1});
    let ours =
        json!({"name": "Harbour Lore", "opening": "Fog.", "tags": ["sea"], "old": 1, "mine": true});
    let theirs = json!({"name": "Harbour", "opening": "Rain.", "tags": ["sea", "rain"]});
    let m = merge(&base, &ours, &theirs, &none());
    assert_eq!(
        m.doc,
        json!({"name": "Harbour Lore", "opening": "Rain.", "tags": ["sea", "rain"], "mine": true})
    );
    assert!(m.conflicts.is_empty(), "{:#?}", m.conflicts);
    // opening, tags' new element, `old` removed on disk.
    assert_eq!(m.taken, 3);
}

#[test]
fn the_same_change_on_both_sides_is_no_conflict() {
    let base = json!({"opening": "Fog."});
    let both = json!({"opening": "Rain."});
    let m = merge(&base, &both, &both, &none());
    assert_eq!((m.doc, m.conflicts.len()), (both, 0));
}

#[test]
fn both_sides_changing_one_field_is_a_conflict_the_person_decides() {
    let base =
        json!({"worldbook": [{"title": "Tide", "condition": "tide >= 2", "content": "Dusk."}]});
    let ours =
        json!({"worldbook": [{"title": "Tide", "condition": "tide >= 3", "content": "Dusk."}]});
    let theirs =
        json!({"worldbook": [{"title": "Tide", "condition": "tide >= 4", "content": "Dawn."}]});
    let m = merge(&base, &ours, &theirs, &none());
    assert_eq!(places(&m.conflicts), ["worldbook[0].condition"]);
    assert_eq!(
        (&m.conflicts[0].ours, &m.conflicts[0].theirs),
        (&json!("tide >= 3"), &json!("tide >= 4"))
    );
    assert_eq!(m.doc["worldbook"][0]["condition"], "tide >= 3");
    assert_eq!(m.doc["worldbook"][0]["content"], "Dawn.");
    let chosen: BTreeSet<String> = ["worldbook[0].condition".to_string()].into();
    let m = merge(&base, &ours, &theirs, &chosen);
    assert_eq!(m.doc["worldbook"][0]["condition"], "tide >= 4");
    assert_eq!(places(&m.conflicts), ["worldbook[0].condition"]);
}

#[test]
fn a_field_removed_on_one_side_and_changed_on_the_other_is_a_conflict() {
    let base = json!({"scenario": "A"});
    let ours = json!({});
    let theirs = json!({"scenario": "B"});
    let m = merge(&base, &ours, &theirs, &none());
    assert_eq!(
        m.conflicts[0],
        Conflict {
            at: "scenario".into(),
            ours: Value::Null,
            theirs: json!("B")
        }
    );
    assert_eq!(m.doc, json!({}));
    let m = merge(&base, &ours, &theirs, &["scenario".to_string()].into());
    assert_eq!(m.doc, json!({"scenario": "B"}));
}

#[test]
fn entries_with_ids_merge_by_id_whatever_their_order() {
    let base = json!([{"id": "a", "content": "1"}, {"id": "b", "content": "2"}, {"id": "c", "content": "3"}]);
    // The form edits b and adds d; the file removes a, edits c, adds e after c.
    let ours = json!([{"id": "a", "content": "1"}, {"id": "b", "content": "2!"}, {"id": "d", "content": "4"}, {"id": "c", "content": "3"}]);
    let theirs = json!([{"id": "b", "content": "2"}, {"id": "c", "content": "3?"}, {"id": "e", "content": "5"}]);
    let m = merge(&base, &ours, &theirs, &none());
    assert!(m.conflicts.is_empty(), "{:#?}", m.conflicts);
    assert_eq!(
        m.doc,
        json!([{"id": "b", "content": "2!"}, {"id": "d", "content": "4"}, {"id": "c", "content": "3?"}, {"id": "e", "content": "5"}])
    );
    // Edited in the form, removed on disk: the person decides, by the entry's id.
    let theirs = json!([{"id": "a", "content": "1"}, {"id": "c", "content": "3"}]);
    let m = merge(&base, &ours, &theirs, &none());
    assert_eq!(places(&m.conflicts), ["[b]"]);
    assert_eq!(m.doc.as_array().unwrap().len(), 4);
    let m = merge(&base, &ours, &theirs, &["[b]".to_string()].into());
    assert_eq!(m.doc.as_array().unwrap().len(), 3);
}

#[test]
fn entries_appended_on_both_sides_are_all_kept() {
    let base = json!({"worldbook": [{"title": "A"}]});
    let ours = json!({"worldbook": [{"title": "A!"}, {"title": "Mine"}]});
    let theirs = json!({"worldbook": [{"title": "A"}, {"title": "Theirs"}]});
    let m = merge(&base, &ours, &theirs, &none());
    assert!(m.conflicts.is_empty(), "{:#?}", m.conflicts);
    assert_eq!(
        m.doc,
        json!({"worldbook": [{"title": "A!"}, {"title": "Mine"}, {"title": "Theirs"}]})
    );
}

#[test]
fn a_list_shortened_on_a_side_while_the_other_changed_it_is_one_decision() {
    let base = json!({"alternates": ["a", "b"]});
    let ours = json!({"alternates": ["a!", "b"]});
    let theirs = json!({"alternates": ["b"]});
    let m = merge(&base, &ours, &theirs, &none());
    assert_eq!(places(&m.conflicts), ["alternates"]);
    assert_eq!(m.doc, ours);
    // Shortened on one side only: taken.
    let m = merge(&base, &base, &theirs, &none());
    assert_eq!((m.doc, m.conflicts.len()), (theirs, 0));
}
