//! Loreweaver Studio's backend: owns every socket, file and sound; the WebView owns every pixel.

mod audio;
mod clean;
pub mod cli;
mod commands;
mod demo;
mod export;
mod hosting;
mod keeper;
mod logging;
mod media;
mod notify;
mod pack_bench;
mod panels;
mod profile;
mod saved_tables;
mod seat;
mod window;
// How the window draws is chosen before anything else starts (see `window::choose_drawing`).
pub use window::choose_drawing;

use std::sync::Arc;

use tauri::generate_handler;

/// Every command the window may call, registered once and listed for the contract test: each
/// is declared in the `ipc` crate with its arguments and reply.
macro_rules! studio_commands {
    ($m:ident) => {
        $m![
            commands::studio_info,
            commands::startup_ticket,
            commands::open_log_folder,
            notify::notify,
            commands::join_table,
            demo::play_demo,
            commands::send_frame,
            commands::leave_table,
            export::save_transcript,
            saved_tables::key_storage,
            saved_tables::list_saved_tables,
            saved_tables::join_saved_table,
            saved_tables::forget_saved_table,
            panels::mount_panel,
            panels::unmount_panel,
            panels::panel_code,
            panels::set_panel_code,
            panels::set_saved_panel_code,
            panels::watchdog::stall_recovery,
            commands::rejoin_table,
            window::set_zoom,
            audio::commands::set_sound_levels,
            audio::commands::sound_report,
            audio::commands::preview_sound,
            media::drops::share_dropped,
            media::drops::discard_drop,
            media::share::pick_and_share,
            media::share::cancel_upload,
            keeper::copy_text,
            keeper::copy_invite,
            pack_bench::startup_pack,
            pack_bench::pick_pack_folder,
            pack_bench::open_pack,
            pack_bench::pack_bench_view,
            pack_bench::pack_bench_table,
            pack_bench::pack_bench_vars,
            pack_bench::pack_bench_set_var,
            pack_bench::check_pack_on_engine,
            pack_bench::build_pack_on_engine,
            pack_bench::install_pack_to_hosted,
            pack_bench::forge_cards,
            pack_bench::forge_open,
            pack_bench::forge_save,
            pack_bench::forge_new,
            pack_bench::forge_check_hook,
            pack_bench::forge_split,
            pack_bench::forge_import,
            pack_bench::forge_export,
            hosting::hosting_info,
            hosting::choose_engine,
            hosting::host_table,
            hosting::watch_hosting,
            hosting::stop_hosting,
            hosting::restart_hosting,
            hosting::hosted_tables,
            hosting::open_hosted_folder,
            hosting::delete_hosted_table,
            hosting::pick_engine,
        ]
    };
}

/// Builds and runs the Studio window.
pub fn run(startup: cli::Startup) {
    logging::init();
    tracing::info!(logs = %logging::log_dir().display(), "{} starting", cli::version_line());
    // The one table in play, and the features that follow it (each managed on its own and
    // reached by the commands that need it).
    let seat = seat::Seat::default();
    let cache = media::Cache::default();
    let sound = audio::Sound::new(cache.clone());
    let panels = panels::Panels::new(profile::studio_dir(), cache.clone());
    let saved = saved_tables::SavedTables::new(profile::studio_dir());
    let demo = demo::Demo::default();
    let bench = pack_bench::PackBench::default();
    seat.follow(Arc::new(sound.clone()));
    seat.follow(Arc::new(panels.clone()));
    seat.follow(Arc::new(saved.clone()));
    seat.follow(Arc::new(demo.clone()));
    seat.follow(Arc::new(bench.clone()));
    tauri::Builder::default()
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .manage(pack_bench::StartupPack::new(startup.pack))
        .manage(commands::StartupTicket::new(startup.ticket))
        .manage(seat)
        .manage(cache)
        .manage(sound)
        .manage(panels)
        .manage(saved)
        .manage(demo)
        .manage(bench)
        .manage(hosting::Hosting::default())
        .manage(panels::watchdog::Watchdog::default())
        .manage(media::share::Shares::default())
        .manage(notify::Notifier::default())
        .manage(media::drops::Drops::default())
        .setup(|app| {
            logging::never_print(app.handle().invoke_key());
            window::build_main(app)?;
            media::drops::follow_inner_drags(app);
            panels::watchdog::start(app.handle().clone());
            Ok(())
        })
        // A reload of the window ends every page it showed: their tokens stop answering.
        .on_page_load(|webview, payload| {
            if payload.event() == tauri::webview::PageLoadEvent::Started {
                use tauri::Manager;
                webview.state::<panels::Panels>().mounts.clear();
                webview.state::<panels::watchdog::Watchdog>().page_load();
            }
        })
        // Back in front: the person has seen what the notifications were about.
        .on_window_event(|window, event| {
            use tauri::Manager;
            match event {
                tauri::WindowEvent::Focused(true) => window.state::<notify::Notifier>().in_front(),
                // Files dropped on the window wait for the person's Confirm (paths, never
                // bytes). A window's own web view reports drops as a *window* event in Tauri 2
                // (a `WebviewEvent` handler never hears them: drops did nothing before).
                tauri::WindowEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) => {
                    media::drops::offer(window.app_handle(), paths.clone())
                }
                _ => {}
            }
        })
        .register_asynchronous_uri_scheme_protocol("lwmedia", media::scheme::serve)
        .register_asynchronous_uri_scheme_protocol(panels::SCHEME, panels::scheme::serve)
        .invoke_handler(studio_commands!(generate_handler))
        .build(tauri::generate_context!())
        .expect("Loreweaver Studio failed to start")
        // A hosted engine stops with Studio (cleanly on quit; `PR_SET_PDEATHSIG` on a crash).
        .run(|app, event| {
            if let tauri::RunEvent::Exit = event {
                use tauri::Manager;
                app.state::<hosting::Hosting>().stop_on_exit();
            }
        });
}

#[cfg(test)]
mod contract {
    /// The registered commands' function names, from the same list the app registers.
    macro_rules! names {
        ($($p:path),* $(,)?) => { [$(stringify!($p)),*] };
    }

    #[test]
    fn the_app_registers_exactly_the_commands_ipc_declares() {
        let mut registered: Vec<String> = studio_commands!(names)
            .iter()
            .map(|p| p.rsplit("::").next().unwrap_or(p).trim().to_string())
            .collect();
        let mut declared: Vec<String> = ipc::cmd::ALL.iter().map(|s| s.to_string()).collect();
        registered.sort();
        declared.sort();
        let missing: Vec<_> = declared
            .iter()
            .filter(|d| !registered.contains(d))
            .collect();
        let extra: Vec<_> = registered
            .iter()
            .filter(|r| !declared.contains(r))
            .collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "declared in ipc but not registered: {missing:?}; registered but not in ipc: {extra:?}"
        );
    }
}
