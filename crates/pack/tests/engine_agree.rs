//! The bench's lint (`pack::load`) and the engine's packer agree on what a pack author may ship:
//! every repository pack and a set of deliberately broken copies go through both, and each
//! accept/refuse disagreement is either fixed in this crate or listed in `KNOWN` with its reason.
//!
//! Linux only: the engine is installed by `cargo xtask setup` (Debian's Python and venv).
#![cfg(target_os = "linux")]

mod packer;

use std::path::Path;

use pack::EngineVerdict;
use packer::{packer, repository_packs};
use test_support::{copy_dir, repo};

const BENCH: &str = "tests/fixtures/bench-pack";
const TABLE: &str = "crates/local-table/tests/fixtures/test-pack";

/// A broken copy: its name, the fixture it starts from, and the edit that breaks it.
struct Case {
    name: &'static str,
    base: &'static str,
    edit: fn(&Path),
}

/// Where the bench and the engine disagree on purpose: (case, why).
const KNOWN: &[(&str, &str)] = &[(
    "panels file not listed",
    "stricter on purpose: the engine ships the pack silently without the unlisted \
     ui/panels.yaml (0 panels), which an author never means; the bench says so (see \
     `unlisted` in src/lib.rs)",
)];

/// Replaces the first `from` in `rel`; a fixture that no longer holds `from` fails the test.
fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let path = dir.join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(text.contains(from), "{from:?} not in {rel}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    std::fs::write(dir.join(rel), bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn remove(dir: &Path, rel: &str) {
    std::fs::remove_file(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
}

fn text_panel(id: &str) -> String {
    format!(
        "  - id: {id}\n    title: {{en: \"{id}\"}}\n    slot: sidebar\n    blocks:\n      \
         - {{kind: text, text: \"x\"}}\n"
    )
}

/// Adds `ui/more.yaml` holding `panels` and lists it after `ui/panels.yaml`.
fn second_panels_file(dir: &Path, panels: &str) {
    write(dir, "ui/more.yaml", format!("panels:\n{panels}").as_bytes());
    edit(
        dir,
        "pack.yaml",
        "[ui/panels.yaml]",
        "[ui/panels.yaml, ui/more.yaml]",
    );
}

const PANELS: &str = "ui/panels.yaml";
const CARD: &str = "cards/world.lorecard.json";

fn cases() -> Vec<Case> {
    let case = |name, base, edit| Case { name, base, edit };
    vec![
        case("unknown block kind", BENCH, |d| {
            edit(d, PANELS, "kind: badge", "kind: gauge")
        }),
        case("bad visible_when", BENCH, |d| {
            edit(d, PANELS, "\"tide >= 3\"", "\"tide >= \"")
        }),
        case("unknown block field", BENCH, |d| {
            edit(d, PANELS, "tone: warn,", "tone: warn, colour: red,")
        }),
        case("missing entry file", BENCH, |d| {
            remove(d, "panels/echo/index.html")
        }),
        case("missing tier-1 image", TABLE, |d| remove(d, "img/dot.svg")),
        case("asset path out of the pack", BENCH, |d| {
            edit(
                d,
                PANELS,
                "panels/echo/app.js]",
                "panels/echo/../../../x.js]",
            )
        }),
        case("entry path out of the pack", BENCH, |d| {
            edit(
                d,
                PANELS,
                "entry: panels/echo/index.html",
                "entry: ../echo/index.html",
            )
        }),
        case("contents path out of the pack", BENCH, |d| {
            edit(
                d,
                "pack.yaml",
                "[ui/panels.yaml]",
                "[../bench-pack/ui/panels.yaml]",
            )
        }),
        case("duplicate panel ids", BENCH, |d| {
            edit(d, PANELS, "- id: secrets", "- id: notes")
        }),
        case("duplicate panel ids across files", BENCH, |d| {
            second_panels_file(d, &text_panel("notes"))
        }),
        case("17 panels in one file", BENCH, |d| {
            let extra: String = (0..14).map(|i| text_panel(&format!("extra-{i}"))).collect();
            let text = std::fs::read_to_string(d.join(PANELS)).unwrap();
            write(d, PANELS, (text + &extra).as_bytes());
        }),
        case("17 panels across files", BENCH, |d| {
            let extra: String = (0..14).map(|i| text_panel(&format!("extra-{i}"))).collect();
            second_panels_file(d, &extra)
        }),
        case("bad card JSON", BENCH, |d| {
            edit(d, CARD, "\"Bench world\",", "\"Bench world\"")
        }),
        case("card not UTF-8", BENCH, |d| {
            edit(d, CARD, "Bench world", "Bench w\u{0}rld");
            let bytes = std::fs::read(d.join(CARD)).unwrap();
            let bytes: Vec<u8> = bytes
                .iter()
                .map(|&b| if b == 0 { 0xe9 } else { b })
                .collect();
            write(d, CARD, &bytes);
        }),
        case("513 worldbook entries", BENCH, |d| {
            let entries: Vec<String> = (0..513)
                .map(|i| format!("{{\"title\": \"e{i}\", \"content\": \"x\"}}"))
                .collect();
            let with = format!(
                "\"name\": \"Bench world\",\n  \"worldbook\": [{}],",
                entries.join(",")
            );
            edit(d, CARD, "\"name\": \"Bench world\",", &with)
        }),
        case("a worldbook entry over 128 KiB", BENCH, |d| {
            let big = "x".repeat(128 * 1024 + 1);
            let with = format!(
                "\"name\": \"Bench world\",\n  \"worldbook\": [{{\"title\": \"t\", \"content\": \"{big}\"}}],"
            );
            edit(d, CARD, "\"name\": \"Bench world\",", &with)
        }),
        case("missing card file", BENCH, |d| remove(d, CARD)),
        case("missing panels file", BENCH, |d| remove(d, PANELS)),
        case("panels file not UTF-8", BENCH, |d| {
            write(d, PANELS, b"panels:\n  - id: caf\xe9\n")
        }),
        case("panels YAML syntax", BENCH, |d| {
            edit(d, PANELS, "    slot: tray", "    slot: [tray")
        }),
        case("panels file not listed", BENCH, |d| {
            edit(d, "pack.yaml", "  panels: [ui/panels.yaml]\n", "")
        }),
    ]
}

/// The bench's verdict in one line: accepted, or its problems.
fn ours(here: &Result<pack::Pack, Vec<pack::Problem>>) -> String {
    match here {
        Ok(p) => format!("accepted ({} panels)", p.panels.len()),
        Err(problems) => {
            let all: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
            format!("refused: {}", all.join(" | "))
        }
    }
}

fn engine(verdict: &EngineVerdict) -> String {
    match verdict {
        EngineVerdict::Built { id, trust, .. } => format!("built {id} (trust {trust})"),
        EngineVerdict::Refused {
            error, file, line, ..
        } => format!("refused: {error:?} (file {file:?}, line {line:?})"),
        EngineVerdict::Crashed { exception, .. } => format!("crashed: {exception}"),
    }
}

/// Runs both on one folder: what they disagree on (None when nothing), and both verdicts.
fn compare(name: &str, dir: &Path) -> (Option<String>, String) {
    let theirs = packer(dir);
    let here = pack::load(dir);
    let said = format!(
        "{name}:\n  engine: {}\n  bench:  {}",
        engine(&theirs),
        ours(&here)
    );
    if theirs.accepted() != here.is_ok() {
        return (Some("accept/refuse".into()), said);
    }
    // Where the engine names a position (YAML's or JSON's), the bench points at the same line.
    if let (
        EngineVerdict::Refused {
            file: Some(file),
            line: Some(line),
            ..
        },
        Err(problems),
    ) = (&theirs, &here)
    {
        if !problems.iter().any(|p| &p.file == file && p.line == *line) {
            return (Some(format!("position (the engine: {file}:{line})")), said);
        }
    }
    (None, said)
}

#[test]
fn the_bench_and_the_engine_agree_on_what_ships() {
    let mut jobs: Vec<(String, tempfile::TempDir)> = Vec::new();
    for pack in repository_packs() {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&pack, dir.path());
        let rel = pack.strip_prefix(repo()).unwrap().display().to_string();
        jobs.push((format!("repository pack {rel}"), dir));
    }
    let cases = cases();
    for case in &cases {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&repo().join(case.base), dir.path());
        (case.edit)(dir.path());
        jobs.push((case.name.to_string(), dir));
    }
    // Two at a time: the packer is a Python start-up each (about 3 s), and CI has 2 cores.
    let results: Vec<(String, Option<String>, String)> = std::thread::scope(|s| {
        let (left, right) = jobs.split_at(jobs.len() / 2);
        let a = s.spawn(|| {
            left.iter()
                .map(|(n, d)| (n.clone(), compare(n, d.path())))
                .collect::<Vec<_>>()
        });
        let b: Vec<_> = right
            .iter()
            .map(|(n, d)| (n.clone(), compare(n, d.path())))
            .collect();
        let mut all = a.join().expect("a packer thread panicked");
        all.extend(b);
        all.into_iter()
            .map(|(n, (on, said))| (n, on, said))
            .collect()
    });
    let mut failures = Vec::new();
    for (name, on, said) in &results {
        eprintln!("{said}");
        let known = KNOWN.iter().find(|(k, _)| k == name);
        match (on, known) {
            (Some(on), None) => failures.push(format!("DISAGREE on {on}: {said}")),
            (None, Some((_, why))) => failures.push(format!(
                "STALE known difference (they agree now; take it out of KNOWN: {why}) {said}"
            )),
            _ => {}
        }
    }
    for (name, _) in KNOWN {
        assert!(
            results.iter().any(|(n, ..)| n == name),
            "KNOWN lists {name:?}, which is no case"
        );
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
