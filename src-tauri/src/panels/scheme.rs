//! The `lwpanel:` scheme: `<origin>/<token>/<path>` answers GET/HEAD for a live mount's entry
//! (`<token>/`), its declared assets (relative to the entry's directory) and two reserved files
//! (`__loreweaver__/theme.css`, `__loreweaver__/bootstrap.js`); everything else is 404. Bytes
//! come only from the verified cache, read no further than the size the manifest declared, and
//! a mount has only a few requests served at once. Every response carries the mount's exact
//! policy, built from the origin the request itself used.

use tauri::http::{header, Method, Request, Response, StatusCode, Uri};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use super::origin::{csp, request_origin};
use super::page::{bootstrap_js, clean_segments, inject, RESERVED};
use super::Panels;

pub fn serve<R: Runtime>(
    ctx: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let app = ctx.app_handle().clone();
    let method = request.method().clone();
    let uri = request.uri().clone();
    tauri::async_runtime::spawn(async move {
        let panels = app.state::<Panels>();
        responder.respond(answer(&panels, &method, &uri).await);
    });
}

/// One response with the headers every panel response carries.
fn respond(
    method: &Method,
    policy: &str,
    status: StatusCode,
    mime: &str,
    body: Vec<u8>,
) -> Response<Vec<u8>> {
    let body = if *method == Method::HEAD {
        Vec::new()
    } else {
        body
    };
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, mime)
        .header(header::CONTENT_SECURITY_POLICY, policy)
        .header("X-Content-Type-Options", "nosniff")
        .header(header::CACHE_CONTROL, "no-store")
        .header("Referrer-Policy", "no-referrer")
        .body(body)
        .expect("a panel response always builds")
}

pub(crate) async fn answer(panels: &Panels, method: &Method, uri: &Uri) -> Response<Vec<u8>> {
    let path = uri.path().strip_prefix('/').unwrap_or(uri.path());
    let (token, rest) = path.split_once('/').unwrap_or((path, ""));
    let origin = request_origin(uri);
    let policy = csp(origin.as_deref().unwrap_or("null"), token);
    let plain = |status: StatusCode, text: &str| {
        respond(
            method,
            &policy,
            status,
            "text/plain",
            text.as_bytes().to_vec(),
        )
    };
    if *method != Method::GET && *method != Method::HEAD {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "GET or HEAD only");
    }
    let Some(mount) = origin.and_then(|_| panels.mounts.get(token)) else {
        return plain(StatusCode::NOT_FOUND, "not found");
    };
    let Some(_turn) = mount.gate.enter().await else {
        return plain(StatusCode::SERVICE_UNAVAILABLE, "too many requests at once");
    };
    let file = if rest.is_empty() {
        mount.entry.clone()
    } else {
        let Some(segs) = clean_segments(rest) else {
            return plain(StatusCode::NOT_FOUND, "not found");
        };
        let joined = segs.join("/");
        if joined == format!("{RESERVED}/theme.css") {
            return respond(
                method,
                &policy,
                StatusCode::OK,
                "text/css; charset=utf-8",
                mount.theme_css.clone().into_bytes(),
            );
        }
        if joined == format!("{RESERVED}/bootstrap.js") {
            return respond(
                method,
                &policy,
                StatusCode::OK,
                "text/javascript; charset=utf-8",
                bootstrap_js(&mount.panel, &mount.nonce).into_bytes(),
            );
        }
        match mount.assets.get(&joined) {
            Some(f) => f.clone(),
            None => return plain(StatusCode::NOT_FOUND, "not found"),
        }
    };
    // Only the verified cache, only the declared size: never fetched here, never more.
    let Ok(cache) = panels.cache.get() else {
        return plain(StatusCode::NOT_FOUND, "not found");
    };
    let Ok(bytes) = cache.read(&file.hash, Some(file.size), file.size).await else {
        return plain(StatusCode::NOT_FOUND, "not found");
    };
    if rest.is_empty() {
        let html = String::from_utf8_lossy(&bytes);
        return respond(
            method,
            &policy,
            StatusCode::OK,
            "text/html; charset=utf-8",
            inject(&html).into_bytes(),
        );
    }
    respond(method, &policy, StatusCode::OK, &file.mime, bytes)
}
