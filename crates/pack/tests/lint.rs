//! Each lint rule on a small pack written to a temp folder: the problem names the file, the
//! line and column of the offending value, and a fix.

use std::path::Path;

use pack::{load, Problem};

const PACK: &str = "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  panels: [ui/panels.yaml]\n";

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn problems(panels: &str) -> Vec<Problem> {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    write(dir.path(), "ui/panels.yaml", panels);
    write(dir.path(), "img/map.png", "png");
    write(dir.path(), "p/page/index.html", "<p>hi</p>");
    load(dir.path()).err().unwrap_or_default()
}

/// The single problem `panels` has, as `file:line:col: message`.
fn one(panels: &str) -> (String, Problem) {
    let list = problems(panels);
    assert_eq!(list.len(), 1, "expected one problem, got {list:#?}");
    (list[0].to_string(), list[0].clone())
}

#[test]
fn a_good_pack_loads_with_wire_entries() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  panels: [ui/panels.yaml]\n  cards: [cards/world.lorecard.json]\n",
    );
    write(
        dir.path(),
        "ui/panels.yaml",
        "panels:\n  - id: a\n    title: {en: A, zh: 甲}\n    slot: sidebar\n    blocks:\n      - {kind: image, src: img/map.png, visible_when: \"day >= 3\"}\n      - repeat: {prefix: clue., block: {kind: badge, label: {$leaf: label}}}\n  - id: b\n    title: B\n    slot: modal\n    audience: keeper\n    entry: p/page/index.html\n    assets: [p/page/index.html, p/page/app.js]\n    fallback: null\n",
    );
    write(dir.path(), "img/map.png", "png");
    write(dir.path(), "p/page/index.html", "<p>hi</p>");
    write(dir.path(), "p/page/app.js", "1");
    write(
        dir.path(),
        "cards/world.lorecard.json",
        r#"{"format": "loreweaver.card", "format_version": 1, "name": "W", "variables": [
  {"id": "day", "kind": "number", "visibility": "player", "labels": {"en": "Day", "zh": "天"}, "default": 1, "minimum": 0, "maximum": 9},
  {"id": "killer", "kind": "text", "visibility": "keeper", "labels": {"en": "Killer"}, "default": "the butler"}
]}"#,
    );
    let pack = load(dir.path()).unwrap();
    assert_eq!(pack.id, "t");
    assert_eq!(pack.panels.len(), 2);
    let image = &pack.panels[0].wire["blocks"][0];
    assert_eq!(image["mime"], "image/png");
    assert_eq!(image["size"], 3);
    assert!(image.get("src").is_none());
    assert_eq!(pack.panels[1].audience, pack::Audience::Keeper);
    // The entry rides as `entry`; `assets` holds the other declared files, as the engine sends.
    assert_eq!(pack.panels[1].wire["assets"].as_array().unwrap().len(), 1);
    assert_eq!(pack.panels[1].wire["assets"][0]["path"], "app.js");
    assert_eq!(pack.cards[0].kind, "world");
    assert_eq!(pack.variables.len(), 2);
    assert!(pack.variables[1].keeper_only);
    assert_eq!(pack.variables[0].label("zh"), "天");
    assert_eq!(
        (pack.variables[0].min, pack.variables[0].max),
        (Some(0), Some(9))
    );
}

#[test]
fn yaml_syntax_error_has_position() {
    let list = problems("panels:\n  - id: a\n    blocks: [\n");
    let text: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        ["ui/panels.yaml:3:13: YAML syntax: unclosed bracket '['"]
    );
}

#[test]
fn unknown_block_kind() {
    let (text, p) = one("panels:\n  - id: a\n    blocks:\n      - {kind: gauge, label: X}\n    title: A\n    slot: sidebar\n");
    assert_eq!(text, "ui/panels.yaml:4:16: unknown block kind \"gauge\"");
    assert!(p.hint.contains("meter"));
}

#[test]
fn missing_required_field() {
    let (text, _) = one(
        "panels:\n  - id: a\n    blocks:\n      - {kind: meter, label: HP, value: 3, min: 0}\n    title: A\n    slot: sidebar\n",
    );
    assert_eq!(text, "ui/panels.yaml:4:16: a meter block needs `max`");
}

