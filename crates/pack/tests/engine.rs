//! The real engine's packer (`app.py --pack <src> --out <file> --json`, from `../shared/engine`,
//! installed by `cargo xtask setup`) agrees with this crate: every pack in the repository builds
//! there and loads here, and what the engine refuses this crate refuses in the same words.
//!
//! Linux only: the engine is installed by `cargo xtask setup` (Debian's Python and venv).
#![cfg(target_os = "linux")]

mod packer;

use pack::EngineVerdict;
use packer::{packer as build, repository_packs};
use test_support::{copy_dir, repo};

/// The engine's sentence, or the test fails with the verdict it gave instead.
fn refusal(verdict: &EngineVerdict) -> &str {
    match verdict {
        EngineVerdict::Refused { error, .. } => error,
        other => panic!("the engine did not refuse: {other:?}"),
    }
}

#[test]
fn every_pack_in_the_repository_builds_on_the_engine_and_loads_here() {
    let packs = repository_packs();
    assert!(packs.len() >= 5, "found only {packs:?}");
    for pack in packs {
        let verdict = build(&pack);
        let EngineVerdict::Built { id, trust, .. } = &verdict else {
            panic!("the engine refused {}: {verdict:?}", pack.display());
        };
        let here = pack::load(&pack).unwrap_or_else(|p| panic!("{}: {p:#?}", pack.display()));
        assert_eq!(
            trust["panels"].as_u64(),
            Some(here.panels.len() as u64),
            "{}: the engine counts other panels than the bench",
            pack.display()
        );
        assert_eq!(&here.id, id);
    }
}

/// What the engine accepts at its edges (empty values, `./` paths, `entry: null`), this crate
/// accepts too.
#[test]
fn what_the_engine_accepts_at_its_edges_loads_here() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &repo().join("crates/local-table/tests/fixtures/test-pack"),
        dir.path(),
    );
    let edit = |rel: &str, from: &str, to: &str| {
        let path = dir.path().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from:?} not in {rel}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "pack.yaml",
        "  panels: [ui/panels.yaml]",
        "  panels: [./ui/panels.yaml]\n  skills: {}",
    );
    edit(
        "pack.yaml",
        "license: MIT",
        "license: MIT\nauthors: \"\"\nengine: {protocol: null}",
    );
    edit(
        "ui/panels.yaml",
        "    entry: panels/board/index.html",
        "    entry: ./panels//board/index.html",
    );
    let verdict = build(dir.path());
    assert!(verdict.accepted(), "{verdict:?}");
    if let Err(p) = pack::load(dir.path()) {
        panic!("the engine builds it, the bench refuses it: {p:#?}");
    }
}

/// What the engine refuses, this crate refuses, with the engine's own sentence.
#[test]
fn what_the_engine_refuses_is_refused_here_in_its_words() {
    let cases = [
        (
            "  panels: [ui/panels.yaml]",
            "  panels: ui/panels.yaml",
            "contents.panels must be a list",
        ),
        (
            "license: MIT",
            "license: \"\"",
            "manifest license is required (an SPDX id or short name)",
        ),
        (
            "id: test-pack",
            "id: Test_Pack",
            "manifest id must be a lowercase slug ([a-z0-9-], max 64)",
        ),
    ];
    for (good, bad, sentence) in cases {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(
            &repo().join("crates/local-table/tests/fixtures/test-pack"),
            dir.path(),
        );
        let manifest = dir.path().join("pack.yaml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        assert!(text.contains(good), "{good:?} not in the fixture");
        std::fs::write(&manifest, text.replace(good, bad)).unwrap();
        let verdict = build(dir.path());
        let error = refusal(&verdict);
        assert!(error.contains(sentence), "{bad:?}: the engine said {error}");
        let here = pack::load(dir.path()).expect_err(bad);
        assert!(
            here.iter()
                .any(|p| p.message == sentence && p.file == "pack.yaml" && p.line > 0),
            "{bad:?}: here {here:#?}"
        );
    }
    // A panel that names its tier: the engine refuses the key, and so does the bench.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("tests/fixtures/bench-pack"), dir.path());
    let panels = dir.path().join("ui/panels.yaml");
    let text = std::fs::read_to_string(&panels).unwrap();
    std::fs::write(
        &panels,
        text.replacen("    slot: sidebar\n", "    slot: sidebar\n    tier: 1\n", 1),
    )
    .unwrap();
    let verdict = build(dir.path());
    let error = refusal(&verdict);
    assert!(error.contains("unknown keys ['tier']"), "{error}");
    let here = pack::load(dir.path()).expect_err("tier");
    assert!(
        here.iter().any(|p| p.message == "unknown keys ['tier']"),
        "{here:#?}"
    );
}
