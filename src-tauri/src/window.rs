//! The main window, built in code so that it carries Studio's guards: it navigates only to the
//! app itself and to panel pages (a tier-2 page that sends its own frame to a remote address or
//! a `<meta refresh>` goes nowhere: WebKitGTK asks this policy for sub-frames too), it never
//! downloads anything, and its WebView keeps its storage (language, theme) in Studio's data
//! directory, so a profile is one folder.

use tauri::webview::DownloadEvent;
use tauri::{App, Url, WebviewWindowBuilder};

/// How this platform's WebView serves Studio's custom schemes (`tauri:` for the app, `lwpanel:`
/// for panel pages), as `panels::origin` builds the panel URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origins {
    /// Linux (WebKitGTK) and macOS (WKWebView): `tauri://localhost`, `lwpanel://localhost`.
    CustomScheme,
    /// Windows (WebView2) and Android: `http://tauri.localhost`, `http://lwpanel.localhost`
    /// (Studio does not set `useHttpsScheme`, so never `https`).
    HttpLocalhost,
}

impl Origins {
    pub const PLATFORM: Origins = if cfg!(any(windows, target_os = "android")) {
        Origins::HttpLocalhost
    } else {
        Origins::CustomScheme
    };
}

/// Where a navigation of the window or of any frame in it may go, on this platform.
pub fn may_navigate(url: &Url) -> bool {
    may_navigate_on(Origins::PLATFORM, url)
}

/// Where a navigation may go when the app and panel origins take the form `origins`: exactly
/// those two origins (no port, no user info, no other form of them) and a frame's initial
/// document. Any other form is not served by Studio: `http://lwpanel.localhost:9999/` on any
/// platform, or `http://lwpanel.localhost/` on Linux, is whatever listens on loopback.
pub fn may_navigate_on(origins: Origins, url: &Url) -> bool {
    if url.scheme() == "about" {
        return matches!(url.path(), "blank" | "srcdoc");
    }
    if url.port().is_some() || !url.username().is_empty() || url.password().is_some() {
        return false;
    }
    let host = url.host_str().unwrap_or("");
    match origins {
        Origins::CustomScheme => matches!(url.scheme(), "tauri" | "lwpanel") && host == "localhost",
        Origins::HttpLocalhost => {
            url.scheme() == "http" && (host == "tauri.localhost" || host == "lwpanel.localhost")
        }
    }
}

pub fn build_main(app: &mut App) -> tauri::Result<()> {
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == "main")
        .cloned()
        .expect("tauri.conf.json declares the main window");
    WebviewWindowBuilder::from_config(app.handle(), &config)?
        .data_directory(crate::profile::studio_dir().join("webview"))
        .on_navigation(|url| {
            let ok = may_navigate(url);
            if !ok {
                // Scheme and host only: a URL may carry anything.
                tracing::warn!(
                    scheme = url.scheme(),
                    host = url.host_str().unwrap_or(""),
                    "a navigation was refused"
                );
            }
            ok
        })
        .on_download(|_, event| {
            if let DownloadEvent::Requested { .. } = event {
                tracing::warn!("a download was refused: Studio never downloads from a page");
            }
            false
        })
        .build()?;
    #[cfg(target_os = "linux")]
    say_how_the_window_draws();
    Ok(())
}

#[cfg(any(target_os = "linux", test))]
/// Whether the web view composites through OpenGL: `STUDIO_GPU=on|off` when the person says,
/// else only where the machine has a GPU render node. Without one, WebKitGTK's compositor and
/// its painting run through Mesa's software GL (llvmpipe): two thirds of the web process's CPU
/// while a story streamed (perf, #30), ~9 frames a second; drawn on the CPU instead, ~44.
pub fn accelerated(render_nodes: usize, choice: Option<&str>) -> bool {
    match choice.map(str::trim) {
        Some("on") => true,
        Some("off") => false,
        _ => render_nodes > 0,
    }
}

#[cfg(target_os = "linux")]
/// The machine's GPU render nodes (`/dev/dri/renderD*`).
pub fn render_nodes() -> usize {
    std::fs::read_dir("/dev/dri")
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("renderD"))
                .count()
        })
        .unwrap_or(0)
}

#[cfg(target_os = "linux")]
/// The environment variable WebKitGTK reads when it creates a web view: drawn on the CPU.
const NO_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Chooses how the window draws; called first thing in `main`, before any thread or web view
/// exists, so the window draws one way from its first frame (switching a loading page's policy
/// at run time left a window unanswering once in CI). A person's own setting of the variable
/// is kept.
pub fn choose_drawing() {
    #[cfg(target_os = "linux")]
    if std::env::var_os(NO_COMPOSITING).is_none()
        && !accelerated(render_nodes(), std::env::var("STUDIO_GPU").ok().as_deref())
    {
        std::env::set_var(NO_COMPOSITING, "1");
    }
}