#[test]
fn visible_when_outside_the_subset() {
    let (text, _) = one("panels:\n  - id: a\n    blocks:\n      - kind: divider\n        visible_when: \"day + 1 > 3\"\n    title: A\n    slot: sidebar\n");
    assert!(
        text.starts_with(
            "ui/panels.yaml:5:23: visible_when \"day + 1 > 3\" is outside the portable subset"
        ),
        "{text}"
    );
    let (text, _) = one(
        "panels:\n  - id: a\n    blocks:\n      - {kind: divider, visible_when: \"getvar('x')\"}\n    title: A\n    slot: sidebar\n",
    );
    assert_eq!(
        text,
        "ui/panels.yaml:4:39: visible_when \"getvar('x')\" is outside the portable subset: syntax error: unexpected trailing Op(\"(\")"
    );
    assert!(problems("panels:\n  - id: a\n    blocks:\n      - {kind: divider, visible_when: \"day >= 3 && !gone\"}\n    title: A\n    slot: sidebar\n").is_empty());
}

#[test]
fn var_and_leaf_misuse() {
    let (text, _) = one(
        "panels:\n  - id: a\n    blocks:\n      - {kind: stat, label: X, value: {$leaf: value}}\n    title: A\n    slot: sidebar\n",
    );
    assert_eq!(
        text,
        "ui/panels.yaml:4:39: $leaf only means something inside a repeat's block"
    );
    let (text, _) = one("panels:\n  - id: a\n    blocks:\n      - repeat: {prefix: c., block: {kind: badge, label: {$leaf: name}}}\n    title: A\n    slot: sidebar\n");
    assert_eq!(
        text,
        "ui/panels.yaml:4:66: $leaf must be id, label or value"
    );
    let (text, _) =
        one("panels:\n  - id: a\n    blocks:\n      - {kind: stat, label: X, value: {$var: 3}}\n    title: A\n    slot: sidebar\n");
    assert_eq!(text, "ui/panels.yaml:4:46: $var needs a variable id (text)");
    let (text, _) = one("panels:\n  - id: a\n    blocks:\n      - repeat: {prefix: c., block: {repeat: {prefix: d., block: {kind: divider}}}}\n    title: A\n    slot: sidebar\n");
    assert_eq!(
        text,
        "ui/panels.yaml:4:46: a repeat inside a repeat never expands"
    );
}

#[test]
fn missing_and_escaping_files() {
    let (text, _) =
        one("panels:\n  - id: a\n    blocks:\n      - {kind: image, src: img/gone.png}\n    title: A\n    slot: sidebar\n");
    assert_eq!(text, "ui/panels.yaml:4:28: \"img/gone.png\" does not exist");
    let (text, _) =
        one("panels:\n  - id: a\n    blocks:\n      - {kind: image, src: ../secret.png}\n    title: A\n    slot: sidebar\n");
    assert_eq!(
        text,
        "ui/panels.yaml:4:28: \"../secret.png\" is outside the pack"
    );
    let (text, _) = one("panels:\n  - id: a\n    entry: p/nope/index.html\n    assets: [p/nope/index.html]\n    fallback: null\n    title: A\n    slot: sidebar\n");
    assert_eq!(
        text,
        "ui/panels.yaml:3:12: entry \"p/nope/index.html\" does not exist"
    );
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_pack_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.png", "s");
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    write(
        dir.path(),
        "ui/panels.yaml",
        "panels:\n  - {id: a, blocks: [{kind: image, src: img/link.png}], title: A, slot: sidebar}\n",
    );
    std::fs::create_dir_all(dir.path().join("img")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.png"),
        dir.path().join("img/link.png"),
    )
    .unwrap();
    let list = load(dir.path()).unwrap_err();
    let text: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        ["ui/panels.yaml:2:41: \"img/link.png\" goes through a link: a pack ships its own files, not links"]
    );
}

#[test]
fn caps() {
    let many: String = (0..17)
        .map(|i| {
            format!("  - {{id: p{i}, title: P, slot: sidebar, blocks: [{{kind: divider}}]}}\n")
        })
        .collect();
    let (text, _) = one(&format!("panels:\n{many}"));
    assert_eq!(
        text,
        "ui/panels.yaml:18:5: 17 panels: a pack may ship at most 16"
    );
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    write(
        dir.path(),
        "ui/panels.yaml",
        "panels:\n  - {id: big, entry: p/big/index.html, assets: [p/big/index.html, p/big/blob.js], fallback: null, title: B, slot: sidebar}\n",
    );
    write(dir.path(), "p/big/index.html", "x");
    std::fs::write(
        dir.path().join("p/big/blob.js"),
        vec![b'x'; 2 * 1024 * 1024],
    )
    .unwrap();
    let list = load(dir.path()).unwrap_err();
    let text: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        ["ui/panels.yaml:2:22: tier-2 code is 2048 KiB: a page may ship at most 2048 KiB"]
    );
}

