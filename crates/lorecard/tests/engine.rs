//! The card forge's formats held to the real engine (#27): the engine's golden exports
//! (`tests/fixtures/studio_export.*` in `../shared/engine`, made by the reference studio) are
//! read by this crate and written again, and the engine's own parsers and importer must read
//! Studio's files to the same card; then the engine's own fixture test runs against Studio's
//! files in place of its fixtures.
//!
//! Linux only: the engine is installed for Linux (`cargo xtask setup`).
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::Stdio;

#[path = "engine/hooks.rs"]
mod hooks;
#[path = "engine/split.rs"]
mod split;

use lorecard::st::Flavour;
use serde_json::{json, Value};

fn fixture(name: &str) -> PathBuf {
    test_support::engine_install()
        .0
        .join("tests/fixtures")
        .join(name)
}

/// What the engine's parsers and importer make of each file (`engine_summary.py`).
fn engine_reads(files: &[(&str, &Path)]) -> Vec<Value> {
    let list: Vec<Value> = files
        .iter()
        .map(|(kind, path)| json!({"kind": kind, "path": path}))
        .collect();
    engine_script("engine_summary.py", &list)
}

/// Runs one of this folder's Python scripts with the engine's modules: `input` as JSON on its
/// stdin, its stdout read as a JSON list.
fn engine_script(name: &str, input: &[Value]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name);
    let mut child = test_support::engine_python()
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine's Python starts");
    serde_json::to_writer(child.stdin.take().unwrap(), input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the engine's {name} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the engine's answer is JSON")
}

/// Studio's three exports of the engine's fixtures, written into `dir` under the fixtures'
/// own names.
fn studio_exports(dir: &Path) {
    let native = std::fs::read(fixture("studio_export.lorecard.json")).unwrap();
    let card = lorecard::card::read(&native).unwrap();
    std::fs::write(
        dir.join("studio_export.lorecard.json"),
        lorecard::card::write(&card),
    )
    .unwrap();

    let st: Value =
        serde_json::from_slice(&std::fs::read(fixture("studio_export.st.json")).unwrap()).unwrap();
    let imported = lorecard::st::import(&st).unwrap();
    assert_eq!(
        imported.left_out,
        Vec::<String>::new(),
        "the fixture lost fields"
    );
    let v3 = lorecard::st::export_v3(&imported.card, Flavour::Release);
    std::fs::write(
        dir.join("studio_export.st.json"),
        serde_json::to_string_pretty(&v3).unwrap(),
    )
    .unwrap();

    let png = std::fs::read(fixture("studio_export.png")).unwrap();
    let from_png = lorecard::st::import(&lorecard::png::read_card(&png).unwrap()).unwrap();
    assert_eq!(
        from_png.left_out,
        Vec::<String>::new(),
        "the PNG lost fields"
    );
    let card = from_png.card;
    let out = lorecard::png::embed(
        &png,
        &lorecard::st::export_v2(&card, Flavour::Release),
        &lorecard::st::export_v3(&card, Flavour::Release),
    )
    .unwrap();
    std::fs::write(dir.join("studio_export.png"), out).unwrap();
}

#[test]
fn the_native_card_is_written_back_byte_for_byte() {
    let native = std::fs::read_to_string(fixture("studio_export.lorecard.json")).unwrap();
    let card = lorecard::card::read(native.as_bytes()).unwrap();
    assert_eq!(lorecard::card::write(&card), native);
}

