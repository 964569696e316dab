use serde_json::json;

use super::*;

#[test]
fn a_script_that_registers_known_events_is_clean() {
    let code = "on(\"turn_start\", (event) => {\n  incvar(\"turns\", 1);\n});\non('tool_use', e => e.tool === 'x' ? 'no' : undefined);";
    assert_eq!(check(code), vec![]);
}

#[test]
fn a_syntax_error_is_at_its_line_and_column() {
    let code = "on(\"turn_start\", (event) => {\n  let n = ;\n});";
    let problems = check(code);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.skipped);
    assert_eq!((p.line, p.column), (2, 11), "{p:?}");
    assert!(p.message.contains("cannot load"), "{}", p.message);
}

#[test]
fn columns_count_characters_not_bytes() {
    let problems = check("var 世界 = \"日\"; )");
    assert_eq!(
        (problems[0].line, problems[0].column),
        (1, 15),
        "{problems:?}"
    );
}

#[test]
fn the_engine_runs_a_script_not_a_module() {
    // QuickJS evaluates a global script: `import`, `export` and a top-level `return` throw.
    for code in ["import x from 'y';", "export const a = 1;", "return 1;"] {
        assert!(check(code).first().is_some_and(|p| p.skipped), "{code}");
    }
}

#[test]
fn an_event_the_engine_never_fires_is_pointed_at() {
    let code = "on(\"turn_start\", () => {});\n  on(\"turn_end\", () => {});";
    let problems = check(code);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!((problems[0].line, problems[0].column), (2, 6));
    assert!(!problems[0].skipped);
    assert!(problems[0].message.contains("turn_end"));
}

#[test]
fn a_script_over_the_limit_is_skipped() {
    let code = format!("// {}\n", "x".repeat(MAX_HOOK_SOURCE_CHARS));
    let problems = check(&code);
    assert!(problems[0].skipped && problems[0].message.contains("40000"));
    assert_eq!(check(&"x;".repeat(MAX_HOOK_SOURCE_CHARS / 2)), vec![]);
}

#[test]
fn codes_are_strings_or_code_objects_and_blank_ones_are_none() {
    let hooks = [
        json!("on('turn_start', () => {})"),
        json!({"code": "log(1)"}),
        json!("   "),
        json!({"name": "no code"}),
        json!(3),
    ];
    assert_eq!(
        codes(&hooks),
        vec![(0, "on('turn_start', () => {})"), (1, "log(1)")]
    );
}
