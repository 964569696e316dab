use super::*;
use serde_json::json;

fn eval(expr: &str, vars: Value) -> Result<bool, CondError> {
    evaluate_in(expr, vars.as_object().expect("vars object"))
}

#[test]
fn length_limit_is_500() {
    let ok = format!("a{}", " ".repeat(MAX_EXPR_LEN - 1));
    assert_eq!(eval(&ok, json!({"a": 1})), Ok(true));
    let long = format!("a{}", " ".repeat(MAX_EXPR_LEN));
    assert_eq!(parse(&long), Err(CondError::TooLong(501)));
}

#[test]
fn token_limit_is_200() {
    // `( ... a ... )` with n parens on each side: 2n + 1 tokens.
    let nested = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
    assert!(parse(&nested(99)).is_ok()); // 199 tokens
    let exactly = format!("{} && b", nested(98)); // 197 + 2 = 199
    assert!(parse(&exactly).is_ok());
    let two_hundred = format!("!{} && b", nested(98));
    assert!(parse(&two_hundred).is_ok());
    let over = format!("!!{} && b", nested(98)); // 201 tokens
    assert_eq!(parse(&over), Err(CondError::TooManyTokens));
}

#[test]
fn cjk_and_dotted_paths_are_one_id() {
    let vars = json!({"mvu.潮位": 8, "祭典日": 3, "clue.0": "x"});
    assert_eq!(eval("mvu.潮位 >= 7", vars.clone()), Ok(true));
    assert_eq!(eval("祭典日 === 3", vars.clone()), Ok(true));
    // A numeric segment prints as its number, like the reference.
    assert_eq!(parse("clue.00"), Ok(Expr::Ref("clue.0".into())));
    assert_eq!(eval("clue.00 == 'x'", vars), Ok(true));
}

#[test]
fn outside_the_subset_fails_to_parse() {
    for expr in [
        "day + 1 > 46",
        "day - 1 > 46",
        "day * 2 > 46",
        "day / 2 > 23",
        "day % 2 === 0",
        "getvar('day') > 46",
        "floor(day) > 46",
        "clues[0] === 'ash'",
        "day >= -1",
        "a = 1",
        "a.true",
        "a <",
        "(a",
        "a b",
        "'open",
        "",
        "   ",
        "a < b < c",
    ] {
        assert!(parse(expr).is_err(), "{expr:?} should be rejected");
    }
}

#[test]
fn loose_and_strict_equality() {
    let vars = json!({"t": true, "s": "2", "n": 2, "f": 2.0, "e": ""});
    assert_eq!(eval("t == 1", vars.clone()), Ok(true));
    assert_eq!(eval("t === 1", vars.clone()), Ok(false));
    assert_eq!(eval("s == n", vars.clone()), Ok(true));
    assert_eq!(eval("n === f", vars.clone()), Ok(true), "one number type");
    assert_eq!(eval("n === 2.0", vars.clone()), Ok(true));
    assert_eq!(
        eval("e == 0", vars.clone()),
        Ok(false),
        "a blank string is not 0"
    );
    assert_eq!(eval("missing == undefined", vars.clone()), Ok(true));
    assert_eq!(eval("missing == 0", vars), Ok(false));
}

#[test]
fn ordering_rules() {
    let vars = json!({"s": "10", "w": "abc", "t": true});
    assert_eq!(
        eval("s > 9", vars.clone()),
        Ok(true),
        "numeric strings order as numbers"
    );
    assert_eq!(
        eval("s > '9'", vars.clone()),
        Ok(true),
        "even against another numeric string"
    );
    assert_eq!(eval("w < 'abd'", vars.clone()), Ok(true));
    assert_eq!(eval("t > 0", vars.clone()), Ok(true));
    assert!(matches!(
        eval("w > 5", vars.clone()),
        Err(CondError::Unorderable(..))
    ));
    assert!(eval("null < 1", vars).is_err());
}

#[test]
fn not_binds_looser_than_comparison() {
    // `!a == b` is `!(a == b)` in the reference grammar, not `(!a) == b`.
    assert_eq!(eval("!a == 1", json!({"a": 1})), Ok(false));
    assert_eq!(
        eval("NOT a AND True", json!({"a": 0})),
        Ok(true),
        "case-insensitive words"
    );
}

#[test]
fn dead_branch_is_walked_with_a_probe() {
    assert_eq!(eval("false && day > 46", json!({})), Ok(false));
    assert_eq!(eval("true || day > 46", json!({})), Ok(true));
    // The probe does not hide a literal error in the dead branch.
    assert!(eval("false && 'a' > 5", json!({})).is_err());
}

#[test]
fn value_of_logic_is_the_operand() {
    let tree = parse("a || 'x'").unwrap();
    assert_eq!(tree.eval(&|_| None), Ok(json!("x")));
}

#[test]
fn gate_fails_closed() {
    let none = |_: &str| None;
    assert!(is_visible(None, &none));
    assert!(!is_visible(Some(&json!("")), &none));
    assert!(
        !is_visible(Some(&json!(true)), &none),
        "a non-string gate hides"
    );
    assert!(!is_visible(Some(&json!("missing > 5")), &none));
    assert!(is_visible(Some(&json!("!missing")), &none));
}

#[test]
fn numeric_string_coercion_follows_js_number() {
    for (s, n) in [
        (" 7 ", 7.0),
        ("0x10", 16.0),
        ("1e3", 1000.0),
        (".5", 0.5),
        ("-2", -2.0),
    ] {
        assert_eq!(as_number(&json!(s)), Some(n), "{s:?}");
    }
    for s in ["", "inf", "Infinity", "NaN", "1_000", "0x+1", "1e", "abc"] {
        assert_eq!(as_number(&json!(s)), None, "{s:?}");
    }
}

#[test]
fn js_number_strings() {
    assert_eq!(js_number_string(3.0), "3");
    assert_eq!(js_number_string(-0.0), "0");
    assert_eq!(js_number_string(0.1), "0.1");
    assert_eq!(js_number_string(1e21), "1e+21");
    assert_eq!(js_number_string(1.5e-7), "1.5e-7");
    assert_eq!(js_number_string(123456789.0), "123456789");
}
