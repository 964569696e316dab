//! The variables editor: every variable of the bench's room (hidden ones too), set from the
//! author pane whatever the viewer; the table pushes a fresh `state` and the panels re-resolve.

use ipc::{cmd, BenchVar, Reply};

use super::PackBench;

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
pub async fn bench_vars(
    bench: tauri::State<'_, PackBench>,
    args: cmd::BenchVars,
) -> Result<Reply<cmd::BenchVars>, String> {
    let cmd::BenchVars {} = args;
    bench.with_table(list).await
}

/// Sets `id` to `value` (read by the variable's kind); an id the room does not have is added
/// with `kind` (an ad-hoc variable for a test).
#[tauri::command]
pub async fn bench_set_var(
    bench: tauri::State<'_, PackBench>,
    args: cmd::BenchSetVar,
) -> Result<Reply<cmd::BenchSetVar>, String> {
    let cmd::BenchSetVar { id, kind, value } = args;
    bench
        .with_table(|t| {
            t.set_var(super::ROOM, &id, &kind, &value)?;
            Ok(list(t))
        })
        .await?
}
