//! Hosting a table from Studio with the real engine (`../shared/engine`, installed by setup):
//! the window's own host panel, always "for this machine only" (the engine bound to 127.0.0.1
//! with no relays), and what a test reads beside the window (the table's folder, its pid file,
//! the engine's process).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{wait_for, Session};

/// How long Studio waits after SIGTERM before it kills the engine (`hosting::STOP_GRACE`).
pub const STOP_GRACE: Duration = Duration::from_secs(10);

/// The engine's source folder (its venv beside it), as setup installed it.
pub fn engine_dir() -> PathBuf {
    test_support::engine_install().0
}

/// A copy of the bench fixture pack in `root/pack` and a profile in `root/studio` that chose
/// the test engine for hosting (the bench's packer and its engine runs use that one).
pub fn bench_pack_and_profile(root: &Path) -> (PathBuf, PathBuf) {
    let (pack, profile) = (root.join("pack"), root.join("studio"));
    test_support::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench-pack"),
        &pack,
    );
    std::fs::create_dir_all(profile.join("hosted")).expect("the profile");
    std::fs::write(
        profile.join("hosted/engine.txt"),
        engine_dir().display().to_string(),
    )
    .expect("the profile's engine");
    (pack, profile)
}

/// The hosted table's folder in a window's profile (`STUDIO_DATA_DIR` = `data`).
pub fn table_dir(data: &Path, slug: &str) -> PathBuf {
    data.join("hosted").join(slug)
}

/// Opens the host panel and, when no engine is known yet, gives it the engine's folder.
pub fn open_host_panel(s: &Session) {
    let host = wait_for(Duration::from_secs(30), "the Host a table button", || {
        s.find("#host")
    });
    s.click(&host);
    // (A remembered engine is probed first: up to Studio's 30 s limit.)
    let found = wait_for(Duration::from_secs(45), "the host panel", || {
        if s.find("#engine-found").is_some() {
            Some(true)
        } else {
            s.find("#engine-path").map(|_| false)
        }
    });
    if !found {
        choose_engine(s, &engine_dir().display().to_string());
        // Its `--version` may take up to Studio's 30 s limit on a loaded runner.
        wait_for(Duration::from_secs(45), "the engine found", || {
            s.find("#engine-found")
        });
    }
}

/// Types `path` into the engine page and presses Use this engine.
pub fn choose_engine(s: &Session, path: &str) {
    let field = s.find("#engine-path").expect("the engine path field");
    s.clear(&field);
    s.type_text(&field, path);
    s.click(&s.find("#engine-use").expect("the Use this engine button"));
}

/// Hosts table `name` for this machine only; returns when the strip shows its ticket.
pub fn host(s: &Session, name: &str) -> String {
    open_host_panel(s);
    host_from_panel(s, name)
}

/// [`host`] from the host panel already open with its engine found: names the table, checks
/// "for this machine only" and presses Host.
pub fn host_from_panel(s: &Session, name: &str) -> String {
    let field = s.find("#host-name").expect("the table name field");
    s.clear(&field);
    s.type_text(&field, name);
    let local = s.find("#host-local").expect("the this-machine-only box");
    let checked = || {
        s.execute(
            "return document.getElementById('host-local').checked;",
            serde_json::json!([]),
        )
        .expect("reading the box")
        .as_bool()
        .unwrap_or(false)
    };
    if !checked() {
        s.click(&local);
    }
    // Never the Internet mode in a test: it would try the public relays.
    assert!(checked(), "the this-machine-only box did not check");
    s.click(&s.find("#host-start").expect("the Host button"));
    wait_ticket(s)
}

/// Waits for the strip's ticket (serving).
pub fn wait_ticket(s: &Session) -> String {
    wait_for(
        Duration::from_secs(90),
        "the hosting strip's ticket",
        || {
            let t = s.attr(&s.find("#hosting-ticket")?, "title")?;
            (!t.is_empty()).then_some(t)
        },
    )
}

/// The strip's state word. A strip without one panics (an empty word would pass a "not …").
pub fn state(s: &Session) -> String {
    let word = s
        .find("#hosting-state")
        .expect("the hosting strip's state word (#hosting-state)");
    s.text(&word)
}

/// The engine's pid, from the pid file Studio keeps in the table's folder.
pub fn pid(table: &Path) -> u32 {
    wait_for(Duration::from_secs(10), "the engine's pid file", || {
        std::fs::read_to_string(table.join("engine.pid"))
            .ok()?
            .trim()
            .parse()
            .ok()
    })
}

