//! The variables editor: every variable of the bench's room (hidden ones too), set from the
//! author pane whatever the viewer; the table pushes a fresh `state` and the panels re-resolve.

use ipc::{cmd, PackBenchVar, Reply};

use super::PackBench;

fn list(table: &local_table::RunningTable) -> Vec<PackBenchVar> {
    table
        .room_vars(super::ROOM)
        .into_iter()
        .map(|v| PackBenchVar {
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
pub async fn pack_bench_vars(
    bench: tauri::State<'_, PackBench>,
    args: cmd::PackBenchVars,
) -> Result<Reply<cmd::PackBenchVars>, String> {
    let cmd::PackBenchVars {} = args;
    bench.with_table(list).await
}

/// Sets `id` to `value` (read by the variable's kind); an id the room does not have is added
/// with `kind` (an ad-hoc variable for a test).
#[tauri::command]
pub async fn pack_bench_set_var(
    bench: tauri::State<'_, PackBench>,
    args: cmd::PackBenchSetVar,
) -> Result<Reply<cmd::PackBenchSetVar>, String> {
    let cmd::PackBenchSetVar { id, kind, value } = args;
    let list = bench
        .with_table(|t| {
            t.set_var(super::ROOM, &id, &kind, &value)?;
            Ok::<_, String>(list(t))
        })
        .await??;
    // The same value on the engine, when the pack runs there too (its own rules read it).
    bench.set_engine_var(&id, &value).await?;
    bench.report().await;
    Ok(list)
}
