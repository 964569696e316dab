//! The pack author's bench in the real window: `--pack <dir>` opens a copy of a fixture pack;
//! an edit on disk (a title, a `visible_when`) repaints without a restart; a broken YAML file is
//! listed with its line while the last good panels stay; fixing it clears the error; a variable
//! set in the bench shows a badge; an injected event reaches the tier-2 page; the page's `send`
//! (on a click) shows in the intent log; each viewer lists the panels it does not receive.

use std::path::Path;
use std::time::{Duration, Instant};

use studio_e2e::keeper::{choose, click, fill, wait_text};
use studio_e2e::{open_studio_args, out_dir, wait_for};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn bench_reloads_a_pack_as_its_author_saves() {
    let dir = std::env::temp_dir().join(format!("studio-e2e-pack-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench-pack"),
        &dir,
    );
    let dir_text = dir.to_string_lossy().into_owned();
    let s = open_studio_args(&[], &["--pack", &dir_text]);
    let side = "[data-panel='bench-pack/notes'] .panel-title";
    wait_text(&s, side, "the pack's sidebar panel", |t| t == "Notes");
    // The keeper receives every panel of this pack, the keeper-only one included.
    wait_for(Duration::from_secs(20), "the keeper-only panel", || {
        s.find("[data-panel='bench-pack/secrets']")
    });
    assert!(
        s.find("#bench-missing").is_none(),
        "nothing is missing for the keeper"
    );

    // Save an edit: the panel repaints, no restart.
    let panels = dir.join("ui/panels.yaml");
    let good = std::fs::read_to_string(&panels).unwrap();
    let edited = good.replace("\"Notes\"", "\"Notes, edited\"");
    let saved = Instant::now();
    std::fs::write(&panels, &edited).unwrap();
    wait_text(&s, side, "the edited title", |t| t == "Notes, edited");
    eprintln!("save → repainted title: {} ms", saved.elapsed().as_millis());
    // One save is one reload: the reload's own reads of the folder do not trigger another.
    let reloads = |s: &studio_e2e::Studio| {
        s.find("#bench-reloads")
            .and_then(|e| s.attr(&e, "data-reloads"))
            .and_then(|r| r.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let after_edit = reloads(&s);
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(
        reloads(&s),
        after_edit,
        "reloads kept coming without a save"
    );

    // Break the YAML: the error names the file and line; the last good panel stays.
    std::fs::write(&panels, "panels:\n  - id: notes\n    title: [unclosed\n").unwrap();
    let error = wait_text(&s, "#bench-errors", "the pack error", |t| !t.is_empty());
    assert!(
        error.contains("panels.yaml") && error.contains("line"),
        "{error}"
    );
    assert_eq!(
        s.text(&s.find(side).expect("the last good panel")),
        "Notes, edited"
    );
    s.screenshot(&out_dir().join("bench-error.png"));

    // Fix it: the error clears.
    std::fs::write(&panels, &good).unwrap();
    wait_text(&s, side, "the fixed title", |t| t == "Notes");
    wait_for(Duration::from_secs(10), "the error to clear", || {
        s.find("#bench-errors").is_none().then_some(())
    });

    // A visible_when edited on disk: the badge's condition now holds at day 1.
    let badge = "[data-panel='bench-pack/notes'] .lw-badge";
    assert!(s.find(badge).is_none(), "the badge waits for day 3");
    std::fs::write(&panels, good.replace("day >= 3", "day >= 1")).unwrap();
    wait_for(Duration::from_secs(10), "the badge after the edit", || {
        s.find(badge)
    });
    std::fs::write(&panels, &good).unwrap();
    wait_for(Duration::from_secs(10), "the badge gone again", || {
        s.find(badge).is_none().then_some(())
    });
    // A variable set in the bench re-resolves the panels: day 3 raises the badge.
    click(&s, ".variable-row[data-var='day'] .var-edit-open");
    fill(&s, ".var-edit[data-var='day'] .var-input", "3");
    click(&s, ".var-edit[data-var='day'] .var-set");
    wait_for(Duration::from_secs(10), "the badge at day 3", || {
        s.find(badge)
    });

    // An injected event reaches the tier-2 page; its click-sent intent is logged.
    let frame = wait_for(Duration::from_secs(20), "the echo page", || {
        s.find("[data-panel='bench-pack/echo'] iframe.lw-panel-frame")
    });
    click(&s, "#bench-tools summary");
    choose(&s, "#bench-event-panel", "bench-pack/echo");
    fill(&s, "#bench-event-payload", "{\"tide\": \"high\"}");
    click(&s, "#bench-inject");
    s.scroll_into_view(&frame);
    s.switch_to_frame(&frame).expect("into the page");
    wait_text(&s, "#got", "the event in the page", |t| t.contains("high"));
    click(&s, "#ask");
    s.switch_to_top();
    wait_text(&s, "#bench-intents", "the intent in the log", |t| {
        t.contains("bench-pack/echo") && t.contains("I ask the tide")
    });
    s.screenshot(&out_dir().join("bench-tools.png"));

    // As player: the keeper-only panel is not received, and the bench says why.
    click(&s, "#bench-as-player");
    wait_for(Duration::from_secs(20), "the player viewer", || {
        s.find("#bench[data-viewer='player']")
    });
    let missing = wait_text(&s, "#bench-missing", "the player's missing list", |t| {
        t.contains("bench-pack/secrets")
    });
    assert!(missing.contains("keeper only"), "{missing}");
    assert!(s.find("[data-panel='bench-pack/secrets']").is_none());
    assert!(s.find("[data-panel='bench-pack/notes']").is_some());
    s.screenshot(&out_dir().join("bench-player.png"));
}
