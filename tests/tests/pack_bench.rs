//! The pack author's bench in the real window: `--pack <dir>` opens a copy of a fixture pack;
//! an edit on disk repaints the panel without a restart; a broken YAML file is listed with its
//! line while the last good panels stay; fixing it clears the error; each viewer lists the
//! panels it does not receive, with the audience that keeps them out.

use std::path::Path;
use std::time::{Duration, Instant};

use studio_e2e::keeper::{click, wait_text};
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
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../crates/local-table/tests/fixtures/test-pack"),
        &dir,
    );
    let dir_text = dir.to_string_lossy().into_owned();
    let s = open_studio_args(&[], &["--pack", &dir_text]);
    let side = "[data-panel='test-pack/side'] .panel-title";
    wait_text(&s, side, "the pack's sidebar panel", |t| t == "Sidebar");
    // As keeper, the players-only panel is listed with its reason.
    let missing = wait_text(&s, "#bench-missing", "the keeper's missing list", |t| {
        t.contains("test-pack/players-only")
    });
    assert!(missing.contains("players only"), "{missing}");

    // Save an edit: the panel repaints, no restart.
    let panels = dir.join("ui/panels.yaml");
    let good = std::fs::read_to_string(&panels).unwrap();
    let edited = good.replace("\"Sidebar\"", "\"Sidebar, edited\"");
    let saved = Instant::now();
    std::fs::write(&panels, &edited).unwrap();
    wait_text(&s, side, "the edited title", |t| t == "Sidebar, edited");
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
    std::fs::write(&panels, "panels:\n  - id: side\n    title: [unclosed\n").unwrap();
    let error = wait_text(&s, "#bench-errors", "the pack error", |t| !t.is_empty());
    assert!(
        error.contains("panels.yaml") && error.contains("line"),
        "{error}"
    );
    assert_eq!(
        s.text(&s.find(side).expect("the last good panel")),
        "Sidebar, edited"
    );
    s.screenshot(&out_dir().join("bench-error.png"));

    // Fix it: the error clears.
    std::fs::write(&panels, &good).unwrap();
    wait_text(&s, side, "the fixed title", |t| t == "Sidebar");
    wait_for(Duration::from_secs(10), "the error to clear", || {
        s.find("#bench-errors").is_none().then_some(())
    });

    // As player: the keeper-only tray is not received, and the bench says why.
    click(&s, "#bench-as-player");
    wait_for(Duration::from_secs(20), "the player viewer", || {
        s.find("#bench[data-viewer='player']")
    });
    let missing = wait_text(&s, "#bench-missing", "the player's missing list", |t| {
        t.contains("test-pack/tray")
    });
    assert!(missing.contains("keeper only"), "{missing}");
    assert!(
        s.find("[data-panel='test-pack/players-only']").is_some()
            || s.find("[data-panel='test-pack/side']").is_some()
    );
    s.screenshot(&out_dir().join("bench-player.png"));
}
