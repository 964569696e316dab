//! A card's hook scripts and its kind checked as the engine will treat them (#27): each
//! warning at its line in the card file, the pack still loading.

use std::path::Path;

use pack::{load, Problem};

const PACK: &str = "id: t\nversion: \"0.1.0\"\nname: T\ndescription: D\nlicense: MIT\ncontents:\n  cards: [cards/c.json]\n";

/// `file:line: message` of the pack's warnings for the card `card` (the pack must load).
fn warnings(card: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("pack.yaml", PACK);
    write("cards/c.json", card);
    let list: Vec<Problem> = match load(Path::new(dir.path())) {
        Ok(pack) => pack.warnings,
        Err(problems) => panic!("the pack was refused: {problems:#?}"),
    };
    list.iter()
        .map(|p| format!("{}:{}: {}", p.file, p.line, p.message))
        .collect()
}

fn native(lines: &[&str]) -> String {
    format!(
        "{{\n  \"format\": \"loreweaver.card\",\n  \"format_version\": 1,\n  \"name\": \"N\",\n{}\n}}\n",
        lines.join("\n")
    )
}

#[test]
fn hook_scripts_are_checked_at_their_line_with_the_place_inside_them() {
    let got = warnings(&native(&[
        "  \"variables\": [{\"id\": \"turns\", \"kind\": \"number\"}],",
        "  \"hooks\": [",
        "    \"on('turn_start', () => incvar('turns', 1));\",",
        "    {\"name\": \"meter\",",
        "     \"code\": \"on('turn_start', (e) => {\\n  let n = ;\\n});\"},",
        "    \"on('turn_end', () => {});\"",
        "  ]",
    ]));
    assert_eq!(
        got.len(),
        2,
        "one script that does not parse, one event never fired: {got:#?}"
    );
    assert!(
        got[0].starts_with("cards/c.json:9: hooks[1], line 2 column 11 of the script: ")
            && got[0].contains("the engine cannot load the script"),
        "{}",
        got[0]
    );
    assert!(
        got[1].starts_with(
            "cards/c.json:10: hooks[2], line 1 column 4 of the script: on(\"turn_end\")"
        ),
        "{}",
        got[1]
    );
}

#[test]
fn a_sillytavern_cards_hooks_are_checked_where_the_engine_reads_them() {
    let got = warnings(
        "{\"spec\": \"chara_card_v3\", \"spec_version\": \"3.0\", \"data\": {\n  \"name\": \"S\", \"description\": \"d\",\n  \"extensions\": {\"loreweaver_hooks\": [\n    \"on('turn_start', () => { )\"\n  ]}\n}}\n",
    );
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(
        got[0].starts_with("cards/c.json:4: extensions.loreweaver_hooks[0], line 1 column 26"),
        "{}",
        got[0]
    );
}

#[test]
fn a_persona_carrying_world_machinery_is_read_as_a_world_card() {
    let got = warnings(&native(&[
        "  \"personality\": \"Gruff, kind to strays.\",",
        "  \"opening\": \"The door creaks.\",",
        "  \"worldbook\": [{\"title\": \"The vault\", \"content\": \"Below.\", \"keys\": [\"vault\"], \"secret\": true}]",
    ]));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(
        got[0].starts_with("cards/c.json:5: this card has a persona but the engine reads it as a world card (1 keeper-only entry)"),
        "{}",
        got[0]
    );
}

#[test]
fn lore_with_no_persona_and_no_machinery_is_read_as_a_character_card() {
    let lore =
        "  \"worldbook\": [{\"title\": \"The town\", \"content\": \"Rain.\", \"constant\": true}]";
    let got = warnings(&native(&[lore]));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(
        got[0].starts_with("cards/c.json:5: this card is lore with no persona, but the engine reads it as a character card"),
        "{}",
        got[0]
    );
    // Either fix clears it: a variable makes it a world card, a persona a character.
    let var = "  \"variables\": [{\"id\": \"day\", \"kind\": \"number\"}],";
    assert_eq!(warnings(&native(&[var, lore])), Vec::<String>::new());
    let persona = "  \"personality\": \"Wry.\",";
    assert_eq!(warnings(&native(&[persona, lore])), Vec::<String>::new());
    // A new, empty card is neither yet.
    assert_eq!(warnings(&native(&["  \"tags\": []"])), Vec::<String>::new());
}
