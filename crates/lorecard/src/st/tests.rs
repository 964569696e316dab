use super::*;

fn card() -> Lorecard {
    let mut card = Lorecard::new("回廊公寓");
    card.opening = "雨声里".into();
    card.alternate_openings = vec!["醒来".into()];
    card.hooks = vec![json!("on('turn', f)"), json!({"code": "g()"})];
    card.worldbook = vec![
        Entry {
            title: "住户名册".into(),
            content: "名册末页".into(),
            keys: vec!["名册".into()],
            secondary_keys: vec!["末页".into()],
            condition: "世界.日   >= 2".into(),
            selective_logic: "not_any".into(),
            probability: 40,
            position: "after".into(),
            id: Some("roster".into()),
            ..Entry::default()
        },
        Entry {
            title: "管理员的秘密".into(),
            content: "不是人类".into(),
            secret: true,
            ..Entry::default()
        },
    ];
    card.variables = serde_json::from_value(json!([
        {"id": "sanity", "kind": "number", "default": 80, "minimum": 0, "maximum": 100},
        {"id": "truth", "kind": "number", "visibility": "keeper", "default": 0}
    ]))
    .unwrap();
    card
}

#[test]
fn release_keeps_everything_and_reads_back_to_the_same_card() {
    let card = card();
    let v3 = export_v3(&card, Flavour::Release);
    assert_eq!(v3["spec"], "chara_card_v3");
    let entries = v3["data"]["character_book"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["content"], "@@if 世界.日 >= 2\n名册末页");
    assert_eq!(entries[0]["position"], "after_char");
    // Read by SillyTavern (extensions) and by the engine (top level).
    assert_eq!(entries[0]["extensions"]["selectiveLogic"], 2);
    assert_eq!(entries[0]["selective_logic"], "not_any");
    assert_eq!(entries[0]["probability"], 40);
    assert_eq!(entries[1]["secret"], true);
    assert_eq!(
        v3["data"]["extensions"]["loreweaver_hooks"][1]["code"],
        "g()"
    );
    let back = import(&v3).unwrap();
    assert_eq!(back.left_out, Vec::<String>::new());
    let mut want = card.clone();
    want.worldbook[0].condition = "世界.日 >= 2".into();
    assert_eq!(back.card, want);
}

#[test]
fn safe_strips_keeper_only_lore_and_variables() {
    let v2 = export_v2(&card(), Flavour::Safe);
    let text = v2.to_string();
    assert!(
        !text.contains("不是人类"),
        "keeper-only lore in a safe card"
    );
    assert!(
        !text.contains("truth"),
        "a keeper-only variable in a safe card"
    );
    assert!(text.contains("sanity"));
    assert_eq!(v2["spec"], "chara_card_v2");
}

#[test]
fn what_cannot_be_carried_is_listed() {
    let st = json!({
        "spec": "chara_card_v2",
        "data": {
            "name": "A",
            "system_prompt": "be terse",
            "extensions": {"depth_prompt": {"prompt": "x"}},
            "character_book": {"entries": [
                {"comment": "e", "content": "c", "use_regex": true, "position": 4,
                 "extensions": {"group": "g", "probability": 50, "useProbability": true}},
                "junk"
            ]}
        }
    });
    let imported = import(&st).unwrap();
    assert_eq!(
        imported.left_out,
        [
            "data.system_prompt",
            "data.extensions.depth_prompt",
            "entry \"e\": use_regex",
            "entry \"e\": group",
            "entry \"e\": position",
            "character_book.entries[1]: not an object",
        ]
    );
    assert_eq!(imported.card.worldbook[0].probability, 50);
}

#[test]
fn a_bare_v1_card_and_st_world_info_names_are_read() {
    let st = json!({
        "name": "B", "first_mes": "hi",
        "character_book": {"entries": [
            {"key": "k", "keysecondary": ["s"], "selectiveLogic": 3, "insertion_order": 7,
             "content": "@@if x == 1\nbody", "position": 0, "useProbability": false, "probability": 5}
        ]}
    });
    let card = import(&st).unwrap().card;
    let e = &card.worldbook[0];
    assert_eq!(card.opening, "hi");
    assert_eq!(
        (e.keys.clone(), e.secondary_keys.clone()),
        (vec!["k".into()], vec!["s".into()])
    );
    assert_eq!(e.selective_logic, "and_all");
    assert_eq!((e.priority, e.probability), (7, 100));
    assert_eq!(
        (e.condition.as_str(), e.content.as_str()),
        ("x == 1", "body")
    );
    assert_eq!(e.position, "before");
}

#[test]
fn any_card_file_is_imported_and_exported_in_each_form() {
    let card = card();
    let native = crate::export(&card, crate::Export::Native, None).unwrap();
    assert_eq!(crate::import_bytes(&native).unwrap().card, card);
    let json = crate::export(&card, crate::Export::named("st-safe").unwrap(), None).unwrap();
    let safe = crate::import_bytes(&json).unwrap().card;
    assert_eq!(
        safe.worldbook.len(),
        1,
        "the keeper-only entry went out in a safe card"
    );
    let png_form = crate::Export::named("png-release").unwrap();
    assert!(
        crate::export(&card, png_form, None).is_err(),
        "a PNG card with no image"
    );
    assert_eq!(crate::Export::named("zip"), None);
}
