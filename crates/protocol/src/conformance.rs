//! A pure runner for the shared golden-vector tables (`visible_when_vectors.json`,
//! `panel_template_vectors.json`). The caller reads the files; this only judges rows, so
//! the same runner can serve a test, a CLI, or a diagnostics screen in the wasm UI.

use serde_json::{Map, Value};

use crate::{condexpr, template};

/// Which table a JSON document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    VisibleWhen,
    PanelTemplate,
}

/// One failing row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The case `id` (template table) or `expr` (condition table).
    pub id_or_expr: String,
    pub detail: String,
}

/// The verdict over a whole table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableReport {
    pub passed: usize,
    pub failed: Vec<Failure>,
}

impl TableReport {
    pub fn ok(&self) -> bool {
        self.failed.is_empty()
    }

    fn record(&mut self, id_or_expr: &str, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => self.passed += 1,
            Err(detail) => self.failed.push(Failure {
                id_or_expr: id_or_expr.to_owned(),
                detail,
            }),
        }
    }
}

/// Recognize a table by shape: a `cases` array whose rows carry `expr` (conditions) or
/// `blocks` (templates). A `rejected` array alone also marks a condition table.
pub fn detect(table: &Value) -> Option<TableKind> {
    let cases = table.get("cases").and_then(Value::as_array);
    let has = |key: &str| cases.is_some_and(|c| c.iter().any(|row| row.get(key).is_some()));
    if has("blocks") {
        Some(TableKind::PanelTemplate)
    } else if has("expr") || table.get("rejected").is_some_and(Value::is_array) {
        Some(TableKind::VisibleWhen)
    } else {
        None
    }
}

/// Run every row of a table. An unrecognized document is one failure, never a pass; so are a
/// table with no rows, a key the table kind does not have (at the top or in a row: a typo must
/// not pass as a default), and a row whose fields are missing or of the wrong type.
pub fn run_table(table: &Value) -> TableReport {
    let mut report = TableReport::default();
    let kind = detect(table);
    let (top, row_keys): (&[&str], &[&str]) = match kind {
        Some(TableKind::VisibleWhen) => (
            &["_comment", "cases", "rejected"],
            &["expr", "vars", "expect", "reject", "why"],
        ),
        Some(TableKind::PanelTemplate) => (
            &["_comment", "cases"],
            &["id", "why", "blocks", "variables", "locale", "expect"],
        ),
        None => {
            report.record("<table>", Err("not a recognized vector table".into()));
            return report;
        }
    };
    if let Some(obj) = table.as_object() {
        for key in obj.keys().filter(|k| !top.contains(&k.as_str())) {
            report.record("<table>", Err(format!("unknown top-level key `{key}`")));
        }
    }
    for list in ["cases", "rejected"] {
        for (i, row) in rows(table, list).enumerate() {
            match row.as_object() {
                Some(obj) => {
                    for key in obj.keys().filter(|k| !row_keys.contains(&k.as_str())) {
                        report.record(
                            &format!("{list}#{i}"),
                            Err(format!("unknown key `{key}` in a row")),
                        );
                    }
                }
                None => report.record(&format!("{list}#{i}"), Err("a row is not an object".into())),
            }
        }
    }
    let before = report.passed + report.failed.len();
    match kind {
        Some(TableKind::VisibleWhen) => run_visible_when(table, &mut report),
        _ => run_panel_template(table, &mut report),
    }
    if report.passed + report.failed.len() == before {
        report.record("<table>", Err("the table has no rows".into()));
    }
    report
}

fn rows<'a>(table: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    table
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn run_visible_when(table: &Value, report: &mut TableReport) {
    for case in rows(table, "cases") {
        let expr = case.get("expr").and_then(Value::as_str);
        let label = expr.unwrap_or("<missing expr>");
        let outcome = match expr {
            None => Err("case has no string `expr`".into()),
            // The brief allows inline `reject: true` rows as well as the `rejected` list.
            Some(expr) if case.get("reject") == Some(&Value::Bool(true)) => check_rejected(expr),
            Some(expr) => match case.get("vars").and_then(Value::as_object) {
                Some(vars) => check_condition(expr, vars, case.get("expect")),
                None => Err("case has no object `vars`".into()),
            },
        };
        report.record(label, outcome);
    }
    for case in rows(table, "rejected") {
        match case.get("expr").and_then(Value::as_str) {
            Some(expr) => report.record(expr, check_rejected(expr)),
            None => report.record(
                "<missing expr>",
                Err("rejected row has no string `expr`".into()),
            ),
        }
    }
}

fn check_condition(
    expr: &str,
    vars: &Map<String, Value>,
    expect: Option<&Value>,
) -> Result<(), String> {
    let got = condexpr::evaluate_in(expr, vars);
    match (expect, &got) {
        (Some(Value::Bool(want)), Ok(have)) if want == have => Ok(()),
        (Some(Value::String(e)), Err(_)) if e == "error" => Ok(()),
        (Some(Value::Bool(_)), _) | (Some(Value::String(_)), _) => Err(format!(
            "expected {}, got {got:?}",
            expect.map_or("?".into(), Value::to_string)
        )),
        _ => Err(format!("unusable `expect` {expect:?}")),
    }
}

