//! A card split in two by Studio and by the engine (`engine_split.py`): Studio's character
//! card reads, in the engine, as the engine's own `split_card` half of the original; the
//! engine's packer detects Studio's two cards as a character and a world; EJS is stripped
//! alike.

use lorecard::card::{Entry, Lorecard};
use serde_json::{json, Value};

use super::{engine_script, fixture};

fn entry(title: &str, content: &str, secret: bool) -> Entry {
    Entry {
        title: title.into(),
        content: content.into(),
        secret,
        ..Entry::default()
    }
}

#[test]
fn the_character_half_is_the_engines_and_the_two_cards_are_of_their_kinds() {
    let golden =
        lorecard::card::read(&std::fs::read(fixture("studio_export.lorecard.json")).unwrap())
            .unwrap();
    let mut heavy = Lorecard::new("Mara");
    heavy.description = "Keeper of the light. <%= getvar('trust') %>".into();
    heavy.personality = "Wry. <% if (x) { %>Warm.<% } %> and <% dangling".into();
    heavy.opening = "The lamp gutters.".into();
    heavy.author_notes = "<% setvar('a', 1) %>Notes.".into();
    heavy.hooks = vec![json!("on('turn_start', () => {})")];
    heavy.worldbook = vec![
        entry("The pier", "Salt and rope.", false),
        entry("[InitVar]", "trust: 0", false),
        entry("The truth", "Mara drowned.", true),
        entry("Rumours", "They say <%= getvar('trust') %> things.", false),
        entry("@@ decl", "@@initial_variables\nx: 1", false),
    ];
    let mut secret_only = Lorecard::new("Quiet");
    secret_only.personality = "Says little.".into();
    secret_only.worldbook = vec![entry("Hidden", "The key is under the mat.", true)];

    let mut cards = Vec::new();
    for card in [&golden, &heavy, &secret_only] {
        let halves = lorecard::split::split(card).expect("a world card to split");
        cards.push(json!({
            "original": lorecard::card::write(card),
            "character": lorecard::card::write(&halves.character),
            "world": lorecard::card::write(&halves.world),
        }));
    }
    let texts = [
        "a <% x %> b",
        "<% a %> b <% c",
        "a <% b <% c %> d",
        "<<% a %>%",
        "plain",
        "<%",
    ];
    let answer = engine_script(
        "engine_split.py",
        &[json!({"cards": cards, "texts": texts})],
    );
    let answer = &answer[0];
    for (i, card) in answer["cards"].as_array().unwrap().iter().enumerate() {
        assert_eq!(card["ours"], card["engine"], "card {i}: the character half");
        assert_eq!(card["kinds"], json!(["character", "world"]), "card {i}");
    }
    let ours: Vec<Value> = texts
        .iter()
        .map(|t| {
            let (clean, n) = lorecard::ejs::strip_ejs(t);
            json!([clean, n])
        })
        .collect();
    assert_eq!(Value::from(ours), answer["strip"]);
}