#[test]
fn slot_tier_and_audience() {
    let (text, _) =
        one("panels:\n  - {id: a, slot: footer, title: A, blocks: [{kind: divider}]}\n");
    assert_eq!(
        text,
        "ui/panels.yaml:2:19: slot must be sidebar, tray or modal"
    );
    let (text, _) =
        one("panels:\n  - {id: a, tier: 1, title: A, slot: sidebar, blocks: [{kind: divider}]}\n");
    assert_eq!(text, "ui/panels.yaml:2:13: unknown keys ['tier']");
    let (text, _) = one("panels:\n  - {id: a, fallback: null, title: A, slot: sidebar, blocks: [{kind: divider}]}\n");
    assert_eq!(
        text,
        "ui/panels.yaml:2:23: fallback: only a tier-2 panel (with entry) declares this"
    );
    let (text, _) = one("panels:\n  - {id: a, entry: p/page/index.html, assets: [p/page/index.html], fallback: null, blocks: [{kind: divider}], title: A, slot: sidebar}\n");
    assert_eq!(
        text,
        "ui/panels.yaml:2:92: a tier-2 panel declares fallback blocks, not blocks"
    );
    let (text, _) = one(
        "panels:\n  - {id: a, audience: gm, title: A, slot: sidebar, blocks: [{kind: divider}]}\n",
    );
    assert_eq!(
        text,
        "ui/panels.yaml:2:23: audience must be one of ['all', 'player', 'keeper']"
    );
    let (text, _) = one("panels:\n  - {id: a, title: A, slot: sidebar, blocks: [{kind: divider}]}\n  - {id: a, title: A, slot: sidebar, blocks: [{kind: divider}]}\n");
    assert_eq!(
        text,
        "ui/panels.yaml:3:10: panel id \"t/a\" is used twice in the pack"
    );
}

#[test]
fn world_card_variables() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  cards: [cards/w.json]\n",
    );
    write(dir.path(), "cards/w.json", "{\"format\": \"loreweaver.card\", \"format_version\": 1,\n \"variables\": [\n  {\"id\": \"day\", \"kind\": \"integer\"},\n  {\"id\": \"n\", \"kind\": \"bool\", \"default\": 3}\n]}\n");
    let list = load(dir.path()).unwrap_err();
    let text: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        [
            "cards/w.json:3:25: variable \"day\": kind must be number, bool, text or enum",
            "cards/w.json:4:42: variable \"n\": the default is not a bool",
        ],
    );
    write(
        dir.path(),
        "cards/w.json",
        "{\"format\": \"loreweaver.card\", \"variables\": [}\n",
    );
    let list = load(dir.path()).unwrap_err();
    let text: Vec<String> = list.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        text,
        ["cards/w.json:1:45: the card is not valid JSON: expected value at line 1 column 45"]
    );
}

#[test]
fn the_repository_packs_load_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in [
        "assets/demo/pack",
        "crates/local-table/tests/fixtures/test-pack",
        "tests/fixtures/bench-pack",
        "tests/fixtures/hostile-pack",
        "tests/fixtures/stall-pack",
    ] {
        if let Err(list) = load(&root.join(dir)) {
            panic!("{dir}: {list:#?}");
        }
    }
}

#[test]
fn an_empty_panels_file_is_refused_not_read_as_no_panels() {
    // What an editor's truncate-then-write leaves for a moment: the last good panels must stay.
    for empty in ["", "\n  \n"] {
        let (text, _) = one(empty);
        assert_eq!(text, "ui/panels.yaml: the file is empty");
    }
    // The engine refuses an empty list too: a pack without panels lists no panels file.
    let (text, _) = one("panels: []\n");
    assert_eq!(text, "ui/panels.yaml:1:9: panels: must be a non-empty list");
}

