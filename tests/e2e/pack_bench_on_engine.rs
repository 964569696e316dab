//! Run on the engine (#26 item 1 and 2): the bench starts the real engine on loopback, mounts
//! the pack in its dev room and shows the engine's table: the tier-1 panel and the tier-2 page
//! from the engine's manifest, the keeper-only panel in the keeper's manifest and not the
//! player's; the offline table and the engine agree on the fixture (only the difference Studio
//! keeps on purpose is listed); an edited title reaches the engine's view with the time it
//! took; a variable set in the bench changes on the engine (the player's view shows it); a
//! broken panels file is a finding; Stop the engine ends its process.

use std::path::Path;
use std::time::Duration;

use studio_e2e::keeper::{click, fill, wait_text};
use studio_e2e::peers::fresh_dir;
use studio_e2e::{open_studio_args, out_dir, wait_for, Studio};

/// The engine processes started for this profile's bench (their keys live in its folder).
fn bench_engines(profile: &Path) -> Vec<u32> {
    let bench = profile.join("bench");
    let needle = bench.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| {
                    let c = String::from_utf8_lossy(&c);
                    c.contains("studio-loopback.py") && c.contains(&needle)
                })
                .unwrap_or(false)
        })
        .collect()
}

/// The engine block's attribute `attr` on element `id`, once it is there.
fn data(s: &Studio, id: &str, attr: &str) -> Option<String> {
    s.execute(
        "const e = document.getElementById(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
        serde_json::json!([id, attr]),
    )
    .unwrap_or_else(|e| panic!("reading #{id}: {e}"))
    .as_str()
    .map(String::from)
}

fn text(s: &Studio, css: &str) -> String {
    s.find(css).map(|e| s.text(&e)).unwrap_or_default()
}

