//! `lwpanel://localhost/<token>/<path>`: tier-2 panel pages, served ONLY from the verified
//! media cache. `mount_panel` fetches a panel's entry and assets by hash (verified before
//! caching), then mints a random 128-bit token naming that mount; the scheme answers GET/HEAD
//! for the entry (`<token>/`), the declared asset paths (relative to the entry's directory)
//! and two reserved files (`__loreweaver__/theme.css`, `__loreweaver__/bootstrap.js`).
//! Everything else is 404. Every response carries a CSP whose only source is the mount's own
//! root — no `connect-src`: a page reaches no network, not even its own files by fetch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use protocol::frame::UiManifestPanel;
use serde::Serialize;
use tauri::http::{header, Method, Request, Response, StatusCode};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use crate::table_session::Tables;

pub const SCHEME: &str = "lwpanel";
const RESERVED: &str = "__loreweaver__";

/// One mounted panel page.
struct Mount {
    panel: String,
    nonce: String,
    entry: Served,
    /// Declared asset path (decoded, `/`-joined) → file.
    assets: HashMap<String, Served>,
    theme_css: String,
}

#[derive(Clone)]
struct Served {
    hash: String,
    size: u64,
    mime: String,
}

/// Live mounts by token. A panel's new mount retires its old one.
#[derive(Default)]
pub struct Mounts {
    by_token: Mutex<HashMap<String, Arc<Mount>>>,
}

