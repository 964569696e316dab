use super::*;
use serde_json::json;

fn resolve(blocks: Value, variables: Value, locale: &str) -> Vec<Value> {
    resolve_panel_blocks(
        blocks.as_array().unwrap(),
        variables.as_array().unwrap(),
        locale,
    )
}

#[test]
fn visible_when_sees_only_visible_variables() {
    let vars = json!([{"id": "secret", "label": "s", "value": true, "hidden": true}]);
    let blocks = json!([
        {"kind": "badge", "label": "shown", "visible_when": "!secret"},
        {"kind": "badge", "label": "never", "visible_when": "secret"}
    ]);
    assert_eq!(
        resolve(blocks, vars, "en"),
        vec![json!({"kind": "badge", "label": "shown"})]
    );
}

#[test]
fn inner_gate_decides_per_instance() {
    let vars = json!([
        {"id": "clue.a", "label": "A", "value": 1},
        {"id": "clue.b", "label": "B", "value": 0},
        {"id": "clue.a", "label": "dup", "value": 9}
    ]);
    // The gate reads the FIRST variable of an id; the repeat still visits every match.
    let blocks = json!([{"repeat": {"prefix": "clue.", "block":
        {"kind": "stat", "label": {"$leaf": "label"}, "value": {"$leaf": "value"}, "visible_when": "clue.a == 1"}}}]);
    assert_eq!(resolve(blocks, vars, "en").len(), 3);
}

#[test]
fn locale_uses_its_language_prefix() {
    let blocks = json!([{"kind": "text", "text": {"en": "Gate", "zh": "门"}}]);
    assert_eq!(
        resolve(blocks, json!([]), "zh-CN"),
        vec![json!({"kind": "text", "text": "门"})]
    );
}

#[test]
fn text_stringifies_like_js() {
    let vars =
        json!([{"id": "f", "label": "f", "value": 2.5}, {"id": "i", "label": "i", "value": 3.0}]);
    let blocks =
        json!([{"kind": "text", "text": {"$var": "f"}}, {"kind": "text", "text": {"$var": "i"}}]);
    let out = resolve(blocks, vars, "en");
    assert_eq!(
        out,
        vec![
            json!({"kind": "text", "text": "2.5"}),
            json!({"kind": "text", "text": "3"})
        ]
    );
}

#[test]
fn map_pin_binds_its_coordinates() {
    let vars = json!([{"id": "px", "label": "px", "value": 0.5}, {"id": "flag", "label": "f", "value": true}]);
    let pin = |x: Value| json!([{"kind": "map_pin", "hash": "h", "label": "L", "x": x, "y": 0}]);
    assert_eq!(
        resolve(pin(json!({"$var": "px"})), vars.clone(), "en")[0]["x"],
        json!(0.5)
    );
    assert!(
        resolve(pin(json!({"$var": "flag"})), vars.clone(), "en").is_empty(),
        "a bool is not a number"
    );
    assert!(
        resolve(pin(json!("0.5")), vars, "en").is_empty(),
        "a string is not a number"
    );
}

#[test]
fn unknown_kinds_and_malformed_blocks_drop() {
    let blocks = json!([{"kind": "hologram"}, 7, null, {"label": "no kind"}, {"kind": "divider", "visible_when": 1}]);
    assert!(resolve(blocks, json!([]), "en").is_empty());
}

#[test]
fn meter_keeps_number_forms() {
    let blocks = json!([{"kind": "meter", "label": "HP", "value": 2.5, "min": 0, "max": 10}]);
    assert_eq!(
        resolve(blocks, json!([]), "en"),
        vec![json!({"kind": "meter", "label": "HP", "value": 2.5, "min": 0, "max": 10})]
    );
}
