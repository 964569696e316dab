//! Loreweaver Studio's backend: owns every socket, file and sound; the WebView owns every pixel.

mod commands;

/// Builds and runs the Studio window.
pub fn run() {
    tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![commands::studio_info])
        .run(tauri::generate_context!())
        .expect("Loreweaver Studio failed to start");
}