/// Whether process `pid` exists (a zombie does not count: it runs nothing).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next())
                .map(|st| st != "Z" && st != "X")
        })
        .unwrap_or(false)
}

/// Waits until `pid` is gone; how long that took.
pub fn wait_gone(pid: u32, timeout: Duration, what: &str) -> Duration {
    let from = Instant::now();
    wait_for(timeout, what, || (!alive(pid)).then_some(()));
    from.elapsed()
}

/// The keeper key the engine wrote next to its keys (`key=` in `keeper-key.txt`).
pub fn keeper_key(table: &Path) -> String {
    let text = std::fs::read_to_string(table.join("keeper-key.txt")).expect("keeper-key.txt");
    let key = text
        .lines()
        .find_map(|l| l.strip_prefix("key="))
        .expect("a key= line")
        .trim()
        .to_string();
    assert!(key.len() >= 16, "a keeper key that short is no key");
    key
}

/// Whether `haystack` holds `secret` (the one scan both the positive control and the checks use).
pub fn holds(haystack: &str, secret: &str) -> bool {
    !secret.is_empty() && haystack.contains(secret)
}

/// The whole document as markup, and every attribute value and input value in it.
pub fn dom(s: &Session) -> String {
    s.execute(
        "const vals = [...document.querySelectorAll('input,textarea')].map(e => e.value).join('\\n');\
         return document.documentElement.outerHTML + '\\n' + vals;",
        serde_json::json!([]),
    )
    .expect("reading the document")
    .as_str()
    .expect("the document read as text")
    .to_string()
}

/// A windowless connection to a hosted table on loopback (the test's own, never the window's).
async fn windowless(
    ticket: &str,
    key: &str,
) -> (
    transport::session::SessionHandle,
    tokio::sync::mpsc::Receiver<transport::session::SessionEvent>,
) {
    let endpoint = transport::endpoint::bind(transport::endpoint::NetworkMode::LocalOnly)
        .await
        .expect("a loopback endpoint");
    let params = transport::session::JoinParams {
        key: key.into(),
        name: None,
        client_version: "0.0.0-e2e".into(),
    };
    transport::session::Session::connect(
        endpoint,
        ticket.parse().expect("the hosted table's ticket"),
        params,
    )
    .await
    .unwrap_or_else(|e| panic!("joining the hosted table without a window: {e}"))
}

/// The first frame `pick` takes from `events` within 20 s.
async fn first<T>(
    events: &mut tokio::sync::mpsc::Receiver<transport::session::SessionEvent>,
    what: &str,
    pick: impl Fn(protocol::ServerFrame) -> Option<T>,
) -> T {
    let until = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let event = tokio::time::timeout_at(until, events.recv())
            .await
            .unwrap_or_else(|_| panic!("no {what} within 20 s"))
            .unwrap_or_else(|| panic!("the connection closed before {what}"));
        if let transport::session::SessionEvent::Frame(frame, _) = event {
            if let Some(t) = pick(frame) {
                return t;
            }
        }
    }
}

/// A player key for the hosted table, minted by its keeper (`admin_mint_key`) without a window.
pub fn mint_player(ticket: &str, keeper_key: &str) -> String {
    crate::peers::runtime().block_on(async {
        let (keeper, mut events) = windowless(ticket, keeper_key).await;
        keeper
            .send(protocol::ClientFrame::AdminMintKey(
                protocol::frame::AdminMintKey {
                    room: None,
                    name: Some("Tester".into()),
                    role: Some(protocol::frame::Role::Player),
                },
            ))
            .await
            .expect("asking for a player key");
        let key = first(&mut events, "the minted key", |f| match f {
            protocol::ServerFrame::AdminKeys(k) => k.minted.map(|m| m.key),
            _ => None,
        })
        .await;
        keeper.close();
        key
    })
}

/// The panel ids a connection with `key` is shown when it joins the hosted table.
pub fn panels_seen(ticket: &str, key: &str) -> Vec<String> {
    crate::peers::runtime().block_on(async {
        let (session, mut events) = windowless(ticket, key).await;
        let ids = first(&mut events, "a ui_manifest", |f| match f {
            protocol::ServerFrame::UiManifest(m) => {
                Some(m.panels.into_iter().map(|p| p.id).collect::<Vec<_>>())
            }
            _ => None,
        })
        .await;
        session.close();
        ids
    })
}
