//! One card split into a character card and a world card (拆卡), as the engine's
//! `core/card_split.py` splits it, but into two files an author keeps.
//!
//! The **character half** is what `split_card` gives a player: the prose with every EJS span
//! (`<% … %>`, and a dangling `<%` to the end) taken out, the worldbook without variable
//! declarations and keeper-only entries (the rest with EJS taken out), and no hooks. The
//! engine reads it as a character card. The **world half** carries everything the character
//! half left behind, whole: the hook scripts, typed variables and pregens, the declaration and
//! keeper-only entries, and, unstripped, each prose field and entry that held a template.
//! Nothing of the card is lost between the two.

use serde_json::Value;

use crate::card::{Entry, Lorecard};
use crate::ejs::strip_ejs;

/// The two cards a world-kind card becomes.
#[derive(Debug, Clone, PartialEq)]
pub struct Halves {
    pub character: Lorecard,
    pub world: Lorecard,
}

/// Whether the card has a persona: a personality or dialogue examples (an opening is not
/// one: a world card opens its scene too).
pub fn has_persona(card: &Lorecard) -> bool {
    [&card.personality, &card.dialogue_examples]
        .iter()
        .any(|t| !t.trim().is_empty())
}

/// The card's halves; `None` when it carries no world machinery (it is a character card
/// already, and there is nothing to split off).
pub fn split(card: &Lorecard) -> Option<Halves> {
    let payloads = crate::world::payloads(&serde_json::to_value(card).ok()?);
    if !payloads.any() {
        return None;
    }
    let mut character = card.clone();
    let mut world = Lorecard::new(&format!("{} (world)", card.name.trim()));
    world.tags = card.tags.clone();
    world.hooks = std::mem::take(&mut character.hooks);
    world.variables = std::mem::take(&mut character.variables);
    world.pregens = std::mem::take(&mut character.pregens);
    let prose: [fn(&mut Lorecard) -> &mut String; 6] = [
        |c| &mut c.description,
        |c| &mut c.personality,
        |c| &mut c.scenario,
        |c| &mut c.opening,
        |c| &mut c.dialogue_examples,
        |c| &mut c.author_notes,
    ];
    for field in prose {
        let text = field(&mut character);
        let (clean, blocks) = strip_ejs(text);
        if blocks > 0 {
            *field(&mut world) = std::mem::replace(text, clean);
        }
    }
    character.worldbook.clear();
    for entry in &card.worldbook {
        if declares_variables(entry) || entry.secret {
            world.worldbook.push(entry.clone());
            continue;
        }
        let (clean, blocks) = strip_ejs(&entry.content);
        if blocks > 0 {
            world.worldbook.push(entry.clone());
        }
        character.worldbook.push(Entry {
            content: clean,
            ..entry.clone()
        });
    }
    Some(Halves { character, world })
}

fn declares_variables(entry: &Entry) -> bool {
    match serde_json::to_value(entry) {
        Ok(Value::Object(map)) => crate::world::is_variable_declaration(&map),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
