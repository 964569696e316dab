use serde_json::json;

use super::*;
use crate::card::Variable;

fn entry(title: &str, content: &str) -> Entry {
    Entry {
        title: title.into(),
        content: content.into(),
        ..Entry::default()
    }
}

/// A persona carrying every kind of world machinery.
fn heavy() -> Lorecard {
    let mut card = Lorecard::new("Mara");
    card.personality = "Wry. <% if (getvar('trust') > 3) { %>Warm.<% } %>".into();
    card.opening = "The lamp gutters.".into();
    card.scenario = "A drowned town.".into();
    card.tags = vec!["noir".into()];
    card.hooks = vec![json!("on('turn_start', () => {})")];
    card.variables = vec![serde_json::from_value::<Variable>(
        json!({"id": "trust", "kind": "number", "default": 0}),
    )
    .unwrap()];
    card.worldbook = vec![
        entry("The pier", "Salt and rope."),
        entry("[InitVar]", "trust: 0"),
        Entry {
            secret: true,
            ..entry("The truth", "Mara drowned.")
        },
        entry("Rumours", "They say <%= getvar('trust') %> things."),
    ];
    card
}

#[test]
fn a_character_card_has_nothing_to_split() {
    let mut card = Lorecard::new("Plain");
    card.personality = "Kind.".into();
    card.worldbook = vec![entry("Home", "A farm.")];
    assert_eq!(split(&card), None);
}

#[test]
fn the_character_half_is_the_engines_and_the_world_half_keeps_the_rest_whole() {
    let card = heavy();
    let Halves { character, world } = split(&card).unwrap();
    assert_eq!(character.personality, "Wry. Warm.");
    assert_eq!(character.opening, card.opening);
    assert_eq!(character.scenario, card.scenario);
    assert!(character.hooks.is_empty() && character.variables.is_empty());
    let titles = |c: &Lorecard| {
        c.worldbook
            .iter()
            .map(|e| e.title.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(titles(&character), ["The pier", "Rumours"]);
    assert_eq!(character.worldbook[1].content, "They say  things.");

    assert_eq!(world.name, "Mara (world)");
    assert_eq!(
        world.personality, card.personality,
        "the template kept whole"
    );
    assert_eq!(
        world.opening, "",
        "prose with no template stays with the character"
    );
    assert_eq!(world.hooks, card.hooks);
    assert_eq!(world.variables, card.variables);
    assert_eq!(titles(&world), ["[InitVar]", "The truth", "Rumours"]);
    assert_eq!(world.worldbook[2].content, card.worldbook[3].content);

    let kind = |c: &Lorecard| crate::world::payloads(&serde_json::to_value(c).unwrap()).kind();
    assert_eq!((kind(&character), kind(&world)), ("character", "world"));
}

#[test]
fn ejs_is_stripped_as_the_engine_strips_it() {
    for (text, want, n) in [
        ("a <% x %> b", "a  b", 1),
        ("<% a %> b <% c", " b ", 2),
        ("a <% b <% c %> d", "a  d", 1),
        ("<<% a %>%", "", 2),
        ("no template", "no template", 0),
        ("<%", "", 1),
    ] {
        assert_eq!(strip_ejs(text), (want.to_string(), n), "{text:?}");
    }
}
