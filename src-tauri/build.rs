fn main() {
    // The UI must be built (wasm) before the app embeds it: `cargo xtask ui` does that.
    let dist = std::path::Path::new("../ui/dist/index.html");
    if !dist.exists() {
        panic!("ui/dist is missing: run `cargo xtask ui` (or `cargo xtask run`) first");
    }
    // App commands are deny-by-default: only what a capability grants is reachable.
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(
        tauri_build::AppManifest::new().commands(&[
            "studio_info",
            "startup_ticket",
            "open_log_folder",
            "notify",
            "join_table",
            "play_demo",
            "send_frame",
            "leave_table",
            "save_transcript",
            "key_storage",
            "list_saved_tables",
            "join_saved_table",
            "forget_saved_table",
            "mount_panel",
            "unmount_panel",
            "panel_code",
            "set_panel_code",
            "set_saved_panel_code",
            "watch_stalls",
            "pong",
            "stall_recovery",
            "rejoin_table",
            "set_sound_levels",
            "sound_report",
            "preview_sound",
            "share_files",
            "pick_and_share",
            "cancel_upload",
            "copy_text",
            "copy_invite",
            "startup_pack",
            "pick_pack_folder",
            "open_pack",
            "pack_bench_view",
            "pack_bench_vars",
            "pack_bench_set_var",
        ]),
    ))
    .expect("tauri-build failed");
}
