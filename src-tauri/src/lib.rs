//! Loreweaver Studio's backend: owns every socket, file and sound; the WebView owns every pixel.

mod audio;
mod bench;
mod clean;
pub mod cli;
mod commands;
mod export;
mod keeper;
mod logging;
mod media;
mod panels;
mod saved_tables;
mod table_session;
mod window;

use table_session::Tables;

/// Builds and runs the Studio window.
pub fn run(startup: cli::Startup) {
    logging::init();
    tracing::info!(logs = %logging::log_dir().display(), "{} starting", cli::version_line());
    tauri::Builder::default()
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .manage(bench::StartupPack::new(startup.pack))
        .manage(commands::StartupTicket::new(startup.ticket))
        .manage(Tables::new())
        .manage(panels::watchdog::Watchdog::default())
        .manage(media::share::Shares::default())
        .setup(|app| {
            logging::never_print(app.handle().invoke_key());
            window::build_main(app)?;
            panels::watchdog::start(app.handle().clone());
            Ok(())
        })
        // A reload of the window ends every page it showed: their tokens stop answering.
        .on_page_load(|webview, payload| {
            if payload.event() == tauri::webview::PageLoadEvent::Started {
                use tauri::Manager;
                webview.state::<Tables>().mounts.clear();
                webview.state::<panels::watchdog::Watchdog>().page_load();
            }
        })
        // Files dropped on the window are shared like picked ones (paths, never bytes).
        .on_webview_event(|webview, event| {
            if let tauri::WebviewEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) = event {
                use tauri::Manager;
                media::share::share_paths(webview.app_handle(), paths.clone());
            }
        })
        .register_asynchronous_uri_scheme_protocol("lwmedia", media::scheme::serve)
        .register_asynchronous_uri_scheme_protocol(panels::SCHEME, panels::scheme::serve)
        .invoke_handler(tauri::generate_handler![
            commands::studio_info,
            commands::startup_ticket,
            commands::open_log_folder,
            commands::notify,
            commands::join_table,
            commands::play_demo,
            commands::send_frame,
            commands::leave_table,
            export::save_transcript,
            commands::key_storage,
            commands::list_saved_tables,
            commands::join_saved_table,
            commands::forget_saved_table,
            panels::mount_panel,
            panels::unmount_panel,
            panels::panel_code,
            panels::set_panel_code,
            panels::set_saved_panel_code,
            panels::watchdog::watch_stalls,
            panels::watchdog::pong,
            panels::watchdog::stall_recovery,
            commands::rejoin_table,
            audio::commands::set_sound_levels,
            audio::commands::sound_report,
            audio::commands::preview_sound,
            media::share::share_files,
            media::share::pick_and_share,
            media::share::cancel_upload,
            keeper::copy_text,
            keeper::copy_invite,
            bench::startup_pack,
            bench::pick_pack_folder,
            bench::open_pack,
            bench::bench_view,
            bench::bench_vars,
            bench::bench_set_var,
        ])
        .run(tauri::generate_context!())
        .expect("Loreweaver Studio failed to start");
}
