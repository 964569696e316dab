//! The pack bench beside the real engine (#26): **Check with the engine** runs the engine's
//! packer on the pack folder and shows its verdict beside Studio's lint (both accept the
//! fixture; both refuse an unknown block kind, each in its words; a pack only one of them
//! accepts is called a disagreement), and **Build pack…** writes the `.lwpack` through the
//! engine's packer; **Install to the hosted table** puts it on the table this window hosts,
//! where a player joining sees its panels. The engine is the one chosen for hosting.

use std::time::Duration;

use studio_e2e::hosting;
use studio_e2e::keeper::{click, wait_text};
use studio_e2e::peers::fresh_dir;
use studio_e2e::{open_studio_args, out_dir, wait_for, Studio};

/// Presses Check with the engine and waits for a verdict other than `before`'s: its three
/// flags and its text, read in one script (the verdict is redrawn when the answer lands).
fn check(s: &Studio, before: Option<String>) -> (String, String, String, String) {
    click(s, "#bench-engine-check");
    // The engine's probe (up to 30 s under load) and its packer (seconds here, 60 s at most).
    wait_for(Duration::from_secs(100), "the engine's verdict", || {
        let v = s
            .execute(
                "const v = document.getElementById('bench-engine-verdict'); \
                 const b = document.getElementById('bench-engine-check'); \
                 if (!v || !b || b.disabled) { return null; } \
                 return [v.dataset.engine, v.dataset.ours, v.dataset.disagree, v.textContent];",
                serde_json::json!([]),
            )
            .unwrap_or_else(|e| panic!("reading the verdict: {e}"));
        let [e, o, d, text] =
            [0, 1, 2, 3].map(|i| v.get(i).and_then(|x| x.as_str()).map(String::from));
        let text = text?;
        (Some(text.clone()) != before).then(|| {
            let flag =
                |f: Option<String>| f.unwrap_or_else(|| panic!("a verdict flag missing: {text}"));
            (flag(e), flag(o), flag(d), text.clone())
        })
    })
}

/// Waits until the bench's live reload has taken the edit in: its refusal shown (`Some`: words
/// of it) or none left. The refusal box above the tools moves them: a click sent while it
/// appears lands where the button was (a CI run lost its Check that way and waited 100 s).
fn bench_settles(s: &Studio, refusal: Option<&str>) {
    wait_for(Duration::from_secs(20), "the bench's reload", || {
        let shown = s.find("#bench-errors").map(|e| s.text(&e));
        match (refusal, shown) {
            (Some(words), Some(t)) => t.contains(words).then_some(()),
            (None, None) => Some(()),
            _ => None,
        }
    })
}

#[test]
fn the_engine_judges_and_builds_the_bench_pack() {
    let _scenario = studio_e2e::scenario();
    let root = fresh_dir("bench-engine");
    let (pack, data) = studio_e2e::hosting::bench_pack_and_profile(&root);
    let saves = root.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let s = open_studio_args(
        &[
            ("STUDIO_DATA_DIR", data.to_str().unwrap()),
            ("STUDIO_SAVE_DIR", saves.to_str().unwrap()),
            ("STUDIO_PICK_DIR", pack.to_str().unwrap()),
        ],
        &[],
    );
    // A table hosted first (the built pack is installed on it at the end), then the bench.
    let ticket = hosting::host(&s, "Bench install");
    click(&s, "#leave");
    click(&s, "#open-pack");
    wait_text(
        &s,
        "[data-panel='bench-pack/notes'] .panel-title",
        "the pack's panel",
        |t| t == "Notes",
    );
    click(&s, "#bench-engine summary");

    // Both accept the fixture.
    let (engine, ours, disagree, text) = check(&s, None);
    assert_eq!(
        (engine.as_str(), ours.as_str(), disagree.as_str()),
        ("true", "true", "false"),
        "{text}"
    );
    assert!(
        text.contains("bench-pack") && text.contains("0.1.0"),
        "{text}"
    );

    // Both refuse an unknown block kind, each in its own words.
    let panels = pack.join("ui/panels.yaml");
    let good = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(&panels, good.replace("{kind: stat,", "{kind: gauge,")).unwrap();
    bench_settles(&s, Some("unknown block kind"));
    let (engine, ours, disagree, refused) = check(&s, Some(text));
    assert_eq!(
        (engine.as_str(), ours.as_str(), disagree.as_str()),
        ("false", "false", "false"),
        "{refused}"
    );
    let theirs = s.text(&s.find("#bench-engine-theirs").unwrap());
    let lint = s.text(&s.find("#bench-engine-ours").unwrap());
    assert!(
        theirs.contains("kind must be one of"),
        "the engine's words: {theirs}"
    );
    assert!(
        lint.contains("unknown block kind \"gauge\""),
        "the lint's words: {lint}"
    );
    std::fs::write(&panels, &good).unwrap();
    bench_settles(&s, None);

    // A pack only one of them accepts: the panels file left out of the manifest (the engine
    // ships it without its panels; the lint refuses).
    let manifest = pack.join("pack.yaml");
    let listed = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        listed.replace("  panels: [ui/panels.yaml]\n", ""),
    )
    .unwrap();
    bench_settles(&s, Some("not listed under contents.panels"));
    let (engine, ours, disagree, split) = check(&s, Some(refused));
    assert_eq!(
        (engine.as_str(), ours.as_str(), disagree.as_str()),
        ("true", "false", "true"),
        "{split}"
    );
    assert!(s.find("#bench-engine-disagree").is_some(), "{split}");
    s.screenshot(&out_dir().join("bench-engine-disagree.png"));
    std::fs::write(&manifest, &listed).unwrap();
    bench_settles(&s, None);

    // Build pack…: the engine's packer writes the file; the bench says what it is.
    click(&s, "#bench-engine-build");
    let built = wait_text(&s, "#bench-built", "the built pack", |t| {
        t.contains("sha256")
    });
    let path = s
        .attr(&s.find("#bench-built").unwrap(), "data-path")
        .expect("the built pack's path");
    assert!(path.starts_with(saves.to_str().unwrap()), "{path}");
    let bytes = std::fs::metadata(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .len();
    assert!(bytes > 0, "an empty pack");
    let zip = std::fs::read(&path).unwrap();
    assert_eq!(&zip[..2], b"PK", "not a zip: {path}");
    assert!(
        built.contains("bench-pack") && built.contains("0.1.0"),
        "{built}"
    );
    s.screenshot(&out_dir().join("bench-engine-built.png"));

    // Install to the hosted table: installed and enabled there; a player joining sees the
    // panels (and not the keeper's).
    let table = hosting::table_dir(&data, "bench-install");
    let player = hosting::mint_player(&ticket, &hosting::keeper_key(&table));
    assert!(
        hosting::panels_seen(&ticket, &player).is_empty(),
        "the hosted table had panels before the install"
    );
    click(&s, "#bench-engine-install");
    let installed = wait_text(&s, "#bench-installed", "the install", |t| !t.is_empty());
    assert!(
        installed.contains("Bench install") && installed.contains("bench-pack@0.1.0"),
        "{installed}"
    );
    let seen = hosting::panels_seen(&ticket, &player);
    assert!(
        seen.contains(&"bench-pack/notes".to_string())
            && seen.contains(&"bench-pack/echo".to_string())
            && !seen.contains(&"bench-pack/secrets".to_string()),
        "the player on the hosted table sees {seen:?}"
    );
}
