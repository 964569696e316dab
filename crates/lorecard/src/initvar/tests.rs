use serde_json::json;

use super::*;
use crate::card::Entry;

fn card_with(title: &str, content: &str) -> Lorecard {
    let mut card = Lorecard::new("MVU");
    card.worldbook.push(Entry {
        title: "Town".into(),
        content: "A town.".into(),
        ..Entry::default()
    });
    card.worldbook.push(Entry {
        title: title.into(),
        content: content.into(),
        ..Entry::default()
    });
    card
}

const JSON5: &str = r#"{
  // the world
  "世界": { "日": [1, "第几天, 范围 1~30"], 'weather': 'rain', },
  player: {
    hp: [10, "[0,10] health"],
    /* a float stays in the tree */
    mood: [0.5, "[-1,1]"],
    brave: true,
    items: ["rope", "lamp", "map"],
    note: "see http://example.org // not a comment",
  },
}"#;

#[test]
fn json5_lite_reads_as_the_engine_reads_it() {
    let tree = parse(JSON5).expect("a tree");
    assert_eq!(
        Value::Object(tree),
        json!({
            "世界": {"日": [1, "第几天, 范围 1~30"], "weather": "rain"},
            "player": {
                "hp": [10, "[0,10] health"],
                "mood": [0.5, "[-1,1]"],
                "brave": true,
                "items": ["rope", "lamp", "map"],
                "note": "see http://example.org // not a comment",
            }
        })
    );
}

#[test]
fn yaml_trees_read_with_yaml_1_1_booleans_and_no_aliases() {
    let tree = parse("player:\n  hp: [10, \"[0,10]\"]\n  brave: yes\n").expect("YAML");
    assert_eq!(
        Value::Object(tree),
        json!({"player": {"hp": [10, "[0,10]"], "brave": true}})
    );
    assert_eq!(parse("a: &x 1\nb: *x\n"), None, "an alias is refused");
    assert_eq!(parse("- 1\n- 2\n"), None, "a list is no tree");
    assert_eq!(parse("{'a': 'unterminated}"), None);
    assert_eq!(parse("   "), None);
}

#[test]
fn each_leaf_is_offered_typed_or_says_why_not() {
    let card = card_with("「[InitVar]变量」", JSON5);
    let offered = proposals(&card);
    let by_path = |p: &str| offered.iter().find(|o| o.path == p).expect(p);
    let paths: Vec<&str> = offered.iter().map(|o| o.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "世界.日",
            "世界.weather",
            "player.hp",
            "player.mood",
            "player.brave",
            "player.items",
            "player.note"
        ]
    );
    assert!(offered.iter().all(|o| o.entry == 1));

    let day = by_path("世界.日").variable.clone().expect("a number");
    assert_eq!((day.id.as_str(), day.kind.as_str()), ("世界_日", "number"));
    assert_eq!(day.default, json!(1));
    assert_eq!(
        (day.minimum, day.maximum),
        (Some(1.into()), Some(30.into()))
    );
    assert_eq!(day.visibility, "keeper", "an MVU tree is keeper-side");
    assert_eq!(
        by_path("世界.日").description.as_deref(),
        Some("第几天, 范围 1~30")
    );
    assert!(day.extra.is_empty(), "the engine keeps no description");

    let hp = by_path("player.hp").variable.clone().unwrap();
    assert_eq!((hp.minimum, hp.maximum), (Some(0.into()), Some(10.into())));
    assert_eq!(
        by_path("player.brave").variable.as_ref().unwrap().kind,
        "bool"
    );
    assert_eq!(
        by_path("世界.weather").variable.as_ref().unwrap().kind,
        "text"
    );
    assert!(by_path("player.mood").variable.is_none());
    assert!(by_path("player.mood").why.contains("whole number"));
    assert!(by_path("player.items").why.contains("list"));
}

#[test]
fn an_id_the_card_already_has_is_not_offered_twice() {
    let mut card = card_with("[InitVar]", "{hp: 3, HP: 4}");
    card.variables.push(Variable {
        id: "x".into(),
        kind: "number".into(),
        visibility: "player".into(),
        labels: Map::new(),
        default: json!(0),
        minimum: None,
        maximum: None,
        options: None,
        extra: Map::new(),
    });
    let offered = proposals(&card);
    assert!(offered[0].variable.is_some());
    assert!(offered[1].variable.is_none(), "HP and hp are one id");
    assert!(offered[1].why.contains("already"), "{}", offered[1].why);
}

