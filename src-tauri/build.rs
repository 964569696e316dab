fn main() {
    // The UI must be built (wasm) before the app embeds it: `cargo xtask ui` does that.
    let dist = std::path::Path::new("../ui/dist/index.html");
    if !dist.exists() {
        panic!("ui/dist is missing: run `cargo xtask ui` (or `cargo xtask run`) first");
    }
    // App commands are deny-by-default: only what a capability grants is reachable. Both the
    // manifest and the main window's capability are written from the one list the `ipc` crate
    // declares, so a command added there is registered, permitted and granted together.
    write_capability(ipc::cmd::ALL);
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(ipc::cmd::ALL)),
    )
    .expect("tauri-build failed");
}

/// `capabilities/main.json`: the main window may call Studio's own commands and nothing else.
fn write_capability(commands: &[&str]) {
    let permissions: Vec<String> = commands
        .iter()
        .map(|c| format!("allow-{}", c.replace('_', "-")))
        .collect();
    let capability = serde_json::json!({
        "$schema": "../gen/schemas/desktop-schema.json",
        "identifier": "main",
        "description": "The main window: Studio's own commands and nothing else (written by build.rs from the ipc crate's list).",
        "windows": ["main"],
        "permissions": permissions,
    });
    let text = serde_json::to_string_pretty(&capability).expect("a capability is JSON") + "\n";
    let path = std::path::Path::new("capabilities/main.json");
    // Written only when it changes: an unchanged file keeps the build from rerunning.
    if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(path, text).expect("writing capabilities/main.json");
    }
}
