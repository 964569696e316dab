//! The connect screen's saved tables: list, join with the stored key, forget.

use ipc::{cmd, Message, Reply};
use tauri::ipc::Channel;
use tauri::State;

use super::SavedTables;
use crate::panels::Panels;
use crate::seat::Seat;

/// Where a remembered key would go: the OS keyring, or (when none answers) this private file.
#[tauri::command]
pub async fn key_storage(
    saved: State<'_, SavedTables>,
    args: cmd::KeyStorageInfo,
) -> Result<Reply<cmd::KeyStorageInfo>, String> {
    let cmd::KeyStorageInfo {} = args;
    let saved = saved.inner().clone();
    tauri::async_runtime::spawn_blocking(move || saved.storage())
        .await
        .map_err(|e| e.to_string())
}

/// Tables joined before, most recent first (no keys: those stay in the keyring).
#[tauri::command]
pub fn list_saved_tables(
    saved: State<'_, SavedTables>,
    panels: State<'_, Panels>,
    args: cmd::ListSavedTables,
) -> Reply<cmd::ListSavedTables> {
    let cmd::ListSavedTables {} = args;
    // The list is a file anyone could have edited: its words pass the frames' sanitiser.
    saved
        .list()
        .into_iter()
        .map(|t| {
            let code = panels.consent.get(&t.id);
            saved_view(t, code)
        })
        .collect()
}

/// Rejoins a saved table with its stored key.
#[tauri::command]
pub async fn join_saved_table(
    saved: State<'_, SavedTables>,
    seat: State<'_, Seat>,
    args: cmd::JoinSavedTable,
    on_event: Channel<Message<cmd::JoinSavedTable>>,
) -> Result<Reply<cmd::JoinSavedTable>, String> {
    let cmd::JoinSavedTable { id } = args;
    let (table, key) = saved
        .get(&id)
        .ok_or("that saved table has no key any more: join it again with its invite key")?;
    seat.join_remote(&table.ticket, key, None, true, on_event)
        .await
        .map_err(|e| crate::clean::text(&e))?;
    Ok(ipc::Joined {
        demo: false,
        pack_bench: None,
    })
}

/// Forgets a saved table and its key.
#[tauri::command]
pub fn forget_saved_table(
    saved: State<'_, SavedTables>,
    panels: State<'_, Panels>,
    args: cmd::ForgetSavedTable,
) -> Result<Reply<cmd::ForgetSavedTable>, String> {
    let cmd::ForgetSavedTable { id } = args;
    panels.consent.set(&id, None)?;
    saved.forget(&id)
}

/// A saved table as the connect screen lists it, with the room's panel-code answer.
fn saved_view(t: super::SavedTable, panel_code: Option<ipc::PanelCode>) -> ipc::SavedTable {
    ipc::SavedTable {
        id: crate::clean::text(&t.id),
        name: crate::clean::text(&t.name),
        ticket: crate::clean::text(&t.ticket),
        room: crate::clean::text(&t.room),
        role: crate::clean::text(&t.role),
        panel_code,
        refused: t.refused.as_deref().map(crate::clean::text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_saved_list_gets_the_frames_sanitiser() {
        let t = saved_view(
            super::super::SavedTable {
                id: "1".into(),
                name: "\u{202E}gnp.exe".into(),
                ticket: "t".into(),
                room: "r\u{001B}[31m".into(),
                role: "player".into(),
                last_used_ms: 0,
                refused: Some("gone\u{202E}".into()),
            },
            None,
        );
        assert_eq!(t.refused.as_deref(), Some("gone"));
        assert_eq!((t.name.as_str(), t.room.as_str()), ("gnp.exe", "r[31m"));
    }
}
