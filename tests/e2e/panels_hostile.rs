//! Module panels in the real window, against a local table run in this process with the test
//! pack and the hostile pack enabled: a tier-1 and a tier-2 panel render (screenshots), and a
//! hostile tier-2 page's escape attempts all fail — read by switching into its frame.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use local_table::table::demo_config;
use local_table::{LocalTable, Pacing};
use studio_e2e::keeper::{click, wait_text};
use studio_e2e::peers::{free_udp_port, fresh_dir, runtime};
use studio_e2e::play::{join, saved_story, say, transcript, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};
use test_support::repo;

/// Copies the hostile pack, pointing its network attempts at `port`.
fn hostile_pack(into: &Path, port: u16) -> PathBuf {
    fn copy(from: &Path, to: &Path, port: u16) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let p = e.path();
            let t = to.join(e.file_name());
            if p.is_dir() {
                copy(&p, &t, port);
            } else {
                let text = std::fs::read_to_string(&p).unwrap();
                std::fs::write(&t, text.replace("__PORT__", &port.to_string())).unwrap();
            }
        }
    }
    let dest = into.join("hostile-pack");
    copy(&repo().join("tests/fixtures/hostile-pack"), &dest, port);
    dest
}

/// A loopback listener that counts every connection and answers each with 200 and permissive
/// CORS, so a request that got through would also succeed in the page: the count is the
/// verdict for every network attempt, not a silence that reads as "blocked" either way.
fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    std::thread::spawn(move || {
        for mut c in l.incoming().flatten() {
            h.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 1024];
            let _ = c.set_read_timeout(Some(Duration::from_millis(200)));
            let n = c.read(&mut buf).unwrap_or(0);
            eprintln!(
                "LISTENER HIT: {}",
                String::from_utf8_lossy(&buf[..n])
                    .lines()
                    .next()
                    .unwrap_or("")
            );
            let _ = std::io::Write::write_all(
                &mut c,
                b"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
            );
        }
    });
    (port, hits)
}

