//! The installed package, driven like the debug build: `cargo xtask bundle` unpacks its .deb and
//! points STUDIO_APP at the binary found there. The connect screen renders from the embedded UI,
//! the demo table (its story and pack read from the package's own files: a release build has no
//! source tree to fall back on) plays one turn, and a tier-1 module panel renders.
//! Ignored in `cargo xtask test`, which tests the debug build.

use std::time::Duration;

use studio_e2e::play::{join_demo, play_turn, say};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
#[ignore = "run by `cargo xtask bundle` against the installed package"]
fn the_installed_package_plays_the_demo() {
    let _scenario = studio_e2e::scenario();
    let s = open_studio_with(&[("STUDIO_DEMO_PACING", "fast")]);
    let about = wait_for(Duration::from_secs(30), "the connect screen", || {
        s.find("#about")
            .map(|a| s.text(&a))
            .filter(|t| !t.is_empty())
    });
    assert!(about.contains("2.3"), "{about}");
    assert!(
        s.find("#first-run").is_some(),
        "no first-run help on a first run"
    );
    s.screenshot(&out_dir().join("release-connect.png"));
    join_demo(&s);
    play_turn(&s, "I knock on the cottage door.");
    say(&s, ".panels enable demo-panels");
    let clues = wait_for(
        Duration::from_secs(30),
        "the demo pack's tier-1 panel",
        || s.find(".slot-sidebar[data-panel='demo-panels/clues']"),
    );
    wait_for(Duration::from_secs(10), "its title", || {
        s.text(&clues).contains("Clues").then_some(())
    });
    s.screenshot(&out_dir().join("release-demo.png"));
}
