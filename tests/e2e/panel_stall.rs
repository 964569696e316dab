//! A room's panel code runs only after the person says so, and a page that goes wrong after
//! `ready` cannot take the window: one that throws falls back with Retry; one that spins
//! (`for(;;){}`, which on WebKitGTK freezes the whole window) is ended by the backend, and the
//! window comes back at the same table with that room's panel code off and a notice naming it.

use std::time::{Duration, Instant};

use local_table::table::demo_config;
use local_table::{LocalTable, Pacing};
use studio_e2e::keeper::{click, wait_text};
use studio_e2e::peers::{free_udp_port, fresh_dir, runtime};
use studio_e2e::play::{join, say, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};
use test_support::repo;

/// The backend's own answer to a mount request made straight from the main frame.
fn mount_refusal(s: &studio_e2e::Studio, panel: &str) -> String {
    s.execute(
        "window.__mount = null;
         window.__TAURI_INTERNALS__.invoke('mount_panel', { args: { panel: arguments[0], theme: null } })
           .then(() => { window.__mount = 'MOUNTED'; }, (e) => { window.__mount = String(e); });
         return 0;",
        serde_json::json!([panel]),
    )
    .expect("asking for a mount");
    wait_for(Duration::from_secs(10), "the mount answer", || {
        s.execute("return window.__mount;", serde_json::json!([]))
            .ok()?
            .as_str()
            .map(str::to_string)
    })
}

#[test]
fn panel_code_asks_first_and_a_page_that_spins_cannot_take_the_window() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("stall");
    let (mut config, keys) = demo_config(dir.join("table")).expect("demo config");
    config.port = free_udp_port();
    config.pacing = Pacing::fast();
    config.packs.push(repo().join("tests/fixtures/stall-pack"));
    let rt = runtime();
    let table = rt.block_on(LocalTable::start(config)).expect("local table");
    let ticket = table.ticket();
    let data = dir.join("studio");
    let log = dir.join("studio.log");
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
        ("STUDIO_LOG_FILE", log.to_str().unwrap()),
    ]);
    eprintln!("studio log: {}", log.display());
    join(&s, &ticket, &keys.keeper);
    wait_online(&s, Duration::from_secs(30));
    say(&s, ".panels enable stall-pack");

    // Asked before any page starts: the question, the fallbacks, no frame, and the backend
    // itself refuses a mount the interface might ask for.
    let ask = wait_text(
        &s,
        "#panel-code-notice.ask",
        "the panel-code question",
        |t| t.contains("2 panel pages"),
    );
    assert!(ask.contains("Run them?"), "{ask}");
    wait_for(Duration::from_secs(10), "the spinner's fallback", || {
        let p = s.find(".slot-sidebar[data-panel='stall-pack/spin'] .panel-fallback")?;
        s.text(&p).contains("spinner fallback").then_some(())
    });
    assert!(
        s.find("iframe.lw-panel-frame").is_none(),
        "a page started before the answer"
    );
    let refused = mount_refusal(&s, "stall-pack/spin");
    assert!(refused.contains("panel code is off"), "{refused}");
    s.screenshot(&out_dir().join("panel-code-ask.png"));

    // Run: both pages start.
    click(&s, "#panel-code-run");
    wait_for(Duration::from_secs(20), "the spinner's frame", || {
        s.find(".slot-sidebar[data-panel='stall-pack/spin'] iframe.lw-panel-frame")
    });
    let started = Instant::now();
    // The crasher throws after ready: its fallback, with Retry and the reason.
    let crashed = wait_for(Duration::from_secs(20), "the crasher's fallback", || {
        s.find(".slot-sidebar[data-panel='stall-pack/crash'] .panel-failed .panel-retry")?;
        s.find(".slot-sidebar[data-panel='stall-pack/crash'] .panel-why")
    });
    assert_eq!(s.text(&crashed), "This panel stopped with an error.");

    // The spinner spins two seconds after ready: the whole window freezes until the backend
    // ends its web process and reloads it. WebDriver drops a session whose page process ended
    // ("page crash or hang"), so the evidence of the way back is the app's own: its log, a
    // screenshot of the screen, and then a second window over the same profile.
    let said = wait_for(Duration::from_secs(40), "the recovery in the log", || {
        let text = std::fs::read_to_string(&log).ok()?;
        text.contains("rejoined the table after the window was reloaded")
            .then_some(text)
    });
    eprintln!(
        "back at the table {:?} after the spinner started",
        started.elapsed()
    );
    let ended = said
        .find("ending its web process")
        .expect("the watchdog ended the web process");
    let told = said
        .find("the reloaded window was told which panel pages froze it")
        .expect("the reloaded window asked why");
    assert!(ended < told, "told before the process was ended");
    // After the rejoin the room's code reads as off.
    wait_for(
        Duration::from_secs(20),
        "the room's code read as off",
        || {
            let text = std::fs::read_to_string(&log).ok()?;
            text[told..]
                .contains("this room's panel code code=Some(Blocks)")
                .then_some(())
        },
    );
    // Best effort, for a person to look at (where x11-apps and netpbm are installed).
    let shot = out_dir().join("panel-stall-recovered.png");
    let _ = std::process::Command::new("sh")
        .args([
            "-c",
            "xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > \"$0\" 2>/dev/null || rm -f \"$0\"",
            shot.to_str().unwrap(),
        ])
        .status();
    drop(s);

    // A second window over the same profile: the saved table remembers "blocks only", and
    // rejoining the room does not freeze again — the spinner shows its fallback, unasked.
    let s = open_studio_with(&[
        ("STUDIO_DATA_DIR", data.to_str().unwrap()),
        ("STUDIO_LOG_FILE", log.to_str().unwrap()),
    ]);
    let select = wait_for(
        Duration::from_secs(15),
        "the saved table's panel code",
        || s.find(".saved-table .saved-panel-code"),
    );
    assert_eq!(
        s.execute_on(&select, "return arguments[0].value;").ok(),
        Some(serde_json::json!("blocks"))
    );
    s.screenshot(&out_dir().join("panel-code-saved-table.png"));
    click(&s, ".saved-table .saved-join");
    wait_online(&s, Duration::from_secs(30));
    wait_for(
        Duration::from_secs(20),
        "the spinner's fallback on rejoin",
        || {
            let p = s.find(".slot-sidebar[data-panel='stall-pack/spin'] .panel-fallback")?;
            s.text(&p).contains("spinner fallback").then_some(())
        },
    );
    assert!(s.find("#panel-code-notice.ask").is_none(), "asked again");
    assert!(
        s.find("iframe.lw-panel-frame").is_none(),
        "a page runs again"
    );
    // Turned back on from the Panels menu: the pages run again (the answer is the person's).
    click(&s, "#panels-menu");
    let switch = wait_for(Duration::from_secs(5), "the panel-code switch", || {
        s.find("#panel-code-switch")
    });
    assert_eq!(
        s.execute_on(&switch, "return arguments[0].checked;").ok(),
        Some(serde_json::json!(false))
    );
    s.click(&switch);
    wait_for(
        Duration::from_secs(20),
        "the crasher's frame after turning code on",
        || s.find(".slot-sidebar[data-panel='stall-pack/crash'] iframe.lw-panel-frame"),
    );
    drop(table);
}