#[cfg(target_os = "linux")]
fn say_how_the_window_draws() {
    tracing::info!(
        render_nodes = render_nodes(),
        composited = std::env::var_os(NO_COMPOSITING).is_none(),
        "how the window draws"
    );
}

#[cfg(test)]
mod tests {
    use super::{accelerated, may_navigate, may_navigate_on, Origins};

    #[test]
    fn the_gpu_is_used_where_there_is_one_unless_the_person_says() {
        assert!(
            !accelerated(0, None),
            "software GL chosen on a machine without a GPU"
        );
        assert!(accelerated(1, None));
        assert!(accelerated(0, Some("on")));
        assert!(!accelerated(2, Some("off")));
        assert!(accelerated(1, Some("maybe")));
    }

    fn on(origins: Origins, url: &str) -> bool {
        may_navigate_on(origins, &url.parse().unwrap())
    }

    /// Refused everywhere, whatever form the platform's origins take.
    const FOREIGN: &[&str] = &[
        "http://127.0.0.1:8080/x",
        "https://example.com/",
        "http://localhost/",
        "http://tauri.localhost.evil.example/",
        "lwpanel://evil.example/0123/",
        "file:///etc/passwd",
        "data:text/html,<b>x</b>",
        "blob:tauri://localhost/1234",
        "javascript:alert(1)",
        "lwmedia://localhost/abc",
        "about:config",
        // Issue #28 item 8: a port makes it another origin, served by whoever listens there.
        "http://lwpanel.localhost:9999/",
        "http://tauri.localhost:1430/",
        "https://lwpanel.localhost:8443/0123/",
        "lwpanel://localhost:9999/0123/",
        "tauri://localhost:1/",
        "http://user@lwpanel.localhost/0123/",
        "lwpanel://user:pw@localhost/0123/",
    ];

    #[test]
    fn linux_and_macos_take_only_the_custom_schemes() {
        for ok in [
            "tauri://localhost/index.html",
            "lwpanel://localhost/0123/index.html",
            "about:blank",
            "about:srcdoc",
        ] {
            assert!(on(Origins::CustomScheme, ok), "{ok}");
        }
        // The Windows form is not Studio here: it would reach loopback.
        for refused in FOREIGN.iter().chain(&[
            "http://tauri.localhost/",
            "http://lwpanel.localhost/0123/",
            "https://lwpanel.localhost/0123/",
        ]) {
            assert!(!on(Origins::CustomScheme, refused), "{refused}");
        }
    }

    #[test]
    fn windows_and_android_take_only_the_http_forms() {
        for ok in [
            "http://tauri.localhost/",
            "http://lwpanel.localhost/0123/",
            "http://lwpanel.localhost:80/0123/",
            "about:blank",
        ] {
            assert!(on(Origins::HttpLocalhost, ok), "{ok}");
        }
        for refused in FOREIGN.iter().chain(&[
            "tauri://localhost/index.html",
            "lwpanel://localhost/0123/",
            "https://lwpanel.localhost/0123/",
        ]) {
            assert!(!on(Origins::HttpLocalhost, refused), "{refused}");
        }
    }

    #[test]
    fn this_platform_refuses_a_port() {
        assert!(!may_navigate(
            &"http://lwpanel.localhost:9999/".parse().unwrap()
        ));
        let own = if Origins::PLATFORM == Origins::CustomScheme {
            "lwpanel://localhost/0123/"
        } else {
            "http://lwpanel.localhost/0123/"
        };
        assert!(may_navigate(&own.parse().unwrap()));
    }
}

/// The page zoom Studio allows, in percent (the UI's steps stay inside it).
const ZOOM_PERCENT: std::ops::RangeInclusive<u16> = 50..=300;

/// Sets the window's zoom (Ctrl+= / Ctrl+- / Ctrl+0 in the window, remembered by the UI): the
/// WebView's page zoom, so text, layout and panel pages grow together, as a browser zooms.
#[tauri::command]
pub fn set_zoom(
    webview: tauri::Webview,
    args: ipc::cmd::SetZoom,
) -> Result<ipc::Reply<ipc::cmd::SetZoom>, String> {
    let ipc::cmd::SetZoom { percent } = args;
    let percent = percent.clamp(*ZOOM_PERCENT.start(), *ZOOM_PERCENT.end());
    webview
        .set_zoom(f64::from(percent) / 100.0)
        .map_err(|e| format!("zooming the window: {e}"))
}
