use serde_json::{json, Value};

use super::*;

fn fixture() -> Pack {
    crate::load(&test_support::repo().join("tests/fixtures/bench-pack"))
        .expect("the bench fixture loads")
}

/// The offline room's variables: the world card's defaults.
fn vars(pack: &Pack) -> Vec<Var> {
    pack.variables
        .iter()
        .map(|d| Var {
            id: d.id.clone(),
            kind: d.kind.clone(),
            value: d.default.clone(),
            hidden: d.keeper_only,
        })
        .collect()
}

/// What an engine that agrees with us in everything would show `keeper` (the engine sends
/// keeper-only variables to no one).
fn agreeing(pack: &Pack, keeper: bool) -> Seen {
    Seen {
        panels: pack
            .panels
            .iter()
            .filter(|p| p.audience.reaches(keeper))
            .map(|p| p.wire.clone())
            .collect(),
        variables: pack
            .variables
            .iter()
            .filter(|d| !d.keeper_only)
            .map(|d| json!({"id": d.id, "label": d.label("en"), "kind": d.kind, "value": d.default}))
            .collect(),
        cards: Some(
            pack.cards
                .iter()
                .map(|c| json!({"ref": format!("{}/{}", pack.id, c.path), "pack": pack.id, "name": "x", "kind": c.kind}))
                .collect(),
        ),
    }
}

fn findings(list: &[Difference]) -> Vec<String> {
    list.iter()
        .filter(|d| d.known.is_none())
        .map(|d| {
            format!(
                "{} {} {}: {} ({})",
                d.audience, d.subject, d.id, d.what, d.file
            )
        })
        .collect()
}

#[test]
fn an_engine_that_agrees_leaves_only_the_known_difference() {
    let pack = fixture();
    let list = compare(
        &pack,
        &vars(&pack),
        &agreeing(&pack, true),
        &agreeing(&pack, false),
    );
    assert_eq!(findings(&list), Vec::<String>::new());
    // The keeper-only `culprit` is the one kept difference, with its reason.
    let known: Vec<_> = list
        .iter()
        .filter(|d| d.known.is_some())
        .map(|d| (d.audience, d.id.as_str()))
        .collect();
    assert_eq!(known, vec![("keeper", "culprit")]);
}

#[test]
fn each_disagreement_is_named_with_its_file() {
    let pack = fixture();
    let mut keeper = agreeing(&pack, true);
    let mut player = agreeing(&pack, false);
    // The engine titles a panel differently for the keeper, and leaks the keeper's panel to
    // the player.
    let notes = keeper
        .panels
        .iter_mut()
        .find(|p| p["id"] == "bench-pack/notes")
        .unwrap();
    notes["title"] = json!({"en": "Notebook"});
    let secrets: Value = pack
        .panels
        .iter()
        .find(|p| p.id == "bench-pack/secrets")
        .unwrap()
        .wire
        .clone();
    player.panels.push(secrets);
    // A value the engine clamped, and a card it reads as a character.
    player.variables[0]["value"] = json!(0);
    player.cards.as_mut().unwrap()[0]["kind"] = json!("character");
    let got = findings(&compare(&pack, &vars(&pack), &keeper, &player));
    assert_eq!(
        got,
        vec![
            "keeper panel bench-pack/notes: title: offline {\"en\":\"Notes\",\"zh\":\"笔记\"}, engine {\"en\":\"Notebook\"} (ui/panels.yaml)",
            "player panel bench-pack/secrets: the engine shows this panel; the offline table does not (ui/panels.yaml)",
            "player variable tide: value: offline 1, engine 0 (cards/world.lorecard.json)",
            "player card cards/world.lorecard.json: kind: offline world, engine character (cards/world.lorecard.json)",
        ]
    );
}

#[test]
fn a_panel_or_variable_on_one_side_only_is_a_finding() {
    let pack = fixture();
    let mut keeper = agreeing(&pack, true);
    keeper.panels.retain(|p| p["id"] != "bench-pack/echo");
    keeper
        .variables
        .push(json!({"id": "moon", "label": "Moon", "kind": "text", "value": "new"}));
    keeper.cards = Some(Vec::new());
    let got = findings(&compare(
        &pack,
        &vars(&pack),
        &keeper,
        &agreeing(&pack, false),
    ));
    assert_eq!(
        got,
        vec![
            "keeper panel bench-pack/echo: the offline table shows this panel; the engine does not (ui/panels.yaml)",
            "keeper variable moon: the engine has this variable; the offline table does not ()",
            "keeper card cards/world.lorecard.json: the offline table lists this card; the engine does not (cards/world.lorecard.json)",
        ]
    );
}

#[test]
fn numbers_compare_by_value_and_other_packs_are_not_ours() {
    let pack = fixture();
    let mut keeper = agreeing(&pack, true);
    keeper.variables[0]["value"] = json!(1.0);
    keeper
        .panels
        .push(json!({"id": "other/x", "title": {"en": "X"}, "slot": "tray", "tier": 1}));
    let got = findings(&compare(
        &pack,
        &vars(&pack),
        &keeper,
        &agreeing(&pack, false),
    ));
    assert_eq!(got, Vec::<String>::new());
}
