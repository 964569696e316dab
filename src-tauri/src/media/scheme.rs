//! `lwmedia://localhost/<sha256>?mime=…&size=…`: pictures for the UI, served only from the
//! verified cache (fetched over the media channel first when missing). The WebView never
//! touches the network; nothing unverified is ever served.

use tauri::http::{header, Request, Response, StatusCode};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use super::Cache;
use crate::seat::Seat;

// Only kinds an `<img>` can show; anything else would be a download or a surprise.
use protocol::media::is_image;

pub fn serve<R: Runtime>(
    ctx: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let app = ctx.app_handle().clone();
    let uri = request.uri().clone();
    tauri::async_runtime::spawn(async move {
        let (cache, seat) = (app.state::<Cache>(), app.state::<Seat>());
        let response = match answer(&cache, &seat, &uri).await {
            Ok(r) => r,
            Err((status, why)) => plain(status, why),
        };
        responder.respond(response);
    });
}

async fn answer(
    cache: &Cache,
    seat: &Seat,
    uri: &tauri::http::Uri,
) -> Result<Response<Vec<u8>>, (StatusCode, String)> {
    let hash = uri.path().trim_start_matches('/');
    let query = uri.query().unwrap_or_default();
    let param = |name: &str| {
        query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| {
                v.replace("%2F", "/")
                    .replace("%2f", "/")
                    .replace("%2B", "+")
                    .replace("%2b", "+")
            })
    };
    let size = param("size").and_then(|s| s.parse::<u64>().ok());
    // The block's mime is optional on the wire: without it, the verified bytes decide.
    let claimed = param("mime").filter(|m| is_image(m));
    let cache = cache
        .get()
        .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e))?;
    // Fetched (and verified) first when missing; what is served is read back from the
    // verified file, never more than any image may be.
    let mut fetched_mime = None;
    if cache.cached(hash, size).await.is_none() {
        let session = seat
            .session()
            .await
            .ok_or((StatusCode::SERVICE_UNAVAILABLE, "not at a table".into()))?;
        let channel = session
            .media()
            .ok_or((StatusCode::SERVICE_UNAVAILABLE, "offline".into()))?;
        fetched_mime = cache
            .get(&channel, hash, size)
            .await
            .map_err(|e| (StatusCode::NOT_FOUND, e.to_string()))?
            .mime;
    }
    let bytes = cache
        .read(hash, size, protocol::media::IMAGE_MAX_BYTES)
        .await
        .map_err(|e| match e {
            transport::MediaError::TooLarge { .. } => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "larger than any image may be".to_string(),
            ),
            e => (StatusCode::NOT_FOUND, e.to_string()),
        })?;
    let mime = claimed
        .or_else(|| fetched_mime.filter(|m| is_image(m)))
        .or_else(|| sniff_image(&bytes).map(str::to_string))
        .ok_or((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "not an image kind Studio shows".to_string(),
        ))?;
    Response::builder()
        .header(header::CONTENT_TYPE, mime)
        .header(header::CACHE_CONTROL, "max-age=31536000, immutable")
        .header("X-Content-Type-Options", "nosniff")
        // An SVG opened directly must not run anything.
        .header(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'",
        )
        .body(bytes)
        .map_err(|e| (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

fn plain(status: StatusCode, why: String) -> Response<Vec<u8>> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(why.into_bytes())
        .expect("a plain response always builds")
}

/// The image kind of `bytes` by their first bytes, for blocks that carry no mime.
fn sniff_image(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(256)];
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        Some("image/webp")
    } else if String::from_utf8_lossy(head).contains("<svg") {
        Some("image/svg+xml")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::sniff_image;

    #[test]
    fn sniffs_the_image_kinds() {
        assert_eq!(sniff_image(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(sniff_image(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(sniff_image(b"GIF89a.."), Some("image/gif"));
        assert_eq!(sniff_image(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(
            sniff_image(b"<?xml version='1.0'?><svg xmlns=''/>"),
            Some("image/svg+xml")
        );
        assert_eq!(sniff_image(b"ID3\x03 mp3"), None);
    }
}
