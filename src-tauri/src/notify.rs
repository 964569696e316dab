//! Desktop notifications: the page decides *when* (Studio in the background, the person has
//! them on); this side decides *what reaches the desktop* — server text escaped and cut
//! (`protocol::session::notify::desktop_text`) and a burst coalesced
//! (`protocol::session::notify::Coalescer`: at most three per stretch in the background).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ipc::{cmd, Reply};
use protocol::session::notify::{desktop_text, Coalescer, QUIET_MS};
use tauri::Manager;

/// The coalescer and the start of its clock (the pure part counts in milliseconds).
#[derive(Clone)]
pub struct Notifier {
    inner: Arc<Mutex<State>>,
}

struct State {
    coalescer: Coalescer,
    /// The summary's words, from the latest notice (the page's language).
    more: String,
    timer: bool,
}

impl Default for Notifier {
    fn default() -> Self {
        Notifier {
            inner: Arc::new(Mutex::new(State {
                coalescer: Coalescer::default(),
                more: String::new(),
                timer: false,
            })),
        }
    }
}

fn now_ms() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1000.0
}

impl Notifier {
    /// Studio's window came to the front: a new stretch in the background begins later.
    pub fn in_front(&self) {
        let mut state = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        state.coalescer.in_front();
    }
}

fn show(app: &tauri::AppHandle, title: String, body: String) {
    use tauri_plugin_notification::NotificationExt;
    let app = app.clone();
    // The desktop's notification service may be slow or absent: never on the caller's thread.
    tauri::async_runtime::spawn_blocking(move || {
        if let Err(e) = app.notification().builder().title(title).body(body).show() {
            tracing::warn!("the desktop did not show a notification: {e}");
        }
    });
}

/// Waits for the quiet the coalescer asks for, then shows its one summary.
fn summarise_later(app: tauri::AppHandle, notifier: Notifier) {
    tauri::async_runtime::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(QUIET_MS as u64)).await;
            let mut state = notifier.inner.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = state.coalescer.due(now_ms()) {
                state.timer = false;
                let more = state.more.replace("{n}", &n.to_string());
                drop(state);
                let (title, body) = desktop_text("Loreweaver Studio", &more);
                show(&app, title, body);
                return;
            }
            if !state.coalescer.waiting() {
                state.timer = false;
                return;
            }
        }
    });
}

/// A desktop notification (the page decides when: the window is in the background and the
/// person has notifications on). `kind` is logged, never the words.
#[tauri::command]
pub async fn notify(
    app: tauri::AppHandle,
    args: cmd::Notify,
) -> Result<Reply<cmd::Notify>, String> {
    let cmd::Notify {
        kind,
        title,
        body,
        more,
    } = args;
    let kind: String = kind
        .chars()
        .filter(char::is_ascii_alphabetic)
        .take(20)
        .collect();
    let notifier = app.state::<Notifier>().inner().clone();
    let mut state = notifier.inner.lock().unwrap_or_else(|e| e.into_inner());
    if !more.contains("{n}") {
        return Err("a notification needs its summary's words, with {n}".into());
    }
    state.more = more.chars().take(120).collect();
    if state.coalescer.offer(now_ms()) {
        drop(state);
        tracing::info!(kind, "desktop notification");
        let (title, body) = desktop_text(&crate::clean::text(&title), &crate::clean::text(&body));
        show(&app, title, body);
    } else {
        tracing::debug!(kind, "desktop notification held (a burst)");
        if state.coalescer.waiting() && !state.timer {
            state.timer = true;
            drop(state);
            summarise_later(app.clone(), notifier);
        }
    }
    Ok(())
}
