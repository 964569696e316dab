//! Module panels in the real window, against a local table run in this process with the test
//! pack and the hostile pack enabled: a tier-1 and a tier-2 panel render (screenshots), and a
//! hostile tier-2 page's escape attempts all fail — read by switching into its frame.
//!
//! No row may read "blocked" for want of trying: each has evidence the page itself saw. A load
//! the policy stops is "blocked" only once the page's `securitypolicyviolation` event names the
//! exact address it aimed at (for the network rows, the test's listener at its real port); the
//! loads that can succeed have the same load from the probe's own files beside them; a message
//! or navigation whose verdict the page cannot see reads "sent", and is judged here. The
//! listener is read behind a fence (a request of the test's own, after every attempt settled).

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
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

/// A loopback listener that records every connection (its request line, in the order they were
/// accepted) and answers each with 200 and permissive CORS, so a request that got through would
/// also succeed in the page.
fn counting_listener() -> (u16, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(Mutex::new(Vec::new()));
    let h = hits.clone();
    std::thread::spawn(move || {
        for mut c in l.incoming().flatten() {
            let mut buf = [0u8; 1024];
            let _ = c.set_read_timeout(Some(Duration::from_millis(200)));
            let n = c.read(&mut buf).unwrap_or(0);
            let line = String::from_utf8_lossy(&buf[..n])
                .lines()
                .next()
                .unwrap_or("(nothing read)")
                .to_string();
            eprintln!("LISTENER HIT: {line}");
            h.lock().unwrap_or_else(|e| e.into_inner()).push(line);
            let _ = std::io::Write::write_all(
                &mut c,
                b"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
            );
        }
    });
    (port, hits)
}

/// One request from the test itself (`/control` before any page runs, `/fence` after every
/// attempt settled), answered by the listener.
fn test_request(port: u16, path: &str) -> String {
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).expect("the listener");
    std::io::Write::write_all(
        &mut c,
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes(),
    )
    .unwrap();
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
    "control-img-tag",
    "control-script",
    "cookies",
    "css-url",
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
    "img-tag",
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

/// The positive controls: the neighbour attempts' loads (a script, an image) and the <img> tag,
/// aimed at the probe's own files. They must succeed, so a blocked load elsewhere means its
/// address was refused, not a load that could never work. (Nothing a panel may fetch, connect
/// or beacon can succeed anywhere: for those the violation at their own address is the control.)
const CONTROLS: &[&str] = &["control-img", "control-img-tag", "control-script"];

/// Rows that report, not attempt.
const STATUS_ROWS: &[&str] = &["api", "bridge-raw", "ready"];

/// Attempts aimed at the listener, each with the path it must name: "blocked" only with the
/// page's own evidence, a policy violation at exactly `http://127.0.0.1:<port><path>` (the
/// websocket's at `ws://…`). A probe whose addresses do not reach the listener (its port not
/// filled in, say) has no such violation, and its rows read "unproven".
const NETWORK: &[(&str, &str)] = &[
    ("beacon", "/beacon"),
    ("css-url", "/css-url"),
    ("eventsource", "/sse"),
    ("fetch-net", "/fetch"),
    ("font-face", "/font-face"),
    ("img", "/img"),
    ("img-tag", "/img-tag"),
    ("websocket", "/ws"),
    ("xhr-net", "/xhr"),
];

/// Other attempts the policy must stop, with the same in-page evidence (a violation naming the
/// address they aimed at): the app's own origins, other mounts, `..`, the inline script.
const POLICY: &[&str] = &[
    "fetch-app-origin",
    "fetch-ipc",
    "fetch-own-file",
    "fetch-tauri",
    "inline-script",
    "neighbour-img",
    "neighbour-script",
    "script-other-token",
    "traversal",
    "traversal-encoded",
];

