//! The main window, built in code so that it carries Studio's guards: it navigates only to the
//! app itself and to panel pages (a tier-2 page that sends its own frame to a remote address or
//! a `<meta refresh>` goes nowhere: WebKitGTK asks this policy for sub-frames too), it never
//! downloads anything, and its WebView keeps its storage (language, theme) in Studio's data
//! directory, so a profile is one folder.

use tauri::webview::DownloadEvent;
use tauri::{App, Url, WebviewWindowBuilder};

/// Where a navigation of the window or of any frame in it may go.
pub fn may_navigate(url: &Url) -> bool {
    let host = url.host_str().unwrap_or("");
    match url.scheme() {
        // The app itself (Linux/macOS form) and panel pages.
        "tauri" | "lwpanel" => host == "localhost",
        // The Windows/Android forms of the same two origins.
        "http" | "https" => host == "tauri.localhost" || host == "lwpanel.localhost",
        // A frame's initial document.
        "about" => matches!(url.path(), "blank" | "srcdoc"),
        _ => false,
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::may_navigate;

    #[test]
    fn only_the_app_and_panel_pages() {
        for ok in [
            "tauri://localhost/index.html",
            "http://tauri.localhost/",
            "lwpanel://localhost/0123/index.html",
            "http://lwpanel.localhost/0123/",
            "about:blank",
            "about:srcdoc",
        ] {
            assert!(may_navigate(&ok.parse().unwrap()), "{ok}");
        }
        for refused in [
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
        ] {
            assert!(!may_navigate(&refused.parse().unwrap()), "{refused}");
        }
    }
}
