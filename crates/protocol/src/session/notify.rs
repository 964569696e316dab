//! What is worth a desktop notification while Studio is in the background: the Keeper's turn
//! ending, a letter arriving, a title card. Pure: the app decides about focus and the setting.

use super::{Changes, EntryBody, SessionModel};
use crate::frame::UiBlock;

/// One reason to tap the person on the shoulder.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    TurnOver,
    Letter { from: Option<String> },
    TitleCard { title: String },
}

/// The notice one applied frame deserves, if any. `had_turn`: a turn was running before it.
pub fn notice_for(model: &SessionModel, changes: &Changes, had_turn: bool) -> Option<Notice> {
    if let Some(EntryBody::TitleCard(card)) = changes
        .title_card
        .and_then(|key| model.entry_by_key(key))
        .map(|e| &e.body)
    {
        return Some(Notice::TitleCard {
            title: card.title.clone(),
        });
    }
    for key in &changes.appended {
        if let Some(EntryBody::Ui(ui)) = model.entry_by_key(*key).map(|e| &e.body) {
            if let Some(UiBlock::Letter(letter)) =
                ui.blocks.iter().find(|b| matches!(b, UiBlock::Letter(_)))
            {
                return Some(Notice::Letter {
                    from: letter.from.clone(),
                });
            }
        }
    }
    (had_turn && changes.turn && model.turn.is_none()).then_some(Notice::TurnOver)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::ServerFrame;
    use serde_json::json;

    fn apply(m: &mut SessionModel, v: serde_json::Value) -> Option<Notice> {
        let f: ServerFrame = crate::codec::decode_server_value(v).unwrap();
        let had_turn = m.turn.is_some();
        let changes = m.apply(&f, 0.0);
        notice_for(m, &changes, had_turn)
    }

    #[test]
    fn the_turn_ending_a_letter_and_a_title_card_notify() {
        let mut m = SessionModel::default();
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"turn_status","status":"busy","actor":"Keeper"})
            ),
            None
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"narrative","id":"1","speaker":"kp","text":"x","format":"plain"})
            ),
            None
        );
        assert_eq!(
            apply(&mut m, json!({"type":"turn_status","status":"idle"})),
            Some(Notice::TurnOver)
        );
        // Idle again with no turn running: nothing.
        assert_eq!(
            apply(&mut m, json!({"type":"turn_status","status":"idle"})),
            None
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"ui","panel":"inline","blocks":[{"kind":"letter","body":"Come.","from":"M."}]})
            ),
            Some(Notice::Letter {
                from: Some("M.".into())
            })
        );
        assert_eq!(
            apply(
                &mut m,
                json!({"type":"ui","panel":"inline","blocks":[{"kind":"title_card","title":"Act II"}]})
            ),
            Some(Notice::TitleCard {
                title: "Act II".into()
            })
        );
        assert_eq!(
            apply(&mut m, json!({"type":"system","level":"info","text":"hi"})),
            None
        );
    }
}
