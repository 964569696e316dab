//! The scheme handler answered directly, as the WebView would ask it: what a browser would
//! normalise away before sending (dot segments, encoded slashes) is tried here raw.

use std::collections::HashMap;

use sha2::{Digest, Sha256};
use tauri::http::{header, Method, StatusCode, Uri};
use transport::MediaCache;

use super::mounts::{Gate, Mount, Served};
use super::scheme::answer;
use super::Panels;
use crate::media::Cache;

/// A file's name in the cache: its sha256 in hex.
fn hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn table_with_page(dir: &std::path::Path) -> (Panels, String) {
    let cache = MediaCache::open(dir, u64::MAX).unwrap();
    let page = b"<html><head></head><body>page</body></html>";
    let app = b"console.log(1)";
    std::fs::write(dir.join(hex(page)), page).unwrap();
    std::fs::write(dir.join(hex(app)), app).unwrap();
    let tables = Panels::new(dir.join("profile"), Cache::with(cache));
    let panel: protocol::frame::UiManifestPanel = serde_json::from_value(serde_json::json!({
        "id": "p/page", "slot": "sidebar", "tier": 2, "title": "Page",
        "entry": {"path": "index.html", "hash": hex(page), "size": page.len(), "mime": "text/html"}
    }))
    .unwrap();
    let token = "0123456789abcdef0123456789abcdef".to_string();
    tables.mounts.insert_for_test(
        token.clone(),
        Mount {
            panel: panel.id.clone(),
            spec: panel,
            nonce: "n".into(),
            entry: Served {
                hash: hex(page),
                size: page.len() as u64,
                mime: "text/html".into(),
            },
            assets: HashMap::from([(
                "js/app.js".to_string(),
                Served {
                    hash: hex(app),
                    size: app.len() as u64,
                    mime: "text/javascript".into(),
                },
            )]),
            theme_css: String::new(),
            gate: Gate::new(),
        },
    );
    (tables, token)
}

async fn get(tables: &Panels, uri: &str) -> (StatusCode, String, String) {
    let r = answer(tables, &Method::GET, &uri.parse::<Uri>().unwrap()).await;
    let csp = r
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (
        r.status(),
        String::from_utf8_lossy(r.body()).into_owned(),
        csp,
    )
}

#[tokio::test]
async fn the_scheme_serves_a_live_mount_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, t) = table_with_page(dir.path());
    let (status, body, csp) = get(&tables, &format!("lwpanel://localhost/{t}/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("__loreweaver__/bootstrap.js") && body.contains("page"));
    assert!(csp.contains(&format!("script-src lwpanel://localhost/{t}/;")));
    let (status, body, _) = get(&tables, &format!("lwpanel://localhost/{t}/js/app.js")).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "console.log(1)"));
    // The Windows form of the origin gets a policy naming that origin.
    let (status, _, csp) = get(&tables, &format!("http://lwpanel.localhost/{t}/")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(csp.contains(&format!("script-src http://lwpanel.localhost/{t}/;")));
    // What a browser would normalise before sending, sent raw.
    for raw in [
        format!("lwpanel://localhost/{t}/js/../js/app.js"),
        format!("lwpanel://localhost/{t}/./js/app.js"),
        format!("lwpanel://localhost/{t}/js/%2e%2e/js/app.js"),
        format!("lwpanel://localhost/{t}/js%2fapp.js"),
        format!("lwpanel://localhost/{t}/js\\app.js"),
        format!("lwpanel://localhost/{t}/..%2f..%2fetc%2fpasswd"),
        format!("lwpanel://localhost/{t}//js/app.js"),
        format!("lwpanel://localhost/{t}/__loreweaver__/../js/app.js"),
        format!("lwpanel://evil.example/{t}/js/app.js"),
        format!("lwpanel://localhost/{}/js/app.js", "0".repeat(32)),
        "lwpanel://localhost/../../etc/passwd".to_string(),
    ] {
        let uri = raw.parse::<Uri>();
        let Ok(uri) = uri else { continue };
        let r = answer(&tables, &Method::GET, &uri).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{raw}");
    }
    let post = answer(
        &tables,
        &Method::POST,
        &format!("lwpanel://localhost/{t}/").parse().unwrap(),
    )
    .await;
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    // The page unmounts: its token answers 404 from then on.
    assert!(tables.mounts.unmount(&t));
    let (status, _, _) = get(&tables, &format!("lwpanel://localhost/{t}/js/app.js")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_cached_file_that_changed_is_not_served() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, t) = table_with_page(dir.path());
    let (status, _, _) = get(&tables, &format!("lwpanel://localhost/{t}/js/app.js")).await;
    assert_eq!(status, StatusCode::OK);
    // Rewritten under its name (same size): not the verified file any more.
    std::fs::write(dir.path().join(hex(b"console.log(1)")), b"console.log(2)").unwrap();
    let (status, body, _) = get(&tables, &format!("lwpanel://localhost/{t}/js/app.js")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}