/// Outside the subset: must fail to PARSE. An expression that parses and only errors when
/// evaluated was accepted by the parser — a client would hand it to its evaluator — so it
/// does not count as rejected.
fn check_rejected(expr: &str) -> Result<(), String> {
    match condexpr::parse(expr) {
        Err(_) => Ok(()),
        Ok(tree) => Err(format!(
            "the parser accepted an expression outside the subset (parsed {tree:?})"
        )),
    }
}

fn run_panel_template(table: &Value, report: &mut TableReport) {
    for (index, case) in rows(table, "cases").enumerate() {
        let id = case
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("#{index}"), str::to_owned);
        let fields = (
            case.get("id").and_then(Value::as_str),
            case.get("blocks").and_then(Value::as_array),
            case.get("variables").and_then(Value::as_array),
            case.get("locale").and_then(Value::as_str),
            case.get("expect"),
        );
        let outcome = match fields {
            (Some(_), Some(blocks), Some(variables), Some(locale), Some(want)) => {
                let got = Value::Array(template::resolve_panel_blocks(blocks, variables, locale));
                if js_deep_equal(want, &got) {
                    Ok(())
                } else {
                    Err(format!("expected {want}\n     got {got}"))
                }
            }
            _ => Err(
                "a case needs a string `id`, arrays `blocks` and `variables`, a string `locale` \
                 and an `expect`"
                    .into(),
            ),
        };
        report.record(&id, outcome);
    }
}

/// Deep equality as the reference suites judge it: one number type (`1` equals `1.0`),
/// object key order irrelevant, and an absent key equal to one holding `undefined`.
/// JSON cannot spell `undefined`, so the last rule means only that neither side may add
/// keys: the resolver never emits a key it has no value for.
pub fn js_deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| js_deep_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| js_deep_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detects_by_shape() {
        assert_eq!(
            detect(&json!({"cases": [{"expr": "a"}]})),
            Some(TableKind::VisibleWhen)
        );
        assert_eq!(
            detect(&json!({"cases": [{"blocks": []}]})),
            Some(TableKind::PanelTemplate)
        );
        assert_eq!(detect(&json!({"cases": []})), None);
        assert_eq!(run_table(&json!({})).failed.len(), 1);
    }

    #[test]
    fn reports_a_wrong_row() {
        let table = json!({"cases": [
            {"expr": "a > 1", "vars": {"a": 2}, "expect": true},
            {"expr": "a > 1", "vars": {"a": 2}, "expect": false},
            {"expr": "a + 1", "reject": true}
        ], "rejected": [{"expr": "a > 1"}]});
        let report = run_table(&table);
        assert_eq!(report.passed, 2);
        assert_eq!(report.failed.len(), 2);
    }

    #[test]
    fn a_sloppy_table_fails_instead_of_passing_by_default() {
        // No rows at all.
        assert!(!run_table(&json!({"cases": [], "rejected": []})).ok());
        // An unknown top-level key; a typo in a row.
        let typo = run_table(
            &json!({"cases": [{"expr": "a > 1", "vars": {"a": 2}, "expect": true}], "extra": 1}),
        );
        assert_eq!(typo.failed.len(), 1, "{typo:?}");
        let typo = run_table(
            &json!({"cases": [{"expr": "a > 1", "vars": {"a": 2}, "expect": true, "exepct": false}]}),
        );
        assert_eq!(typo.failed.len(), 1, "{typo:?}");
        // Missing or mistyped fields: no defaults.
        let no_vars = run_table(&json!({"cases": [{"expr": "a > 1", "expect": false}]}));
        assert!(!no_vars.ok());
        let bad_vars =
            run_table(&json!({"cases": [{"expr": "a > 1", "vars": [], "expect": false}]}));
        assert!(!bad_vars.ok());
        let tpl = run_table(
            &json!({"cases": [{"id": "x", "blocks": [], "variables": [], "expect": []}]}),
        );
        assert!(!tpl.ok(), "a template case without its locale");
        let tpl = run_table(
            &json!({"cases": [{"id": "x", "blocks": [], "variables": [], "locale": "en", "expect": []}]}),
        );
        assert!(tpl.ok(), "{tpl:?}");
    }

    #[test]
    fn parsing_is_the_only_rejection() {
        // `a > 'x'` parses; evaluated (every reference answering 1) it errors as unorderable.
        // Still accepted by the parser, so not rejected.
        let report = run_table(&json!({"rejected": [{"expr": "a > 'x'"}, {"expr": "a +"}]}));
        assert_eq!(report.passed, 1);
        assert_eq!(report.failed.len(), 1);
    }

    #[test]
    fn numbers_compare_as_one_type() {
        assert!(js_deep_equal(
            &json!({"x": 1, "y": [0]}),
            &json!({"y": [0.0], "x": 1.0})
        ));
        assert!(!js_deep_equal(
            &json!({"x": 1}),
            &json!({"x": 1, "y": null})
        ));
    }
}