/// Attempts whose verdict the page cannot see: they read "sent" (or "blocked <error>" if the
/// attempt itself threw), and the test judges each outside the page: the navigations and the
/// form by the window still at the table and the listener's fence; the IPC posts by the table
/// kept and the log's notice; the forged and bad messages by the story and the host's counts.
/// (The state a frame forges to itself is judged in the page, beside the host's real state.)
const SENT: &[&str] = &[
    "bad-intents",
    "forged-bad-nonce",
    "forged-no-nonce",
    "form-submit",
    "ipc-guessed-key",
    "ipc-no-key",
    "parent-location",
    "top-location",
];

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
    s.execute(
        "document.getElementById('served-check').remove(); return 0;",
        serde_json::json!([]),
    )
    .unwrap_or_else(|e| panic!("removing the check frame: {e}"));
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
    // The listener records and answers: the test's own request before any page runs.
    let reply = test_request(port, "/control");
    assert!(
        reply.starts_with("HTTP/1.1 200") && reply.ends_with("ok"),
        "{reply:?}"
    );
    let heard = || hits.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert_eq!(
        heard(),
        vec!["GET /control HTTP/1.1"],
        "the listener did not record the control"
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
    // (Each waits up to 10 s in the page for its violation or its load.)
    wait_for(
        Duration::from_secs(20),
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
            "return Array.from(document.querySelectorAll('#results li')).map(li => [li.dataset.id, li.dataset.outcome, li.textContent, li.dataset.target || '']);",
            serde_json::json!([]),
        )
        .expect("reading the probe's results");
    let rows = results
        .as_array()
        .cloned()
        .unwrap_or_else(|| panic!("the probe's results are not a list: {results}"));
    let field = |r: &serde_json::Value, i: usize| r[i].as_str().unwrap_or_default().to_string();
    eprintln!("probe results:");
    for r in &rows {
        eprintln!("  {}", field(r, 2));
    }
    // Exactly the attempts the probe makes, each reported once: none silently skipped.
    let mut ids: Vec<String> = rows.iter().map(|r| field(r, 0)).collect();
    ids.sort_unstable();
    let mut want: Vec<String> = ATTEMPTS.iter().map(|a| a.to_string()).collect();
    want.sort_unstable();
    assert_eq!(ids, want, "the probe's attempts");
    let row = |id: &str| {
        rows.iter()
            .find(|r| r[0] == id)
            .unwrap_or_else(|| panic!("no row {id}"))
    };
    assert_eq!(field(row("api"), 1), "present");
    assert_eq!(field(row("bridge-raw"), 1), "sent");
    assert_eq!(field(row("ready"), 1), "acked");
    for id in CONTROLS {
        assert_eq!(
            field(row(id), 1),
            "ESCAPED",
            "a control load failed: {}",
            field(row(id), 2)
        );
    }
    // Each network attempt stopped by the policy at the listener's own address, as the page
    // itself saw it.
    for (id, path) in NETWORK {
        let scheme = if *id == "websocket" { "ws" } else { "http" };
        let at = format!("{scheme}://127.0.0.1:{port}{path}");
        let r = row(id);
        assert_eq!(
            (field(r, 1).as_str(), field(r, 3)),
            ("blocked", at.clone()),
            "{id}: not seen blocked at the listener ({at}): {}",
            field(r, 2)
        );
    }
    for id in POLICY {
        let r = row(id);
        assert!(
            field(r, 1) == "blocked" && field(r, 2).contains("blocked by "),
            "{id}: not seen blocked by the policy: {}",
            field(r, 2)
        );
    }
    for id in SENT {
        let outcome = field(row(id), 1);
        assert!(
            outcome == "sent" || outcome == "blocked",
            "{id}: {}",
            field(row(id), 2)
        );
    }
    // The rest read their own refusal in the page (an exception, an absent global, no popup).
    let judged: Vec<&str> = [STATUS_ROWS, CONTROLS, POLICY, SENT]
        .concat()
        .into_iter()
        .chain(NETWORK.iter().map(|(id, _)| *id))
        .collect();
    let own: Vec<&str> = ATTEMPTS
        .iter()
        .copied()
        .filter(|id| !judged.contains(id))
        .collect();
    for id in &own {
        assert_eq!(field(row(id), 1), "blocked", "{id}: {}", field(row(id), 2));
    }
    let by_policy = rows
        .iter()
        .filter(|r| field(r, 2).contains(": blocked by "))
        .count();
    let sent = SENT.iter().filter(|id| field(row(id), 1) == "sent").count();
    eprintln!(
        "hostile verdicts: {by_policy} attempts seen blocked by the policy at their own address \
         ({} of them at the listener), {} refused in the page ({own:?}), {sent} sent and judged \
         outside the page",
        NETWORK.len(),
        own.len()
    );

    // The page sends its own frame elsewhere, one way after another: each must leave it here.
    for how in ["location", "assign", "meta", "download", "data"] {
        let sent = s.execute(
            "return window.__navigate(arguments[0]);",
            serde_json::json!([how]),
        );
        let sent = sent.unwrap_or_else(|e| {
            panic!("the probe was gone before '{how}' (an earlier navigation went through), or it threw: {e}")
        });
        assert_eq!(sent.as_str(), Some(how), "navigating '{how}'");
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
    // The listener, read behind a fence: every attempt above has settled (the network ones
    // blocked before they left), so a request the test sends now is accepted after anything the
    // page got out. It must be the only thing after the test's first request.
    let reply = test_request(port, "/fence");
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply:?}");
    wait_for(Duration::from_secs(10), "the listener's fence", || {
        heard()
            .iter()
            .any(|h| h.starts_with("GET /fence "))
            .then_some(())
    });
    assert_eq!(
        heard(),
        vec!["GET /control HTTP/1.1", "GET /fence HTTP/1.1"],
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
    crate::log_flood::log_flood_is_one_event(&s, &log, &dir.join("studio/logs"));
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
