use serde_json::json;

use super::*;

#[test]
fn machinery_makes_a_world_card_and_a_plain_persona_is_a_character() {
    let plain = json!({"spec": "chara_card_v2", "data": {"name": "A", "description": "kind",
        "character_book": {"entries": [{"comment": "home", "content": "a house"}]}}});
    assert_eq!(payloads(&plain).kind(), "character");
    let cases = [
        (
            json!({"format": "loreweaver.card", "format_version": 1, "hooks": ["on('turn', f)"]}),
            "hooks",
        ),
        (
            json!({"format": "loreweaver.card", "format_version": 1,
            "variables": [{"id": "hp", "kind": "number"}]}),
            "typed variable",
        ),
        (
            json!({"format": "loreweaver.card", "format_version": 1,
            "worldbook": [{"title": "secret", "content": "x", "secret": true}]}),
            "secret lore",
        ),
        (
            json!({"data": {"character_book": {"entries": [{"comment": "「[InitVar]变量」", "content": "a: 1"}]}},
            "spec": "chara_card_v3"}),
            "InitVar",
        ),
        (
            json!({"name": "x", "character_book": {"entries": [
            {"comment": "v", "content": "@@initial_variables\na: 1"}]}}),
            "decorator",
        ),
        (
            json!({"name": "x", "first_mes": "hello <%= user %>"}),
            "EJS",
        ),
        (
            json!({"spec": "chara_card_v2", "data": {"extensions": {"loreweaver_hooks": [{"code": "x()"}]}}}),
            "ST hooks",
        ),
    ];
    for (card, what) in cases {
        assert_eq!(payloads(&card).kind(), "world", "{what}: {card}");
    }
    // Not machinery: an unknown variable kind, an empty hook, an entry the parser skips.
    let inert = json!({"format": "loreweaver.card", "format_version": 1,
        "variables": [{"id": "x", "kind": "colour"}], "hooks": ["  "],
        "worldbook": [{"title": "s", "content": "", "secret": true}]});
    assert_eq!(payloads(&inert), WorldPayloads::default());
}

#[test]
fn ejs_spans_are_counted_like_the_engine() {
    assert_eq!(ejs_blocks("a <% x %> b <%= y %>"), 2);
    assert_eq!(ejs_blocks("dangling <% x"), 1);
    assert_eq!(ejs_blocks("100% sure <3"), 0);
}