#[test]
fn ranges_are_read_from_the_description_only_around_the_value() {
    assert_eq!(range("[-10, 10] mood"), Some((-10, 10)));
    assert_eq!(range("0-100"), Some((0, 100)));
    assert_eq!(range("范围 1 到 5"), Some((1, 5)));
    assert_eq!(range("day 3 of the trip"), None);
    assert_eq!(range("0.5~1"), None);
    let card = card_with("[InitVar]", r#"{gold: [500, "[0,100] purse"]}"#);
    let gold = proposals(&card)[0].variable.clone().unwrap();
    assert_eq!(
        gold.minimum, None,
        "a range the start value breaks is not a range"
    );
}

#[test]
fn ids_follow_the_engines_slug_rules() {
    assert_eq!(
        variable_id("Player.Max HP").as_deref(),
        Some("player_max_hp")
    );
    assert_eq!(variable_id("理.好感度").as_deref(), Some("理_好感度"));
    assert_eq!(variable_id("a.b-c").as_deref(), Some("a_b_c"));
    assert_eq!(variable_id("money$"), None);
    assert_eq!(variable_id(&"x".repeat(65)), None);
    assert_eq!(variable_id(""), None);
}

#[test]
fn promoting_moves_the_chosen_leaves_and_keeps_the_rest_in_the_tree() {
    let mut card = card_with("[InitVar]", JSON5);
    let notes = promote(&mut card, &["player.hp".into(), "player.brave".into()]);
    assert_eq!(
        card.variables
            .iter()
            .map(|v| v.id.as_str())
            .collect::<Vec<_>>(),
        ["player_hp", "player_brave"]
    );
    let left = parse(&card.worldbook[1].content).unwrap();
    assert_eq!(
        Value::Object(left),
        json!({
            "世界": {"日": [1, "第几天, 范围 1~30"], "weather": "rain"},
            "player": {
                "mood": [0.5, "[-1,1]"],
                "items": ["rope", "lamp", "map"],
                "note": "see http://example.org // not a comment",
            }
        })
    );
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("2 leaves"), "{notes:?}");
    // Promoted leaves are no longer offered.
    assert!(proposals(&card).iter().all(|p| p.path != "player.hp"));
}

#[test]
fn promoting_every_leaf_removes_the_entry() {
    let mut card = card_with("[InitVar]", "{a: {b: 1}, c: 'x'}");
    let notes = promote(&mut card, &["a.b".into(), "c".into()]);
    assert_eq!(card.worldbook.len(), 1);
    assert_eq!(card.worldbook[0].title, "Town");
    assert_eq!(card.variables.len(), 2);
    assert!(notes[0].contains("the entry is gone"), "{notes:?}");
}

#[test]
fn a_leaf_that_cannot_be_typed_is_never_promoted() {
    let mut card = card_with("[InitVar]", JSON5);
    let before = card.clone();
    let notes = promote(&mut card, &["player.mood".into(), "nowhere".into()]);
    assert_eq!(card, before);
    assert!(notes.is_empty());
}

#[test]
fn conditions_follow_a_promoted_leaf_and_update_rules_are_pointed_out() {
    let mut card = card_with("[InitVar]", "世界:\n  日: 1\n  日数: 3\n");
    card.worldbook.push(Entry {
        title: "Register".into(),
        content: "A wet line.".into(),
        condition: "世界.日 >= 2 and 世界.日数 > 1".into(),
        ..Entry::default()
    });
    card.worldbook.push(Entry {
        title: "Rules".into(),
        content: "Each day _.set('世界.日', old, old+1)".into(),
        ..Entry::default()
    });
    let notes = promote(&mut card, &["世界.日".into()]);
    let register = card
        .worldbook
        .iter()
        .find(|e| e.title == "Register")
        .unwrap();
    assert_eq!(register.condition, "世界_日 >= 2 and 世界.日数 > 1");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("\"Rules\"") && n.contains("check it")),
        "{notes:?}"
    );
    assert_eq!(replace_name("a.b+a.bc+xa.b", "a.b", "a_b"), "a_b+a.bc+xa.b");
}

#[test]
fn a_flow_key_over_a_line_break_is_no_tree_as_in_the_engine() {
    assert_eq!(parse("{\n  // the world\n  世界: {a: 1},\n}"), None);
    assert_eq!(
        parse("{ 理: { 好感度: 3 }, b: 'x\ny' }").map(Value::Object),
        Some(json!({"理": {"好感度": 3}, "b": "x y"}))
    );
}