/// `pack.yaml` problems, as `file:line:col: message`.
fn manifest_problems(pack_yaml: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", pack_yaml);
    write(
        dir.path(),
        "ui/panels.yaml",
        "panels:\n  - {id: a, title: A, slot: sidebar, blocks: [{kind: text, text: hi}]}\n",
    );
    write(
        dir.path(),
        "ui/more.yaml",
        "panels:\n  - {id: b, title: B, slot: sidebar, blocks: [{kind: text, text: hi}]}\n",
    );
    match load(dir.path()) {
        Ok(_) => vec![],
        Err(list) => list.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn contents_in_string_form_is_refused_in_the_engines_words_never_silently() {
    let text = manifest_problems(
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  panels: ui/panels.yaml\n",
    );
    assert_eq!(text, ["pack.yaml:7:11: contents.panels must be a list"]);
}

#[test]
fn several_panels_files_are_read_in_order_and_ids_are_unique_across_them() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  panels:\n    - ui/panels.yaml\n    - ui/more.yaml\n",
    );
    let panel = |id: &str| {
        format!("panels:\n  - {{id: {id}, title: A, slot: sidebar, blocks: [{{kind: text, text: hi}}]}}\n")
    };
    write(dir.path(), "ui/panels.yaml", &panel("a"));
    write(dir.path(), "ui/more.yaml", &panel("b"));
    let pack = load(dir.path()).unwrap();
    let ids: Vec<&str> = pack.panels.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["t/a", "t/b"]);
    write(dir.path(), "ui/more.yaml", &panel("a"));
    let text: Vec<String> = load(dir.path())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        text,
        ["ui/more.yaml:2:10: panel id \"t/a\" is used twice in the pack"]
    );
}

#[test]
fn the_engines_manifest_rules_each_with_a_position() {
    let text = manifest_problems(
        "id: Bad_Id\nversion: \"1.2\"\nname: \"\"\nengine: {protocol: \"2.x\", client: \"1\"}\ncontents:\n  panels: [ui/panels.yaml, ui/panels.yaml, ../x.yaml]\n  maps: [m.yaml]\n  cards: [{path: c.json, kind: world}]\ntrust: {}\n",
    );
    assert_eq!(
        text,
        [
            "pack.yaml:1:5: manifest id must be a lowercase slug ([a-z0-9-], max 64)",
            "pack.yaml:2:10: manifest version must be semver (MAJOR.MINOR.PATCH)",
            "pack.yaml:3:7: manifest field 'name' must be a non-empty string or an en/zh mapping",
            "pack.yaml:1:1: manifest field 'description' must be a non-empty string or an en/zh mapping",
            "pack.yaml:1:1: manifest license is required (an SPDX id or short name)",
            "pack.yaml:4:20: engine.protocol must be a version string (dotted integers only)",
            "pack.yaml:4:27: unknown engine keys: ['client']",
            "pack.yaml:6:28: contents.panels lists a duplicate path",
            "pack.yaml:6:44: unsafe archive path (traversal segment): '../x.yaml'",
            "pack.yaml:7:3: unknown contents kinds: ['maps']",
            "pack.yaml:8:32: card kind is detected from the real payload at build time and must not be declared",
            "pack.yaml:9:8: trust is generated at pack time and must not be hand-written",
        ]
    );
}

#[test]
fn a_panels_file_the_manifest_does_not_list_is_named_with_why() {
    let text =
        manifest_problems("id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\n");
    assert_eq!(
        text,
        ["pack.yaml: ui/panels.yaml is not listed under contents.panels: the engine would ship the pack without it"]
    );
}

#[test]
fn a_page_declares_its_files_and_its_fallback_as_the_engine_requires() {
    let text =
        |yaml: &str| -> Vec<String> { problems(yaml).iter().map(|p| p.to_string()).collect() };
    assert_eq!(
        text("panels:\n  - {id: a, title: A, slot: sidebar, entry: p/page/index.html}\n"),
        [
            "ui/panels.yaml:2:5: assets: a tier-2 panel must list every file it ships (entry included)",
            "ui/panels.yaml:2:5: fallback: required for a tier-2 panel (write `fallback: null` to opt out)",
        ]
    );
    assert_eq!(
        text("panels:\n  - {id: a, title: A, slot: sidebar, entry: p/page/index.html, assets: [img/map.png], fallback: null}\n"),
        [
            "ui/panels.yaml:2:72: assets: must include the entry document itself",
            "ui/panels.yaml:2:73: assets: 'img/map.png' is outside the entry's directory 'p/page'",
        ]
    );
    assert_eq!(
        text("panels:\n  - {id: Notes_1, title: A, slot: sidebar, blocks: [{kind: divider}]}\n  - {id: b, audience: players, blocks: [{kind: divider}]}\n"),
        [
            "ui/panels.yaml:2:10: a panel id must be a lowercase slug ([a-z0-9-], max 64)",
            "ui/panels.yaml:3:5: missing ['title', 'slot']",
            "ui/panels.yaml:3:23: audience must be one of ['all', 'player', 'keeper']",
        ]
    );
}

