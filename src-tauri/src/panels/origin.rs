//! Where panel pages live, on every platform Tauri runs on. A custom scheme is
//! `lwpanel://localhost/…` on Linux and macOS but `http://lwpanel.localhost/…` on Windows
//! (WebView2) and Android, so the served policy is built from the request's own origin and the
//! mount URL from the platform's, never from a hard-coded host.

use tauri::http::Uri;

pub const SCHEME: &str = "lwpanel";

/// The origin panel pages are served from on this platform.
pub fn platform_origin() -> String {
    if cfg!(any(windows, target_os = "android")) {
        format!("http://{SCHEME}.localhost")
    } else {
        format!("{SCHEME}://localhost")
    }
}

/// The page URL of the mount `token`.
pub fn mount_url(token: &str) -> String {
    format!("{}/{token}/", platform_origin())
}

/// The origin a request came to, if it is one of the two forms a panel request can take;
/// anything else (another host, another scheme) is not ours.
pub fn request_origin(uri: &Uri) -> Option<String> {
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let host = uri.host()?.to_ascii_lowercase();
    if uri.port().is_some() {
        return None;
    }
    match (scheme.as_str(), host.as_str()) {
        (SCHEME, "localhost") => Some(format!("{SCHEME}://localhost")),
        ("http" | "https", h) if h == format!("{SCHEME}.localhost") => {
            Some(format!("{scheme}://{h}"))
        }
        _ => None,
    }
}

/// The exact policy for one mount: its root (under the origin the request used) is the only
/// source of anything; no `connect-src`, so not even its own files can be fetched by script.
pub fn csp(origin: &str, token: &str) -> String {
    let o = format!("{origin}/{token}/");
    format!(
        "default-src 'none'; script-src {o}; style-src {o}; img-src {o}; font-src {o}; media-src {o}; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(uri: &str) -> Option<String> {
        request_origin(&uri.parse::<Uri>().unwrap())
    }

    #[test]
    fn both_platform_forms_are_recognised() {
        assert_eq!(
            origin("lwpanel://localhost/ab/x.js").as_deref(),
            Some("lwpanel://localhost")
        );
        assert_eq!(
            origin("http://lwpanel.localhost/ab/x.js").as_deref(),
            Some("http://lwpanel.localhost")
        );
        assert_eq!(
            origin("https://LWPANEL.localhost/ab/").as_deref(),
            Some("https://lwpanel.localhost")
        );
        for foreign in [
            "lwpanel://evil.example/ab/",
            "http://localhost/ab/",
            "http://lwpanel.localhost.evil.example/ab/",
            "http://lwpanel.localhost:8080/ab/",
            "lwmedia://localhost/ab",
        ] {
            assert_eq!(origin(foreign), None, "{foreign}");
        }
    }

    #[test]
    fn the_policy_names_the_requests_own_origin() {
        assert_eq!(
            csp("lwpanel://localhost", "ab"),
            "default-src 'none'; script-src lwpanel://localhost/ab/; style-src lwpanel://localhost/ab/; img-src lwpanel://localhost/ab/; font-src lwpanel://localhost/ab/; media-src lwpanel://localhost/ab/; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
        );
        let windows = csp("http://lwpanel.localhost", "ab");
        assert!(windows.contains("script-src http://lwpanel.localhost/ab/;"));
        assert!(!windows.contains("lwpanel://"));
    }

    #[test]
    fn mount_urls_use_the_platform_origin() {
        let url = mount_url("t0k");
        if cfg!(windows) {
            assert_eq!(url, "http://lwpanel.localhost/t0k/");
        } else {
            assert_eq!(url, "lwpanel://localhost/t0k/");
        }
        assert_eq!(
            request_origin(&url.parse::<Uri>().unwrap()).unwrap(),
            platform_origin()
        );
    }
}