impl Mounts {
    pub fn clear(&self) {
        self.by_token
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    fn get(&self, token: &str) -> Option<Arc<Mount>> {
        self.by_token
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(token)
            .cloned()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Mounted {
    pub url: String,
    pub nonce: String,
}

fn random_hex128() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// The exact policy for one mount: its root is the only source of anything.
pub fn csp(token: &str) -> String {
    let o = format!("{SCHEME}://localhost/{token}/");
    format!(
        "default-src 'none'; script-src {o}; style-src {o}; img-src {o}; font-src {o}; media-src {o}; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
    )
}

/// A wire path's segments, or `None` for anything unsafe: empty, `.`, `..`, backslash, NUL,
/// a bad percent-escape, or (for declared assets) a `__` reserved segment.
pub fn clean_segments(path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for raw in path.split('/') {
        let seg = percent_decode(raw)?;
        if seg.is_empty() || seg == "." || seg == ".." || seg.contains(['\\', '\0', '/']) {
            return None;
        }
        out.push(seg);
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A manifest mime, if it is a plain `type/subtype` (never a header injection).
fn clean_mime(m: &str) -> Option<String> {
    let ok = m.len() <= 100
        && m.split_once('/').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && (a.to_string() + b)
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
        });
    ok.then(|| m.to_ascii_lowercase())
}

/// `:root{…}` from the UI's current theme variables (names and values checked).
fn theme_css(theme: &serde_json::Value) -> String {
    let mut css = String::from(":root {\n");
    if let Some(map) = theme.as_object() {
        for (name, value) in map {
            let Some(value) = value.as_str() else {
                continue;
            };
            let name_ok = name.starts_with("--lw-")
                && name.len() <= 40
                && name[2..]
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c == b'-');
            let value_ok = value.len() <= 200
                && !value.contains(['{', '}', ';', '<', '>', '\\', '\n', '\r', '@'])
                && !value.to_ascii_lowercase().contains("url(");
            if name_ok && value_ok {
                css.push_str(&format!("  {name}: {value};\n"));
            }
        }
    }
    css.push_str("}\n");
    css
}

/// Where the host's stylesheet and bootstrap go: after `<head…>`, else `<html…>`, else the top.
pub fn inject(html: &str) -> String {
    let tags = format!(
        "<link rel=\"stylesheet\" href=\"{RESERVED}/theme.css\"><script src=\"{RESERVED}/bootstrap.js\"></script>"
    );
    let lower = html.to_ascii_lowercase();
    let after_open = |name: &str| -> Option<usize> {
        let mut from = 0;
        while let Some(i) = lower[from..].find(&format!("<{name}")) {
            let at = from + i;
            let next = lower.as_bytes().get(at + 1 + name.len()).copied();
            if matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')) {
                return lower[at..].find('>').map(|j| at + j + 1);
            }
            from = at + 1;
        }
        None
    };
    let at = after_open("head")
        .or_else(|| after_open("html"))
        .unwrap_or(0);
    let mut out = String::with_capacity(html.len() + tags.len());
    out.push_str(&html[..at]);
    out.push_str(&tags);
    out.push_str(&html[at..]);
    out
}

fn bootstrap_js(panel: &str, nonce: &str) -> String {
    let panel = serde_json::to_string(panel).unwrap_or_else(|_| "\"\"".into());
    let nonce = serde_json::to_string(nonce).unwrap_or_else(|_| "\"\"".into());
    BOOTSTRAP
        .replace("__PANEL__", &panel)
        .replace("__NONCE__", &nonce)
}

const BOOTSTRAP: &str = include_str!("panel_bootstrap.js");

/// Resolves `panel` from the backend's own manifest, fetches + verifies its files, mounts it.
pub async fn mount(
    tables: &Tables,
    mounts: &Mounts,
    panel: &str,
    theme: &serde_json::Value,
) -> Result<Mounted, String> {
    let p: UiManifestPanel = tables
        .panel(panel)
        .filter(|p| p.tier == 2)
        .ok_or("no such panel page in this table's manifest")?;
    let entry = p.entry.clone().ok_or("the panel has no entry")?;
    let mut assets = HashMap::new();
    for a in p.assets.clone().unwrap_or_default() {
        let segs = clean_segments(&a.path).ok_or("a panel asset has an unsafe path")?;
        if segs.iter().any(|s| s.starts_with("__")) {
            return Err("a panel asset uses a reserved path".into());
        }
        let mime = clean_mime(&a.mime).ok_or("a panel asset has an unusable mime")?;
        assets.insert(
            segs.join("/"),
            Served {
                hash: a.hash.clone(),
                size: a.size,
                mime,
            },
        );
    }
    let entry = Served {
        hash: entry.hash,
        size: entry.size,
        mime: "text/html".into(),
    };
    // Everything into the verified cache before anything is served.
    let cache = tables.cache()?;
    for f in std::iter::once(&entry).chain(assets.values()) {
        if cache.cached(&f.hash, Some(f.size)).await.is_some() {
            continue;
        }
        let session = tables.session().await.ok_or("not at a table")?;
        let channel = session.media().ok_or("offline")?;
        cache
            .get(&channel, &f.hash, Some(f.size))
            .await
            .map_err(|e| format!("fetching a panel file: {e}"))?;
    }
    let token = random_hex128();
    let nonce = random_hex128();
    let mount = Mount {
        panel: p.id.clone(),
        nonce: nonce.clone(),
        entry,
        assets,
        theme_css: theme_css(theme),
    };
    {
        let mut map = mounts.by_token.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, m| m.panel != p.id);
        map.insert(token.clone(), Arc::new(mount));
    }
    Ok(Mounted {
        url: format!("{SCHEME}://localhost/{token}/"),
        nonce,
    })
}

pub fn serve<R: Runtime>(
    ctx: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let app = ctx.app_handle().clone();
    let method = request.method().clone();
    let uri = request.uri().clone();
    tauri::async_runtime::spawn(async move {
        let tables = app.state::<Tables>();
        let mounts = app.state::<Mounts>();
        let response = answer(&tables, &mounts, &method, &uri).await;
        responder.respond(response);
    });
}