/// The positive control: one request from the test itself is counted and answered.
fn control_request(port: u16) -> String {
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("the listener");
    std::io::Write::write_all(&mut c, b"GET /control HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
    let mut reply = String::new();
    let _ = c.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = c.read_to_string(&mut reply);
    reply
}

/// Every attempt the probe reports (one row each); `forged-state` appears only on an escape.
const ATTEMPTS: &[&str] = &[
    "api",
    "bad-intents",
    "beacon",
    "bridge-raw",
    "control-img",
    "control-script",
    "cookies",
    "eventsource",
    "fetch-app-origin",
    "fetch-ipc",
    "fetch-net",
    "fetch-own-file",
    "fetch-tauri",
    "font-face",
    "forged-bad-nonce",
    "forged-no-nonce",
    "forged-state-self",
    "form-submit",
    "host-localstorage",
    "img",
    "inline-script",
    "neighbour-img",
    "neighbour-script",
    "ipc-guessed-key",
    "ipc-no-key",
    "own-localstorage",
    "parent-document",
    "parent-location",
    "ready",
    "script-other-token",
    "tauri-global",
    "tauri-internals",
    "top-location",
    "traversal",
    "traversal-encoded",
    "websocket",
    "window-open",
    "xhr-net",
];

/// The positive controls: the neighbour attempts' loads, made from the probe's own files. They
/// must succeed, so a blocked neighbour load means its token was refused, not a load that
/// could never work.
const CONTROLS: &[&str] = &["control-img", "control-script"];

/// Rows that report, not attempt.
const STATUS_ROWS: &[&str] = &["api", "bridge-raw", "ready"];

/// Attempts whose "blocked" could not have read otherwise even with no sandbox and no CSP: kept
/// as defence in depth. An all-zero token names no mount; the browser normalises `..` (plain
/// or percent-encoded) before it asks, so the scheme never sees it (the scheme handler's own
/// test sends those raw URIs and gets 404 for each).
const CANNOT_FAIL: &[&str] = &["script-other-token", "traversal", "traversal-encoded"];

/// What the panel scheme serves at `url` now, read through a throwaway (script-less) frame.
fn served_text(s: &studio_e2e::Studio, url: &str) -> String {
    s.execute(
        "const f = document.createElement('iframe'); f.id = 'served-check'; f.setAttribute('sandbox', '');
         f.src = arguments[0]; document.body.appendChild(f); return 0;",
        serde_json::json!([url]),
    )
    .expect("adding the check frame");
    let frame = wait_for(Duration::from_secs(5), "the check frame", || {
        s.find("#served-check")
    });
    let text = wait_for(Duration::from_secs(10), "the check frame to load", || {
        s.switch_to_frame(&frame).ok()?;
        let loaded = s
            .execute(
                "return document.readyState === 'complete' && location.href !== 'about:blank';",
                serde_json::json!([]),
            )
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let t = s.find("body").map(|b| s.text(&b)).unwrap_or_default();
        s.switch_to_top();
        loaded.then_some(t)
    });
    let _ = s.execute(
        "document.getElementById('served-check').remove(); return 0;",
        serde_json::json!([]),
    );
    text
}

/// The app's invoke key, as the main frame's own IPC sends it (a test may look; a page may not).
fn invoke_key(s: &studio_e2e::Studio) -> String {
    s.execute(
        "const orig = window.fetch;
         window.fetch = function (url, init) {
           const h = init && init.headers;
           const k = h && (typeof h.get === 'function' ? h.get('Tauri-Invoke-Key') : h['Tauri-Invoke-Key']);
           if (k) { window.__invokeKey = k; }
           return orig.apply(this, arguments);
         };
         window.__TAURI_INTERNALS__.invoke('studio_info', { args: {} }).finally(() => { window.fetch = orig; });
         return 0;",
        serde_json::json!([]),
    )
    .expect("asking for studio_info");
    wait_for(Duration::from_secs(5), "the invoke key", || {
        s.execute("return window.__invokeKey || null;", serde_json::json!([]))
            .ok()?
            .as_str()
            .map(str::to_string)
    })
}

#[test]
fn panels_render_and_hostile_pages_stay_in_their_box() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("panels");
    let (port, hits) = counting_listener();
    let hostile = hostile_pack(&dir, port);
    let (mut config, keys) = demo_config(dir.join("table")).expect("demo config");
    config.port = free_udp_port();
    config.pacing = Pacing::fast();
    config
        .packs
        .push(repo().join("crates/local-table/tests/fixtures/test-pack"));
    config.packs.push(hostile);
    let rt = runtime();
    let table = rt.block_on(LocalTable::start(config)).expect("local table");
    // The listener counts and answers: proven by the test's own request before any page runs.
    let reply = control_request(port);
    assert!(
        reply.starts_with("HTTP/1.1 200") && reply.ends_with("ok"),
        "{reply:?}"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "the listener did not count the control"
    );
    let ticket = table.ticket();

    let cache = dir.join("cache");
    let log = dir.join("studio.log");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", dir.join("studio").to_str().unwrap()),
        ("STUDIO_MEDIA_CACHE", cache.to_str().unwrap()),
        ("STUDIO_LOG_FILE", log.to_str().unwrap()),
        ("STUDIO_SAVE_DIR", saves.to_str().unwrap()),
    ]);
    join(&s, &ticket, &keys.keeper);
    wait_online(&s, Duration::from_secs(30));
    say(&s, ".panels enable test-pack");

    // Tier 1 in the sidebar: the title and its blocks.
    let side = wait_for(Duration::from_secs(20), "the tier-1 sidebar panel", || {
        s.find(".slot-sidebar[data-panel='test-pack/side']")
    });
    wait_for(Duration::from_secs(10), "its title", || {
        s.text(&side).contains("Sidebar").then_some(())
    });
    // The tray strip above the input holds the keeper's tray panel.
    wait_for(Duration::from_secs(10), "the tray panel", || {
        s.find("#panel-tray .slot-tray[data-panel='test-pack/tray']")
    });
    // The tier-2 notice names the count.
    let notice = wait_for(Duration::from_secs(10), "the panel-code notice", || {
        s.find("#panel-code-notice")
    });
    assert!(
        s.text(&notice).contains("panel page"),
        "{}",
        s.text(&notice)
    );
    s.screenshot(&out_dir().join("panels-tier1.png"));
    // Not one page starts before the person lets this room's code run.
    assert!(
        s.find("iframe.lw-panel-frame").is_none(),
        "a page started unasked"
    );
    click(&s, "#panel-code-run");

    // Tier 2 in the modal, opened from the status bar's Panels menu.
    s.click(&s.find("#panels-menu").expect("Panels menu"));
    let item = wait_for(Duration::from_secs(5), "the board item", || {
        s.find(".panels-menu-item[data-panel='test-pack/board']")
    });
    s.click(&item);
    let frame = wait_for(Duration::from_secs(20), "the board's frame", || {
        if let Some(f) = s.find(".lw-modal .panel-failed") {
            panic!("the board did not start: {:?}", s.attr(&f, "data-why"));
        }
        s.find(".lw-modal iframe.lw-panel-frame")
    });
    eprintln!("board frame sandbox: {:?}", s.attr(&frame, "sandbox"));
    let board_url = s.attr(&frame, "src").expect("the board's page URL");
    // Its page runs (best effort: it never says `ready`, so it is replaced after 6 s).
    if s.switch_to_frame(&frame).is_ok() {
        let ran = s.find("#board").map(|b| s.text(&b)).unwrap_or_default();
        eprintln!("board page text: {ran:?}");
        s.switch_to_top();
    }
    s.screenshot(&out_dir().join("panels-tier2-modal-page.png"));
    // No `ready` within 6 s: the fallback blocks with a Retry.
    wait_for(Duration::from_secs(15), "the board's fallback", || {
        s.find(".lw-modal .panel-failed .panel-retry")
    });
    s.screenshot(&out_dir().join("panels-tier2-modal.png"));
    // The page that never started was unmounted: its token answers 404 now.
    assert_eq!(served_text(&s, &board_url), "not found");
    // Esc closes the dialog.
    let body = s.find("body").unwrap();
    s.type_text(&body, "\u{E00C}");
    wait_for(Duration::from_secs(5), "the dialog to close", || {
        s.find(".lw-modal").is_none().then_some(())
    });

    // The hostile page, and a well-behaved neighbour whose real token it will be given.
    say(&s, ".panels enable hostile-pack");
    let probe = wait_for(Duration::from_secs(30), "the probe's frame", || {
        s.find(".slot-sidebar[data-panel='hostile-pack/probe'] iframe")
    });
    let neighbour = wait_for(Duration::from_secs(30), "the neighbour's frame", || {
        s.find(".slot-sidebar[data-panel='hostile-pack/neighbour'] iframe")
    });
    let neighbour_url = s.attr(&neighbour, "src").expect("the neighbour's URL");
    let neighbour_base = neighbour_url[..=neighbour_url.rfind('/').expect("a path")].to_string();
    // The frame is sandboxed to scripts only, and its origin is opaque.
    assert_eq!(s.attr(&probe, "sandbox").as_deref(), Some("allow-scripts"));
    s.switch_to_frame(&probe).expect("into the probe frame");
    let origin = s.execute("return self.origin;", serde_json::json!([]));
    assert_eq!(
        origin.ok(),
        Some(serde_json::json!("null")),
        "the probe's origin"
    );
    wait_for(Duration::from_secs(30), "the probe to finish", || {
        s.find("body[data-done='1']")
    });
    // Another live mount's real token, each load beside its control.
    let tried = s.execute(
        "return window.__tryNeighbour(arguments[0]);",
        serde_json::json!([neighbour_base]),
    );
    assert_eq!(
        tried.ok(),
        Some(serde_json::json!(neighbour_base)),
        "the neighbour attempts"
    );
    wait_for(
        Duration::from_secs(10),
        "the neighbour attempts' rows",
        || {
            s.execute(
            "return ['control-img','control-script','neighbour-img','neighbour-script'].every(id => document.querySelector('#results li[data-id=\"' + id + '\"]'));",
            serde_json::json!([]),
        )
        .ok()?
        .as_bool()?
        .then_some(())
        },
    );
    let results = s
        .execute(
            "return Array.from(document.querySelectorAll('#results li')).map(li => [li.dataset.id, li.dataset.outcome, li.textContent]);",
            serde_json::json!([]),
        )
        .expect("reading the probe's results");
    // The page sends its own frame elsewhere, one way after another: each must leave it here.
    for how in ["location", "assign", "meta", "download", "data"] {
        let sent = s.execute(
            "return window.__navigate(arguments[0]);",
            serde_json::json!([how]),
        );
        assert_eq!(
            sent.ok().as_ref().and_then(|v| v.as_str()),
            Some(how),
            "the probe was gone before '{how}' (an earlier navigation went through)"
        );
        std::thread::sleep(Duration::from_millis(400));
    }
    let still = s
        .execute(
            "return !!document.getElementById('results') && !document.getElementById('elsewhere');",
            serde_json::json!([]),
        )
        .unwrap_or(serde_json::Value::Bool(false));
    assert_eq!(still, true, "the probe frame navigated away");
    s.switch_to_top();
    // Raw bridge messages with the real nonce: counted on the frame, never processed.
    let probe_url = s.attr(&probe, "src").expect("the probe's URL");
    assert_eq!(s.attr(&probe, "data-bridge-unknown").as_deref(), Some("3"));
    assert_eq!(s.attr(&probe, "data-bridge-refused").as_deref(), Some("2"));
    s.screenshot(&out_dir().join("panels-hostile.png"));
    let rows = results.as_array().cloned().unwrap_or_default();
    eprintln!("probe results:");
    let mut attempts = 0;
    for r in &rows {
        eprintln!("  {}", r[2].as_str().unwrap_or(""));
        let id = r[0].as_str().unwrap_or("");
        let outcome = r[1].as_str().unwrap_or("");
        if CONTROLS.contains(&id) {
            assert_eq!(outcome, "ESCAPED", "a control load failed: {}", r[2]);
            continue;
        }
        assert_ne!(outcome, "ESCAPED", "an escape succeeded: {}", r[2]);
        if outcome == "blocked" {
            attempts += 1;
        }
    }
    let outcome = |id: &str| {
        rows.iter()
            .find(|r| r[0] == id)
            .and_then(|r| r[1].as_str().map(str::to_string))
    };
    assert_eq!(outcome("api").as_deref(), Some("present"));
    assert_eq!(outcome("bridge-raw").as_deref(), Some("sent"));
    assert_eq!(outcome("ready").as_deref(), Some("acked"));
    assert!(attempts >= 25, "only {attempts} escape attempts reported");
    // Exactly the attempts the probe makes, each reported once: none silently skipped.
    let mut ids: Vec<&str> = rows.iter().filter_map(|r| r[0].as_str()).collect();
    ids.sort_unstable();
    let mut want = ATTEMPTS.to_vec();
    want.sort_unstable();
    assert_eq!(ids, want, "the probe's attempts");
    let judged = ATTEMPTS.len() - STATUS_ROWS.len() - CONTROLS.len();
    eprintln!(
        "hostile verdicts: {} of {judged} attempts could have read \"escaped\" (the other {} are defence in depth: {CANNOT_FAIL:?})",
        judged - CANNOT_FAIL.len(),
        CANNOT_FAIL.len()
    );

    // Give late network attempts (beacon, css, font, form) a moment, then: nothing reached us.
    std::thread::sleep(Duration::from_secs(2));
    // The listener saw the test's own control and nothing else.
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "a panel reached the network"
    );
    // The raw IPC posts ran nothing: still at the table, online.
    wait_online(&s, Duration::from_secs(5));
    assert!(s.find("#room").is_some(), "the app left the table");
    // The page's unprompted intent did not go out: the host asks, naming the panel and
    // showing the exact text; what the page sent meanwhile was dropped and counted.
    let said = |s: &studio_e2e::Studio| {
        transcript(s)
            .iter()
            .map(|l| l.text.clone())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let prompt = wait_text(&s, "#intent-prompt", "the host's prompt", |t| {
        t.contains("PROBE-VALID-INTENT")
    });
    assert!(
        prompt.contains("Probe") && prompt.contains("wants to send"),
        "{prompt}"
    );
    assert_eq!(
        s.text(&s.find("#intent-text").unwrap()),
        "PROBE-VALID-INTENT"
    );
    let dropped = s.find("#intent-dropped").expect("the dropped notice");
    assert_eq!(
        s.attr(&dropped, "data-count").as_deref(),
        Some("2"),
        "{}",
        s.text(&dropped)
    );
    s.screenshot(&out_dir().join("panels-intent-prompt.png"));
    // (The probe sent it seconds ago, before the network wait above.)
    assert!(
        !said(&s).contains("PROBE-VALID-INTENT"),
        "an unprompted intent reached the table"
    );
    // Send: now, and only now, the words go out as the player's line.
    click(&s, "#intent-send");
    wait_for(Duration::from_secs(15), "the confirmed intent", || {
        said(&s).contains("PROBE-VALID-INTENT").then_some(())
    });
    assert!(
        s.find("#intent-prompt").is_none(),
        "the prompt stays after Send"
    );
    // The page posted an IPC message with a guessed key: Tauri prints the real key to stderr when
    // that happens; Studio's log (where its stderr goes) says so without the key.
    let key = invoke_key(&s);
    assert!(key.len() >= 8, "an invoke key: {key:?}");
    let logged = wait_for(Duration::from_secs(10), "the log's notice", || {
        let text = std::fs::read_to_string(&log).ok()?;
        text.contains("wrong invoke key").then_some(text)
    });
    assert!(
        !logged.contains(&key),
        "the invoke key reached the log file"
    );
    // Absence over the model's whole story, as Studio saves it: a forged line the transcript
    // has not drawn (scrolled out, or never near the view) is found too.
    let all = saved_story(&s, &saves);
    assert!(
        all.contains("PROBE-VALID-INTENT"),
        "the saved story holds the confirmed intent: {all}"
    );
    for forged in [
        "FORGED-NO-NONCE",
        "FORGED-BAD-NONCE",
        "BAD-KIND",
        "BAD-LONG",
        "PROBE-EVIL-PACK",
        "PROBE-SECOND-WORDS",
        "BRIDGE-UNKNOWN",
        "BRIDGE-HUGE",
        "BRIDGE-OBJECT",
    ] {
        assert!(!all.contains(forged), "{forged} reached the story");
    }
    // The neighbour's token was live all along: the scheme still serves its page.
    assert!(
        served_text(&s, &neighbour_url).contains("Neighbour"),
        "the neighbour's page was not live"
    );
    // A reload of the window ends every mount it had.
    assert!(
        served_text(&s, &probe_url).contains("Probe"),
        "the probe is served while mounted"
    );
    // (The answer may be lost to the reload itself.)
    let _ = s.execute(
        "setTimeout(() => location.reload(), 0); return 0;",
        serde_json::json!([]),
    );
    wait_for(Duration::from_secs(20), "the reloaded window", || {
        s.find("#ticket, #room")
    });
    assert_eq!(served_text(&s, &probe_url), "not found");
    drop(s);
    rt.block_on(table.shutdown());
}
