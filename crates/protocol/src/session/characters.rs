//! Getting a character without knowing the table's dialect: `state.systems` names each rule
//! system's character word (`make_char`), and `pack_cards` lists the installed packs' card
//! files with the verb each takes. These build the exact command lines.

use crate::frame::{CardKind, PackCard, Role, SystemInfo};

/// The systems a character can be made in (those that declare a word).
pub fn creatable(systems: &[SystemInfo]) -> Vec<(String, String)> {
    systems
        .iter()
        .filter_map(|s| {
            let word = s.make_char.as_deref()?.trim();
            (!word.is_empty() && !word.contains(char::is_whitespace))
                .then(|| (s.id.clone(), word.to_string()))
        })
        .collect()
}

/// `.<word> <name>`: the line that makes a character (`.coc Alice`). The name is one line.
pub fn make_char_command(word: &str, name: &str) -> Option<String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let word = word.trim();
    (!word.is_empty() && !name.is_empty()).then(|| format!(".{word} {name}"))
}

/// The import line for a card, for this viewer: a character card as `pc`; a world card is
/// module machinery, a keeper's `world` import, and offered to keepers only.
pub fn import_command(card: &PackCard, role: &Role) -> Option<String> {
    match card.kind_or_default() {
        CardKind::World if *role == Role::Keeper => Some(format!(".import {} world", card.r#ref)),
        CardKind::World => None,
        _ => Some(format!(".import {} pc", card.r#ref)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn card(kind: Option<&str>) -> PackCard {
        serde_json::from_value(
            json!({"ref": "p/cards/x.png", "pack": "p", "name": "x", "kind": kind}),
        )
        .unwrap()
    }

    #[test]
    fn the_dialect_words_become_the_exact_lines() {
        let systems: Vec<SystemInfo> = serde_json::from_value(
            json!([{"id": "coc7", "make_char": "coc"}, {"id": "dnd5e", "make_char": "dnd"}, {"id": "wod"}]),
        )
        .unwrap();
        assert_eq!(
            creatable(&systems),
            [
                ("coc7".to_string(), "coc".to_string()),
                ("dnd5e".into(), "dnd".into())
            ]
        );
        assert_eq!(
            make_char_command("coc", "  Alice\n Liddell "),
            Some(".coc Alice Liddell".into())
        );
        assert_eq!(make_char_command("coc", "  "), None);
    }

    #[test]
    fn the_card_kind_decides_the_verb_and_who_sees_it() {
        assert_eq!(
            import_command(&card(Some("character")), &Role::Player),
            Some(".import p/cards/x.png pc".into())
        );
        // A pre-2.3 server sends no kind: a character.
        assert_eq!(
            import_command(&card(None), &Role::Player),
            Some(".import p/cards/x.png pc".into())
        );
        assert_eq!(import_command(&card(Some("world")), &Role::Player), None);
        assert_eq!(
            import_command(&card(Some("world")), &Role::Keeper),
            Some(".import p/cards/x.png world".into())
        );
    }
}
