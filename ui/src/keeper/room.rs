//! The room's lifecycle, on the SERVER's disk: back up, restore, reset, delete.
//! Every destructive action is armed by typing the room's name and says what it removes.

use leptos::prelude::*;
use protocol::frame::{
    AdminDeleteRoom, AdminDeleteRoomData, AdminExportRoom, AdminImportRoom, AdminResetRoom,
    AdminRoomOp, ResetScope,
};
use protocol::keeper::Control;
use protocol::ClientFrame;

use super::{locale, own_room, Arm, Outcome};
use crate::i18n::{tr, Locale};
use crate::store::Table;

fn opt(s: String) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_string())
}

/// What a room operation reported, counts included (`documents` and `room_state_rows` are
/// the engine's extras).
fn op_summary(l: Locale, op: &AdminRoomOp) -> Vec<(String, String)> {
    let mut rows = vec![
        (
            tr(l, "keeper.room.action").to_string(),
            op.action.as_str().to_string(),
        ),
        (tr(l, "keeper.room.room").to_string(), op.room.clone()),
    ];
    if let Some(p) = &op.path {
        rows.push((tr(l, "keeper.room.path").to_string(), p.clone()));
    }
    if let Some(s) = &op.scope {
        rows.push((
            tr(l, "keeper.room.scope").to_string(),
            s.as_str().to_string(),
        ));
    }
    rows.push(("keys".into(), op.keys.to_string()));
    for extra in ["documents", "room_state_rows"] {
        if let Some(v) = op.extra.get(extra) {
            rows.push((extra.into(), v.to_string()));
        }
    }
    rows.push(("store_rows".into(), op.store_rows.to_string()));
    rows.push(("vector_points".into(), op.vector_points.to_string()));
    if let Some(m) = op.media_files {
        rows.push(("media_files".into(), m.to_string()));
    }
    rows
}