#[test]
fn the_engine_reads_studios_exports_to_the_same_cards() {
    let t = tempfile::tempdir().unwrap();
    studio_exports(t.path());
    let names = [
        ("lorecard", "studio_export.lorecard.json"),
        ("card", "studio_export.st.json"),
        ("card", "studio_export.png"),
    ];
    let golden: Vec<PathBuf> = names.iter().map(|(_, n)| fixture(n)).collect();
    let ours: Vec<PathBuf> = names.iter().map(|(_, n)| t.path().join(n)).collect();
    let all: Vec<(&str, &Path)> = names
        .iter()
        .zip(&golden)
        .chain(names.iter().zip(&ours))
        .map(|((kind, _), path)| (*kind, path.as_path()))
        .collect();
    let read = engine_reads(&all);
    let (golden, ours) = read.split_at(3);
    for ((_, name), (want, got)) in names.iter().zip(golden.iter().zip(ours)) {
        let mut want = want.clone();
        let mut carried = 0;
        if *name != "studio_export.lorecard.json" {
            // The reference studio writes an entry's trigger settings only where SillyTavern
            // reads them (its `extensions`), so the engine's importer reads its defaults
            // there; Studio writes them where the engine reads them too. The one that differs
            // in these fixtures is the scan depth (4, read as 0 from the reference's file).
            for (w, g) in want["imported"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .zip(got["imported"].as_array().unwrap())
            {
                if w["scan_depth"] != g["scan_depth"] {
                    assert_eq!((&w["scan_depth"], &g["scan_depth"]), (&json!(0), &json!(4)));
                    w["scan_depth"] = g["scan_depth"].clone();
                    carried += 1;
                }
            }
            assert!(
                carried > 0,
                "{name}: Studio's file does not give the engine the scan depth"
            );
        }
        assert_eq!(
            &want, got,
            "the engine reads {name} differently from Studio's file"
        );
        assert_eq!(
            got["warnings"].as_array().map_or(0, Vec::len),
            0,
            "{name}: warnings"
        );
    }
    // Something was compared: the InitVar tree, the condition, the typed variables.
    assert_eq!(ours[1]["initvar"][0]["世界"]["公寓"]["五层可见"], false);
    assert_eq!(ours[0]["variables"][0]["id"], "理智");
}

#[test]
fn the_engines_own_fixture_test_passes_on_studios_exports() {
    let dir = test_support::engine_install().0;
    let t = tempfile::tempdir().unwrap();
    let tests = t.path().join("tests");
    std::fs::create_dir_all(tests.join("core")).unwrap();
    std::fs::create_dir_all(tests.join("fixtures")).unwrap();
    studio_exports(&tests.join("fixtures"));
    let test_file = tests.join("core/test_studio_export_fixture.py");
    std::fs::copy(
        dir.join("tests/core/test_studio_export_fixture.py"),
        &test_file,
    )
    .unwrap();
    // Every `test_` function of the engine's file, called as pytest would (none takes
    // fixtures); the count must be the file's.
    let runner = format!(
        "import importlib.util, sys\n\
         spec = importlib.util.spec_from_file_location('fixture_test', {path:?})\n\
         module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n\
         names = [n for n in dir(module) if n.startswith('test_')]\n\
         [getattr(module, n)() for n in names]\n\
         print(len(names))\n",
        path = test_file.display().to_string()
    );
    let out = test_support::engine_python()
        .args(["-c", &runner])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the engine's fixture test fails on Studio's exports:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ran: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let source = std::fs::read_to_string(&test_file).unwrap();
    assert_eq!(ran, source.matches("\ndef test_").count());
    assert!(ran >= 4, "only {ran} tests ran");
}

/// The engine's packer decides a card's kind from what it carries (`core.pack.detect_card_kind`);
/// Studio's `world::payloads` must decide the same on every case, plain and machinery-laden.
#[test]
fn the_engine_and_studio_agree_on_world_or_character() {
    let native = |extra: Value| {
        let mut card = json!({"format": "loreweaver.card", "format_version": 1, "name": "N",
            "worldbook": [{"title": "home", "content": "a house"}]});
        card.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        card
    };
    let st = |data: Value| json!({"spec": "chara_card_v2", "spec_version": "2.0", "data": data});
    let cases: Vec<(&str, Value)> = vec![
        ("plain native", native(json!({}))),
        ("hooks", native(json!({"hooks": ["on('turn', f)"]}))),
        ("blank hook", native(json!({"hooks": ["  "]}))),
        (
            "typed variable",
            native(json!({"variables": [{"id": "hp", "kind": "number", "default": 1}]})),
        ),
        (
            "unknown kind",
            native(json!({"variables": [{"id": "hp", "kind": "colour"}]})),
        ),
        (
            "secret lore",
            native(json!({"worldbook": [{"title": "s", "content": "x", "secret": true}]})),
        ),
        (
            "empty secret",
            native(json!({"worldbook": [{"title": "s", "content": "", "secret": true}]})),
        ),
        (
            "native InitVar",
            native(json!({"worldbook": [{"title": "[InitVar]", "content": "a: 1"}]})),
        ),
        (
            "EJS in the opening",
            native(json!({"opening": "hi <%= user %>"})),
        ),
        ("plain ST", st(json!({"name": "A", "description": "kind"}))),
        (
            "ST InitVar",
            st(json!({"name": "A", "character_book": {"entries": [
            {"comment": "「[InitVar]变量」", "content": "a: 1", "keys": []}]}})),
        ),
        (
            "ST decorator",
            st(json!({"name": "A", "character_book": {"entries": [
            {"comment": "v", "content": "@@initial_variables\na: 1", "keys": []}]}})),
        ),
        (
            "ST hooks",
            st(json!({"name": "A", "extensions": {"loreweaver_hooks": [{"code": "x()"}]}})),
        ),
        (
            "ST EJS lore",
            st(json!({"name": "A", "character_book": {"entries": [
            {"comment": "t", "content": "<% if (x) { %>y<% } %>", "keys": []}]}})),
        ),
        (
            "ST percent",
            st(json!({"name": "A", "description": "100% sure"})),
        ),
    ];
    let t = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (i, (_, card)) in cases.iter().enumerate() {
        let path = t.path().join(format!("card{i}.json"));
        std::fs::write(&path, serde_json::to_vec(card).unwrap()).unwrap();
        paths.push(path);
    }
    let runner = "import json, sys\n\
         from core.pack import detect_card_kind\n\
         print(json.dumps([detect_card_kind(p, open(p, 'rb').read()) for p in sys.argv[1:]]))\n";
    let out = test_support::engine_python()
        .args(["-c", runner])
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let engine: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    let mut worlds = 0;
    for ((what, card), engine) in cases.iter().zip(&engine) {
        let ours = lorecard::world::payloads(card).kind();
        assert_eq!(
            ours, engine,
            "{what}: Studio says {ours}, the engine {engine}"
        );
        worlds += usize::from(ours == "world");
    }
    assert!(
        worlds >= 8 && worlds < cases.len(),
        "{worlds} world cards of {}",
        cases.len()
    );
}

/// `[InitVar]` trees read by Studio and by the engine (`parse_initvar`, `flatten_leaves`) to
/// the same leaves, and every variable Studio offers for a leaf taken by the engine's
/// `normalize_spec` unchanged.
#[test]
fn initvar_trees_read_alike_and_offered_variables_are_the_engines() {
    let golden: Value =
        serde_json::from_slice(&std::fs::read(fixture("studio_export.st.json")).unwrap()).unwrap();
    let golden_tree = golden["data"]["character_book"]["entries"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let texts = [
        golden_tree,
        r#"{
  // comments, trailing commas, single quotes, bare keys
  "理": { "情绪": { pleasure: [0.1, "[-1,1]"], '好感度': [30, "0~100"], }, 'name': '悟空', },
  gold: 12.0, flags: [{seen: true}, {seen: false}], url: "http://a.b // c",
  "Max HP": [10, "[0, 10]"], 'it\'s': "x",
}"#
        .to_string(),
        "stats:\n  brave: yes\n  hp: 5\n  hp: 7\n  tags: [a, b]\n  when: 2026-01-02\n".to_string(),
        // A bare CJK key is not JSON5-lite: both fall back to YAML and read the same odd tree.
        "{ 理: { 好感度: 3 }, // note\n b: 1 }".to_string(),
        "{'unterminated: 1}".to_string(),
        "just text".to_string(),
    ];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for text in &texts {
        let mut card = lorecard::Lorecard::new("t");
        card.worldbook.push(lorecard::Entry {
            title: "[InitVar]".into(),
            content: text.clone(),
            ..Default::default()
        });
        let offered = lorecard::initvar::proposals(&card);
        let leaves: Option<Vec<Value>> = lorecard::initvar::parse(text).map(|_| {
            offered
                .iter()
                .map(|p| json!({"path": p.path, "value": p.value}))
                .collect()
        });
        let vars: Vec<Value> = offered
            .iter()
            .filter_map(|p| p.variable.as_ref())
            .map(|v| serde_json::to_value(v).unwrap())
            .collect();
        cases.push(json!({"text": text, "variables": vars}));
        ours.push((leaves, vars));
    }
    let engine = engine_script("engine_initvar.py", &cases);
    let mut offered_total = 0;
    for ((leaves, vars), (engine, text)) in ours.iter().zip(engine.iter().zip(&texts)) {
        assert_eq!(
            leaves
                .as_ref()
                .map(|l| Value::from(l.clone()))
                .unwrap_or(Value::Null),
            engine["leaves"],
            "the leaves of {text:?}"
        );
        for (ours, spec) in vars.iter().zip(engine["specs"].as_array().unwrap()) {
            let mut ours = ours.clone();
            ours["labels"] = json!({});
            assert_eq!(&ours, spec, "the engine changed or dropped a variable");
            offered_total += 1;
        }
    }
    assert!(
        offered_total >= 10,
        "too few variables offered to prove much: {offered_total}"
    );
}
