//! A `visible_when` expression (first line) against variables (the rest, as JSON), through
//! the parser and the evaluator. An expression that parses must evaluate or error, never
//! panic. The gate is judged against the parsed expression itself, not against another
//! wrapper that could turn errors into the same answer:
//! - it shows exactly when the expression parses, evaluates, and its value is truthy;
//! - it fails closed: an expression that errors hides, and so does its negation;
//! - `!(e)` shows exactly when `e` evaluates to something falsy;
//! - an absent gate shows, a gate that is not a string hides.

#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::condexpr::{is_visible, parse, truthy};
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (expr, vars) = text.split_once('\n').unwrap_or((text, "{}"));
    let vars: Map<String, Value> = serde_json::from_str(vars).unwrap_or_default();
    let lookup = |name: &str| vars.get(name).cloned();
    let gate = |e: &str| is_visible(Some(&Value::String(e.to_string())), &lookup);

    let value = parse(expr).and_then(|parsed| parsed.eval(&lookup));
    let shown = gate(expr);
    assert_eq!(
        shown,
        value.as_ref().is_ok_and(truthy),
        "the gate disagrees with the expression's value {value:?}"
    );
    // Negation inverts a value, never an error: an error must not turn into "show". (Only
    // without parentheses in `e`, which could otherwise close the wrapper early.)
    if !expr.contains(['(', ')']) {
        let wrapped = format!("!({expr})");
        let negated = gate(&wrapped);
        // The wrapper may itself be refused (it is two characters longer): that hides too.
        match (&value, parse(&wrapped)) {
            (Ok(v), Ok(_)) => assert_eq!(negated, !truthy(v), "!(e) is not the negation of {v:?}"),
            (Err(e), _) => assert!(!negated, "a gate that errors ({e:?}) shows once negated"),
            (_, Err(e)) => assert!(!negated, "a refused gate ({e:?}) shows"),
        }
    }
    assert!(is_visible(None, &lookup), "an absent gate hides");
    assert!(
        !is_visible(Some(&Value::Bool(true)), &lookup),
        "a gate that is not a string shows"
    );
});
