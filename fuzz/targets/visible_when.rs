//! A `visible_when` expression (first line) against variables (the rest, as JSON), through
//! the parser and the evaluator. An expression that parses must evaluate or error, never panic;
//! the gate must agree with the evaluator, and fail closed when it errors.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::condexpr::{evaluate_in, is_visible, parse};
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (expr, vars) = text.split_once('\n').unwrap_or((text, "{}"));
    let vars: Map<String, Value> = serde_json::from_str(vars).unwrap_or_default();
    let lookup = |name: &str| vars.get(name).cloned();
    if let Ok(parsed) = parse(expr) {
        let _ = parsed.eval(&lookup);
    }
    let verdict = evaluate_in(expr, &vars);
    let shown = is_visible(Some(&Value::String(expr.to_string())), &lookup);
    assert_eq!(
        shown,
        matches!(verdict, Ok(true)),
        "the gate disagrees with the evaluator"
    );
});
