//! Runs the SHARED golden-vector tables (the same files the engine's and the reference
//! client's suites run) through `protocol::conformance`. A row that moves fails here.

use protocol::conformance::{detect, run_table, TableKind};
use serde_json::Value;

fn load(name: &str) -> Value {
    let text = test_support::read_shared(&format!("conformance/{name}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {name}: {e}"))
}

fn rows(table: &Value, key: &str) -> usize {
    table.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

fn assert_all_pass(name: &str, kind: TableKind) {
    let table = load(name);
    assert_eq!(detect(&table), Some(kind), "{name}: table shape");
    let report = run_table(&table);
    for failure in &report.failed {
        eprintln!("FAIL {name} [{}]: {}", failure.id_or_expr, failure.detail);
    }
    let total = rows(&table, "cases") + rows(&table, "rejected");
    eprintln!("{name}: {} / {total} rows pass", report.passed);
    assert!(
        report.failed.is_empty(),
        "{name}: {} row(s) failed",
        report.failed.len()
    );
    assert_eq!(report.passed, total, "{name}: every row must be judged");
}

#[test]
fn visible_when_vectors() {
    assert_all_pass("visible_when_vectors.json", TableKind::VisibleWhen);
}

#[test]
fn panel_template_vectors() {
    assert_all_pass("panel_template_vectors.json", TableKind::PanelTemplate);
}
