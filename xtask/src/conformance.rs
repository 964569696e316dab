//! `cargo xtask conformance <file>...`: golden vector tables, detected by shape.

use protocol::conformance::{detect, run_table};

pub fn run(files: &[String]) -> Result<(), String> {
    if files.is_empty() {
        return Err("usage: cargo xtask conformance <table.json>...".into());
    }
    let (mut passed, mut failed) = (0, 0);
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let table: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{file}: not JSON: {e}"))?;
        let Some(kind) = detect(&table) else {
            return Err(format!(
                "{file}: neither a visible_when nor a panel template table"
            ));
        };
        let report = run_table(&table);
        eprintln!(
            "{file}: {kind:?}: {} passed, {} failed",
            report.passed,
            report.failed.len()
        );
        for failure in &report.failed {
            println!("FAIL {file}: {}: {}", failure.id_or_expr, failure.detail);
        }
        passed += report.passed;
        failed += report.failed.len();
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} conformance case(s) failed"))
    }
}