async fn answer(
    tables: &Tables,
    mounts: &Mounts,
    method: &Method,
    uri: &tauri::http::Uri,
) -> Response<Vec<u8>> {
    let path = uri.path().strip_prefix('/').unwrap_or(uri.path());
    let (token, rest) = path.split_once('/').unwrap_or((path, ""));
    let policy = csp(token);
    let respond = |status: StatusCode, mime: &str, body: Vec<u8>| {
        let body = if *method == Method::HEAD {
            Vec::new()
        } else {
            body
        };
        Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, mime)
            .header(header::CONTENT_SECURITY_POLICY, policy.as_str())
            .header("X-Content-Type-Options", "nosniff")
            .header(header::CACHE_CONTROL, "no-store")
            .header("Referrer-Policy", "no-referrer")
            .body(body)
            .expect("a panel response always builds")
    };
    let not_found = || respond(StatusCode::NOT_FOUND, "text/plain", b"not found".to_vec());
    if *method != Method::GET && *method != Method::HEAD {
        return respond(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            b"GET or HEAD only".to_vec(),
        );
    }
    if uri.host() != Some("localhost") && uri.host().is_some() {
        return not_found();
    }
    let Some(mount) = mounts.get(token) else {
        return not_found();
    };
    let file = if rest.is_empty() {
        mount.entry.clone()
    } else {
        let Some(segs) = clean_segments(rest) else {
            return not_found();
        };
        let joined = segs.join("/");
        if joined == format!("{RESERVED}/theme.css") {
            return respond(
                StatusCode::OK,
                "text/css; charset=utf-8",
                mount.theme_css.clone().into_bytes(),
            );
        }
        if joined == format!("{RESERVED}/bootstrap.js") {
            return respond(
                StatusCode::OK,
                "text/javascript; charset=utf-8",
                bootstrap_js(&mount.panel, &mount.nonce).into_bytes(),
            );
        }
        match mount.assets.get(&joined) {
            Some(f) => f.clone(),
            None => return not_found(),
        }
    };
    // Only the verified cache: never fetched here, never anything unverified.
    let Ok(cache) = tables.cache() else {
        return not_found();
    };
    let Some(hit) = cache.cached(&file.hash, Some(file.size)).await else {
        return not_found();
    };
    let Ok(bytes) = tokio::fs::read(&hit.path).await else {
        return not_found();
    };
    if rest.is_empty() {
        let html = String::from_utf8_lossy(&bytes);
        return respond(
            StatusCode::OK,
            "text/html; charset=utf-8",
            inject(&html).into_bytes(),
        );
    }
    respond(StatusCode::OK, &file.mime, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        assert_eq!(clean_segments("a/b.js").unwrap(), ["a", "b.js"]);
        assert_eq!(clean_segments("a%20b.js").unwrap(), ["a b.js"]);
        for bad in [
            "", "a//b", "./a", "../a", "a/..", "%2e%2e/x", "a%2fb", "a\\b", "a%5cb", "a%00", "%zz",
        ] {
            assert!(clean_segments(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn injection_points() {
        assert!(inject("<html><head><title>x</title>").starts_with(
            "<html><head><link rel=\"stylesheet\" href=\"__loreweaver__/theme.css\">"
        ));
        assert!(inject("<HTML lang=en><header>").starts_with("<HTML lang=en><link"));
        assert!(inject("<p>hi").starts_with("<link"));
    }

    #[test]
    fn policy_is_exact() {
        assert_eq!(
            csp("ab"),
            "default-src 'none'; script-src lwpanel://localhost/ab/; style-src lwpanel://localhost/ab/; img-src lwpanel://localhost/ab/; font-src lwpanel://localhost/ab/; media-src lwpanel://localhost/ab/; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
        );
    }

    #[test]
    fn theme_values_are_checked() {
        let css = theme_css(
            &serde_json::json!({"--lw-bg": "#111", "--lw-ink": "red; } body { x", "--evil": "1", "--lw-accent": "url(http://x)"}),
        );
        assert!(css.contains("--lw-bg: #111;"));
        assert!(!css.contains("red"));
        assert!(!css.contains("evil"));
        assert!(!css.contains("url("));
    }
}