#[test]
fn a_native_card_names_its_format_version() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "pack.yaml",
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  cards: [cards/w.json]\n",
    );
    write(
        dir.path(),
        "cards/w.json",
        "{\"format\": \"loreweaver.card\", \"name\": \"W\"}\n",
    );
    let text: Vec<String> = load(dir.path())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        text,
        ["cards/w.json:1:1: format_version must be an integer"]
    );
    write(
        dir.path(),
        "cards/w.json",
        "{\"format\": \"loreweaver.card\", \"format_version\": 2, \"name\": \"W\"}\n",
    );
    let text: Vec<String> = load(dir.path())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        text,
        ["cards/w.json:1:49: unsupported format_version 2; this build reads up to 1"]
    );
}

#[test]
fn a_block_carries_only_its_kinds_fields() {
    let text =
        |yaml: &str| -> Vec<String> { problems(yaml).iter().map(|p| p.to_string()).collect() };
    let panel = |blocks: &str| {
        format!("panels:\n  - id: a\n    blocks:\n{blocks}    title: A\n    slot: sidebar\n")
    };
    assert_eq!(
        text(&panel("      - {kind: stat, label: X, value: 1, tone: warn}\n      - {kind: meter, label: HP, value: 1, min: 5, max: 5}\n      - {repeat: {prefix: c., block: {kind: divider}, limit: 3}}\n")),
        [
            "ui/panels.yaml:4:42: unknown keys ['tone']",
            "ui/panels.yaml:5:57: max must be greater than min",
            "ui/panels.yaml:6:55: unknown keys ['limit']",
        ]
    );
}

/// Packs the engine accepts that an earlier reading refused, and the other way round.
#[test]
fn the_engines_edges() {
    let text =
        |yaml: &str| -> Vec<String> { problems(yaml).iter().map(|p| p.to_string()).collect() };
    // `entry: null` is no page: a tier-1 panel.
    assert!(text(
        "panels:\n  - {id: a, title: A, slot: sidebar, entry: null, blocks: [{kind: divider}]}\n"
    )
    .is_empty());
    // `./` and `//` are normalised as the engine's PurePosixPath does.
    assert!(text("panels:\n  - {id: a, title: A, slot: sidebar, entry: ./p//page/index.html, assets: [p/page/index.html], fallback: null}\n").is_empty());
    // A title is text or en/zh, never a binding.
    assert_eq!(
        text("panels:\n  - {id: a, title: {$var: day}, slot: sidebar, blocks: [{kind: divider}]}\n"),
        ["ui/panels.yaml:2:20: title: must be a plain string or en/zh mapping (no bindings), each non-empty and at most 120 characters"]
    );
    // A listed panels file with nothing in it.
    assert_eq!(
        text("~\n"),
        ["ui/panels.yaml:1:1: panels.yaml root must be a mapping with a `panels` list"]
    );
    // Python's empty values are "nothing": accepted.
    assert!(manifest_problems(
        "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\nauthors: \"\"\nengine: {protocol: null}\ncontents:\n  panels: [./ui/panels.yaml]\n  skills: {}\n"
    )
    .is_empty());
}

/// The engine caps each page's code (entry, html, js, css), not the pack, and not its pictures.
#[test]
fn the_code_cap_is_per_page_and_counts_code_only() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    let page = |id: &str| {
        format!("  - {{id: {id}, title: A, slot: sidebar, entry: p/{id}/index.html, assets: [p/{id}/index.html, p/{id}/app.js, p/{id}/map.jpg], fallback: null}}\n")
    };
    write(
        dir.path(),
        "ui/panels.yaml",
        &format!("panels:\n{}{}", page("a"), page("b")),
    );
    for id in ["a", "b"] {
        write(dir.path(), &format!("p/{id}/index.html"), "<p>hi</p>");
        std::fs::write(
            dir.path().join(format!("p/{id}/app.js")),
            vec![b'x'; 1_200_000],
        )
        .unwrap();
        std::fs::write(
            dir.path().join(format!("p/{id}/map.jpg")),
            vec![b'x'; 2_500_000],
        )
        .unwrap();
    }
    if let Err(list) = load(dir.path()) {
        panic!("{list:#?}");
    }
}