#[test]
fn the_bench_runs_the_pack_on_the_engine() {
    let _scenario = studio_e2e::scenario();
    let root = fresh_dir("bench-on-engine");
    let (pack, profile) = studio_e2e::hosting::bench_pack_and_profile(&root);
    let s = open_studio_args(
        &[("STUDIO_DATA_DIR", profile.to_str().unwrap())],
        &["--pack", pack.to_str().unwrap()],
    );
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .panel-title",
        "the offline panel",
        |t| t == "Notes",
    );

    // Run on the engine: started, mounted, and the window on the engine's table.
    // Side by side, offline: the player's panels beside the keeper's view, against the
    // player's variables (no keeper-only panel).
    click(&s, "#bench-side-by-side");
    let beside = wait_text(&s, "#bench-beside", "the player's side", |t| {
        t.contains("Tide")
    });
    assert_eq!(
        data(&s, "bench-beside", "data-viewer").as_deref(),
        Some("player")
    );
    assert!(
        s.find("#bench-beside [data-beside-panel='bench-pack/notes']")
            .is_some()
            && s.find("#bench-beside [data-beside-panel='bench-pack/echo']")
                .is_some()
            && s.find("#bench-beside [data-beside-panel='bench-pack/secrets']")
                .is_none(),
        "the player's side: {beside}"
    );

    click(&s, "#bench-on-engine-run");
    let started = std::time::Instant::now();
    wait_for(Duration::from_secs(120), "the engine's table", || {
        let failure = text(&s, "#bench-engine-failure");
        assert!(
            failure.is_empty(),
            "the engine did not run the pack: {failure}"
        );
        (data(&s, "bench-engine-run", "data-showing").as_deref() == Some("true")
            && data(&s, "bench-engine-player", "data-panels").is_some_and(|p| !p.is_empty()))
        .then_some(())
    });
    eprintln!(
        "run on the engine → mounted and shown: {} ms",
        started.elapsed().as_millis()
    );
    let message = text(&s, "#bench-engine-message");
    assert!(message.contains("Dev mount live: bench-pack"), "{message}");
    // The tier-1 panel and the tier-2 page, from the engine's manifest.
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .panel-title",
        "the engine's panel",
        |t| t == "Notes",
    );
    wait_for(Duration::from_secs(30), "the engine's echo page", || {
        s.find("[data-panel='bench-pack/echo'] iframe.lw-panel-frame")
    });
    // The keeper's manifest has the keeper-only panel; the player's does not.
    let keeper = data(&s, "bench-engine-keeper", "data-panels").unwrap_or_default();
    let player = data(&s, "bench-engine-player", "data-panels").unwrap_or_default();
    assert!(
        keeper.contains("bench-pack/secrets") && keeper.contains("bench-pack/echo"),
        "{keeper}"
    );
    assert!(
        !player.contains("bench-pack/secrets") && player.contains("bench-pack/notes"),
        "{player}"
    );
    // The two tables agree on the fixture: no finding, only the kept difference, with why.
    let findings = wait_for(Duration::from_secs(20), "the cards answer", || {
        data(&s, "bench-engine-run", "data-findings")
    });
    let listed = text(&s, "#bench-engine-run");
    assert_eq!(
        findings, "0",
        "the engine and the offline table disagree: {listed}"
    );
    assert!(
        s.find("#bench-differences li.known[data-id='culprit']")
            .is_some(),
        "the keeper-only variable is the known difference: {listed}"
    );

    // A title edited on disk reaches the engine's view, and the bench says how long it took.
    let panels = pack.join("ui/panels.yaml");
    let good = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(
        &panels,
        good.replace(
            "{en: \"Notes\", zh: \"笔记\"}",
            "{en: \"Logbook\", zh: \"笔记\"}",
        ),
    )
    .unwrap();
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .panel-title",
        "the engine's new title",
        |t| t == "Logbook",
    );
    let ms = wait_for(Duration::from_secs(20), "the engine's reload time", || {
        data(&s, "bench-engine-reload", "data-ms").filter(|m| !m.is_empty())
    });
    eprintln!("save → the engine's manifest: {ms} ms (it polls every 1.5 s)");
    assert!(ms.parse::<u64>().is_ok_and(|m| m < 10_000), "{ms}");

    // A variable set in the bench changes on the engine: the player's view shows it.
    fill(&s, "#bench-vars input[data-var='tide']", "7\u{E004}");
    click(&s, "#bench-as-player");
    wait_for(Duration::from_secs(20), "the player's view", || {
        (data(&s, "bench", "data-viewer").as_deref() == Some("player")).then_some(())
    });
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .lw-stat",
        "the engine's tide for the player",
        |t| t.contains('7'),
    );
    assert!(
        s.find("[data-panel='bench-pack/secrets']").is_none(),
        "a player sees the keeper's panel"
    );
    assert_eq!(
        data(&s, "bench-engine-run", "data-showing").as_deref(),
        Some("true")
    );
    // Side by side on the engine, as player: the keeper's side is the engine's keeper view
    // (its keeper-only panel, the same tide).
    wait_for(Duration::from_secs(10), "the keeper's side", || {
        (data(&s, "bench-beside", "data-viewer").as_deref() == Some("keeper")
            && s.find("#bench-beside [data-beside-panel='bench-pack/secrets']")
                .is_some())
        .then_some(())
    });
    let keeper_side = text(&s, "#bench-beside [data-beside-panel='bench-pack/notes']");
    assert!(
        keeper_side.contains('7'),
        "the keeper's side: {keeper_side}"
    );
    s.screenshot(&out_dir().join("bench-side-by-side.png"));

    // A broken panels file: our lint refuses and keeps the last good panels; the engine drops
    // the file's panels, and the bench lists that as a finding with the file.
    std::fs::write(&panels, "panels:\n  - id: notes\n    title: [unclosed\n").unwrap();
    wait_for(
        Duration::from_secs(20),
        "the engine's missing panels",
        || s.find("#bench-differences li[data-id='bench-pack/notes']:not(.known)"),
    );
    let listed = text(&s, "#bench-differences");
    s.screenshot(&out_dir().join("bench-on-engine-differences.png"));
    assert!(
        listed.contains("ui/panels.yaml") && listed.contains("the engine does not"),
        "{listed}"
    );
    assert!(
        s.find("#bench-errors").is_some(),
        "our lint's refusal is shown"
    );
    // The engine's dev room drops the file without a word; its packer says why, beside ours.
    click(&s, "#bench-engine summary");
    click(&s, "#bench-engine-check");
    wait_for(Duration::from_secs(100), "the engine's verdict", || {
        (data(&s, "bench-engine-verdict", "data-engine").as_deref() == Some("false")).then_some(())
    });
    let theirs = text(&s, "#bench-engine-theirs");
    let ours = text(&s, "#bench-engine-ours");
    // (The engine names where its parser gave up, the end of the file, and quotes line 3.)
    assert!(
        theirs.contains("ui/panels.yaml:") && theirs.contains("line 3"),
        "the engine's refusal: {theirs}"
    );
    assert!(ours.contains("ui/panels.yaml:3"), "our refusal: {ours}");

    // Stop the engine: the window is back on the offline table and the engine is gone.
    assert_eq!(bench_engines(&profile).len(), 1, "one engine for the bench");
    click(&s, "#bench-engine-stop");
    wait_for(Duration::from_secs(30), "the engine stopped", || {
        (s.find("#bench-engine-run").is_none() && bench_engines(&profile).is_empty()).then_some(())
    });
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .panel-title",
        "the offline panel again",
        |t| t == "Logbook",
    );
}
