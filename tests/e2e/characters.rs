//! A character without knowing the dialect: at a table whose pack ships a (world) card, the
//! keeper sees "Create a character" with the server's rule systems, lists the installed packs'
//! cards (the world card marked keeper-only, imported with the `world` verb), and creates a
//! character with the system's own word (`.coc <name>`), after which the card gives way to the
//! character sheet.

use std::path::PathBuf;
use std::time::Duration;

use local_table::table::demo_config;
use local_table::{LocalTable, Pacing};
use studio_e2e::keeper::click;
use studio_e2e::peers::{free_udp_port, fresh_dir, runtime};
use studio_e2e::play::{join, transcript, wait_online};
use studio_e2e::{open_studio_with, out_dir, wait_for};

#[test]
fn a_character_of_ones_own() {
    let _scenario = studio_e2e::scenario();
    let dir = fresh_dir("characters");
    let (mut config, keys) = demo_config(dir.join("table")).expect("demo config");
    config.port = free_udp_port();
    config.pacing = Pacing::fast();
    config
        .packs
        .push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench-pack"));
    let rt = runtime();
    let table = rt.block_on(LocalTable::start(config)).expect("local table");
    let s = open_studio_with(&[]);
    join(&s, &table.ticket(), &keys.keeper);
    wait_online(&s, Duration::from_secs(30));

    let card = wait_for(Duration::from_secs(15), "the new-character card", || {
        s.find("#new-character")
    });
    // The server's systems that have a character word (wod has none).
    let options = s
        .execute_on(
            &s.find("#char-system").expect("the system picker"),
            "return [...arguments[0].options].map(o => [o.textContent, o.value]);",
        )
        .unwrap();
    assert_eq!(
        options,
        serde_json::json!([["coc7", "coc"], ["dnd5e", "dnd"]])
    );
    // The installed packs' cards: a world card, for keepers, with its own verb.
    click(&s, "#char-import");
    let item = wait_for(Duration::from_secs(10), "the pack's card", || {
        s.find("#pack-cards li")
    });
    let listed = s.text(&item);
    assert!(
        listed.contains("world") && listed.contains("bench-pack"),
        "{listed}"
    );
    s.screenshot(&out_dir().join("characters.png"));
    s.click(&s.find("#pack-cards li .import").unwrap());
    let said =
        |s: &studio_e2e::Studio, text: &str| transcript(s).iter().any(|l| l.text.contains(text));
    wait_for(Duration::from_secs(10), "the world import line", || {
        said(&s, ".import bench-pack/cards/world.lorecard.json world").then_some(())
    });
    // Create: the system's word and the name, as one line.
    let name = s.find("#char-name").unwrap();
    s.type_text(&name, "Alice Liddell");
    s.click(&s.find("#char-create").unwrap());
    wait_for(Duration::from_secs(10), "the create line", || {
        said(&s, ".coc Alice Liddell").then_some(())
    });
    let sheet = wait_for(Duration::from_secs(15), "the character sheet", || {
        s.find("#character")
    });
    assert!(
        s.text(&sheet).contains("Alice Liddell"),
        "{}",
        s.text(&sheet)
    );
    wait_for(Duration::from_secs(5), "the card to give way", || {
        s.find("#new-character").is_none().then_some(())
    });
    drop(card);
    drop(s);
    rt.block_on(table.shutdown());
}
