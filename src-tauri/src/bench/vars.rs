//! The variables editor: every variable of the bench's room (hidden ones too), set from the
//! author pane whatever the viewer; the table pushes a fresh `state` and the panels re-resolve.

use serde::Serialize;

use crate::table_session::Tables;

#[derive(Debug, Clone, Serialize)]
pub struct BenchVar {
    pub id: String,
    pub label: String,
    pub kind: String,
    pub value: serde_json::Value,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Keeper-only: players never receive it.
    pub hidden: bool,
}

fn list(table: &local_table::RunningTable) -> Vec<BenchVar> {
    table
        .room_vars(super::ROOM)
        .into_iter()
        .map(|v| BenchVar {
            id: v.id,
            label: v.label,
            kind: v.kind,
            value: v.value,
            min: v.min,
            max: v.max,
            hidden: v.hidden,
        })
        .collect()
}

#[tauri::command]
pub async fn bench_vars(tables: tauri::State<'_, Tables>) -> Result<Vec<BenchVar>, String> {
    tables.with_bench_table(list).await
}

/// Sets `id` to `value` (read by the variable's kind); an id the room does not have is added
/// with `kind` (an ad-hoc variable for a test).
#[tauri::command]
pub async fn bench_set_var(
    tables: tauri::State<'_, Tables>,
    id: String,
    kind: String,
    value: String,
) -> Result<Vec<BenchVar>, String> {
    tables
        .with_bench_table(|t| {
            t.set_var(super::ROOM, &id, &kind, &value)?;
            Ok(list(t))
        })
        .await?
}
