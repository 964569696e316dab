//! Studio's log: `tracing` events to stderr, or to the file `STUDIO_LOG_FILE` names.
//! `RUST_LOG` filters as usual (default: Studio's own crates at info, the rest at warn).
//! Nothing logged carries a key: frames are logged by type, secrets redact in `Debug`.

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,studio_lib=info,transport=info,local_table=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    let file = std::env::var_os("STUDIO_LOG_FILE").and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    });
    // A second init (tests that start the app twice in one process) keeps the first.
    let _ = match file {
        Some(file) => builder.with_writer(std::sync::Mutex::new(file)).try_init(),
        None => builder.with_writer(std::io::stderr).try_init(),
    };
}
