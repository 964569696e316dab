//! A native card's worldbook checked as the engine reads it (#27): what the engine refuses
//! stops the pack; what it skips or never fires loads with a warning at its line.

use std::path::Path;

use pack::{load, Problem};

const PACK: &str = "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  cards: [cards/world.lorecard.json]\n";

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The pack's warnings (it must load) for a world card (it declares a variable) whose
/// worldbook is `entries`.
fn warnings(entries: &str) -> Vec<Problem> {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    let card = format!(
        "{{\n  \"format\": \"loreweaver.card\",\n  \"format_version\": 1,\n  \"name\": \"W\",\n  \"worldbook\": [\n{entries}\n  ],\n  \"variables\": [{{\"id\": \"day\", \"kind\": \"number\"}}]\n}}\n"
    );
    write(dir.path(), "cards/world.lorecard.json", &card);
    match load(dir.path()) {
        Ok(pack) => pack.warnings,
        Err(problems) => panic!("the pack was refused: {problems:#?}"),
    }
}

fn places(list: &[Problem]) -> Vec<String> {
    list.iter()
        .map(|p| format!("{}:{}: {}", p.file, p.line, p.message))
        .collect()
}

#[test]
fn a_clean_worldbook_has_no_warning() {
    let list = warnings(
        "    {\"title\": \"五层\", \"content\": \"只在雨夜\", \"keys\": [\"五层\"], \"condition\": \"世界.日 >= 2\", \"id\": \"a\"},\n    {\"title\": \"b\", \"content\": \"x\", \"keys\": \"b\", \"id\": \"b\", \"selective_logic\": \"not_all\", \"position\": \"after\"}",
    );
    assert_eq!(places(&list), Vec::<String>::new());
}

#[test]
fn each_rule_says_where() {
    let list = warnings(
        [
            "    {\"title\": \"bad\", \"content\": \"x\", \"keys\": [\"k\"], \"condition\": \"日 >=\"},",
            "    {\"title\": \"empty\", \"content\": \"  \"},",
            "    {\"title\": \"one\", \"content\": \"x\", \"keys\": [\"k\"], \"id\": \"dup\"},",
            "    {\"title\": \"two\", \"content\": \"x\", \"keys\": [\"k\"], \"id\": \"dup\"},",
            "    {\"title\": \"logic\", \"content\": \"x\", \"keys\": [\"k\"], \"selective_logic\": \"or\"},",
            "    {\"title\": \"where\", \"content\": \"x\", \"keys\": [\"k\"], \"position\": \"top\"},",
            "    {\"title\": \"never\", \"content\": \"x\", \"keys\": [\"k\"], \"probability\": 0},",
            "    {\"title\": \"off\", \"content\": \"x\", \"probability\": 0, \"enabled\": false},",
            "    {\"title\": \"obj\", \"content\": {\"a\": 1}},",
            "    {\"title\": \"keyless\", \"content\": \"x\", \"keys\": []},",
            "    {\"title\": \"blank\", \"content\": \"x\", \"keys\": [\" \", \"\"]},",
            "    {\"title\": \"always\", \"content\": \"x\", \"constant\": true},",
            "    {\"title\": \"resting\", \"content\": \"x\", \"enabled\": false},",
            "    {\"title\": \"said\", \"content\": \"x\", \"constant\": \"false\"},",
            "    {\"title\": \"bare\", \"content\": \"x\", \"enabled\": 1},",
            "    7",
        ]
        .join("\n")
        .as_str(),
    );
    let got = places(&list);
    let want = [
        (6, "\"bad\": the condition does not parse"),
        (7, "\"empty\": empty content: the engine skips the entry"),
        (9, "\"two\": the id \"dup\" is also the entry's on line 8"),
        (10, "\"logic\": selective_logic \"or\""),
        (11, "\"where\": position \"top\""),
        (12, "\"never\": probability 0 means it never fires"),
        (14, "\"obj\": content must be text"),
        (
            15,
            "\"keyless\": no keys and not constant: no word in the story brings it in",
        ),
        (16, "\"blank\": no keys and not constant"),
        (20, "\"bare\": no keys and not constant"),
        (21, "worldbook[15] is not an object"),
    ];
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (got, (line, says)) in got.iter().zip(want) {
        assert!(
            got.starts_with(&format!("cards/world.lorecard.json:{line}: {says}")),
            "{got} (want line {line}: {says})"
        );
    }
}

#[test]
fn what_the_engine_refuses_stops_the_pack() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    let entries: Vec<String> = (0..513)
        .map(|i| format!("{{\"title\": \"e{i}\", \"content\": \"x\"}}"))
        .collect();
    let card = format!(
        "{{\"format\": \"loreweaver.card\", \"format_version\": 1, \"worldbook\": [{}]}}",
        entries.join(",")
    );
    write(dir.path(), "cards/world.lorecard.json", &card);
    let Err(problems) = load(dir.path()) else {
        panic!("513 entries loaded")
    };
    assert!(problems[0].message.contains("513 entries"), "{problems:#?}");
    let big = "x".repeat(128 * 1024 + 1);
    let card = format!(
        "{{\"format\": \"loreweaver.card\", \"format_version\": 1, \"worldbook\": [{{\"title\": \"t\", \"content\": \"{big}\"}}]}}"
    );
    write(dir.path(), "cards/world.lorecard.json", &card);
    let Err(problems) = load(dir.path()) else {
        panic!("a 128 KiB entry loaded")
    };
    assert!(
        problems[0].message.contains("over 128 KiB"),
        "{problems:#?}"
    );
}

#[test]
fn more_variables_than_a_room_holds_is_a_warning_at_the_first_one_past() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "pack.yaml", PACK);
    let vars: Vec<String> = (0..65)
        .map(|i| format!("    {{\"id\": \"v{i}\", \"kind\": \"number\", \"default\": 0}}"))
        .collect();
    let card = format!(
        "{{\n  \"format\": \"loreweaver.card\",\n  \"format_version\": 1,\n  \"variables\": [\n{}\n  ]\n}}\n",
        vars.join(",\n")
    );
    write(dir.path(), "cards/world.lorecard.json", &card);
    let pack = load(dir.path()).unwrap_or_else(|p| panic!("refused: {p:#?}"));
    assert_eq!(
        places(&pack.warnings),
        ["cards/world.lorecard.json:69: 65 variables: a room holds at most 64; the engine's world import fails at the next one"]
    );
}