#[component]
pub fn RoomPage(table: Table) -> impl IntoView {
    let locale = locale();
    let room = move || own_room(table);
    let last_op = Memo::new(move |_| table.keeper.with(|k| k.room_op.clone()));

    let export_path = RwSignal::new(String::new());
    let import_path = RwSignal::new(String::new());
    let import_room = RwSignal::new(String::new());
    let scope = RwSignal::new("story".to_string());
    let backup_first = RwSignal::new(true);
    let delete_path = RwSignal::new(String::new());
    let armed_import = RwSignal::new(false);
    let armed_reset = RwSignal::new(false);
    let armed_delete_data = RwSignal::new(false);
    let armed_delete_keys = RwSignal::new(false);
    // A fresh backup's path is what a restore most likely wants.
    Effect::new(move |_| {
        if let Some(op) = last_op.get() {
            if op.action == protocol::frame::RoomOpAction::Export {
                import_path.set(op.path.clone().unwrap_or_default());
            }
        }
    });

    view! {
        <h2>{move || tr(locale.get(), "keeper.page.room")}" · "{room}</h2>
        <p class="lede">{move || tr(locale.get(), "keeper.room.lede")}</p>
        {move || last_op.get().map(|op| view! {
            <section class="card room-op" id="room-op" data-action=op.action.as_str().to_string()>
                <h3>{tr(locale.get(), "keeper.room.result")}</h3>
                <dl class="op-result">
                    {op_summary(locale.get(), &op).into_iter().map(|(k, v)| view! {
                        <div data-field=k.clone()><dt>{k.clone()}</dt><dd>{v}</dd></div>
                    }).collect_view()}
                </dl>
            </section>
        })}
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.room.export")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.room.export_what")}</p>
            <label>{move || tr(locale.get(), "keeper.room.server_path")}
                <input id="export-path" type="text" spellcheck="false" prop:value=export_path
                    placeholder=move || tr(locale.get(), "keeper.room.default_path")
                    on:input=move |ev| export_path.set(event_target_value(&ev))/>
            </label>
            <div class="row">
                <button id="export" class="primary" disabled=move || table.keeper.with(|k| k.is_pending(&Control::Export))
                    on:click=move |_| table.admin(ClientFrame::AdminExportRoom(AdminExportRoom { room: room(), path: opt(export_path.get_untracked()) }))>
                    {move || tr(locale.get(), "keeper.room.export_button")}
                </button>
                <Outcome table=table control=Control::Export/>
            </div>
        </section>
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.room.import")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.room.import_what")}</p>
            <label>{move || tr(locale.get(), "keeper.room.server_path")}
                <input id="import-path" type="text" spellcheck="false" prop:value=import_path
                    on:input=move |ev| import_path.set(event_target_value(&ev))/>
            </label>
            <label>{move || tr(locale.get(), "keeper.room.remap")}
                <input id="import-room" type="text" spellcheck="false" prop:value=import_room
                    on:input=move |ev| import_room.set(event_target_value(&ev))/>
            </label>
            <Arm table=table armed=armed_import id="arm-import"/>
            <div class="row">
                <button id="import" class="danger"
                    disabled=move || !armed_import.get() || import_path.with(|p| p.trim().is_empty()) || table.keeper.with(|k| k.is_pending(&Control::Import))
                    on:click=move |_| table.admin(ClientFrame::AdminImportRoom(AdminImportRoom { path: import_path.get_untracked().trim().to_string(), room: opt(import_room.get_untracked()) }))>
                    {move || tr(locale.get(), "keeper.room.import_button")}
                </button>
                <Outcome table=table control=Control::Import/>
            </div>
        </section>
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.room.reset")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.room.reset_what")}</p>
            <fieldset class="scopes">
                {["story", "chars", "all"].into_iter().map(|s| view! {
                    <label class="scope">
                        <input type="radio" name="reset-scope" value=s prop:checked=move || scope.get() == s
                            on:change=move |_| scope.set(s.to_string())/>
                        <strong>{s}</strong>" — "{move || tr(locale.get(), match s {
                            "story" => "keeper.room.scope_story",
                            "chars" => "keeper.room.scope_chars",
                            _ => "keeper.room.scope_all",
                        })}
                    </label>
                }).collect_view()}
            </fieldset>
            <Arm table=table armed=armed_reset id="arm-reset"/>
            <div class="row">
                <button id="reset" class="danger"
                    disabled=move || !armed_reset.get() || table.keeper.with(|k| k.is_pending(&Control::Reset))
                    on:click=move |_| table.admin(ClientFrame::AdminResetRoom(AdminResetRoom { room: room(), scope: Some(ResetScope::from_wire(&scope.get_untracked())) }))>
                    {move || tr(locale.get(), "keeper.room.reset_button")}
                </button>
                <Outcome table=table control=Control::Reset/>
            </div>
        </section>
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.room.delete_data")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.room.delete_data_what")}</p>
            <label class="check">
                <input id="delete-backup" type="checkbox" prop:checked=backup_first
                    on:change=move |ev| backup_first.set(event_target_checked(&ev))/>
                {move || tr(locale.get(), "keeper.room.backup_first")}
            </label>
            <label>{move || tr(locale.get(), "keeper.room.server_path")}
                <input id="delete-path" type="text" spellcheck="false" prop:value=delete_path
                    disabled=move || !backup_first.get()
                    placeholder=move || tr(locale.get(), "keeper.room.default_path")
                    on:input=move |ev| delete_path.set(event_target_value(&ev))/>
            </label>
            <Arm table=table armed=armed_delete_data id="arm-delete-data"/>
            <div class="row">
                <button id="delete-data" class="danger"
                    disabled=move || !armed_delete_data.get() || table.keeper.with(|k| k.is_pending(&Control::DeleteRoomData))
                    on:click=move |_| {
                        let backup = backup_first.get_untracked();
                        table.admin(ClientFrame::AdminDeleteRoomData(AdminDeleteRoomData {
                            room: room(),
                            backup: Some(backup),
                            path: if backup { opt(delete_path.get_untracked()) } else { None },
                        }))
                    }>
                    {move || tr(locale.get(), "keeper.room.delete_data_button")}
                </button>
                <Outcome table=table control=Control::DeleteRoomData/>
            </div>
        </section>
        <section class="card keeper-form">
            <h3>{move || tr(locale.get(), "keeper.room.delete_keys")}</h3>
            <p class="hint">{move || tr(locale.get(), "keeper.room.delete_keys_what")}</p>
            <Arm table=table armed=armed_delete_keys id="arm-delete-keys"/>
            <div class="row">
                <button id="delete-keys" class="danger"
                    disabled=move || !armed_delete_keys.get() || table.keeper.with(|k| k.is_pending(&Control::DeleteRoom))
                    on:click=move |_| table.admin(ClientFrame::AdminDeleteRoom(AdminDeleteRoom { room: room() }))>
                    {move || tr(locale.get(), "keeper.room.delete_keys_button")}
                </button>
                <Outcome table=table control=Control::DeleteRoom/>
            </div>
        </section>
    }
}
