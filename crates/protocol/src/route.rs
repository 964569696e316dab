//! Who reads each server frame. Studio has three readers: the story model
//! ([`crate::session::SessionModel`]), the keeper console ([`crate::keeper::KeeperConsole`]) and
//! the backend's followers of the table (sound, panels, saved tables). This one exhaustive match
//! says which of them a frame is for, so a new frame type does not compile until each reader
//! has been decided; the window's store and the backend's pump dispatch by it.

use crate::frame::ServerFrame;

/// The readers of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Readers {
    /// The play view's story model.
    pub story: bool,
    /// The keeper console (admin replies, and the refusals and broadcasts that answer them).
    pub keeper: bool,
    /// The backend: the audio director, the panel manifest copy, saved tables.
    pub backend: bool,
}

const STORY: Readers = Readers {
    story: true,
    keeper: false,
    backend: false,
};
const KEEPER: Readers = Readers {
    story: false,
    keeper: true,
    backend: false,
};
const NOBODY: Readers = Readers {
    story: false,
    keeper: false,
    backend: false,
};

pub fn readers(frame: &ServerFrame) -> Readers {
    use ServerFrame as F;
    match frame {
        // The room and the role: the story opens, a remembered table is saved.
        F::Welcome(_) => Readers {
            backend: true,
            ..STORY
        },
        // A refusal may answer an admin request as well as the player.
        F::Error(_) => Readers {
            keeper: true,
            ..STORY
        },
        // Another keeper's switch arrives as a broadcast the console shows too.
        F::MediaEnabled(_) => Readers {
            keeper: true,
            ..STORY
        },
        // Sound: the mixer plays it, the status bar names it.
        F::AudioControl(_) | F::AudioState(_) => Readers {
            backend: true,
            ..STORY
        },
        // Which panel pages may be mounted: the backend keeps its own copy.
        F::UiManifest(_) => Readers {
            backend: true,
            ..STORY
        },
        F::MediaAccept(_)
        | F::Media(_)
        | F::AudioLibraryItem(_)
        | F::Narrative(_)
        | F::NarrativeDelta(_)
        | F::Dice(_)
        | F::Ui(_)
        | F::PanelEvent(_)
        | F::State(_)
        | F::PackCards(_)
        | F::Presence(_)
        | F::System(_)
        | F::TurnStatus(_) => STORY,
        F::AdminConfig(_)
        | F::AdminModels(_)
        | F::AdminKeys(_)
        | F::AdminRoomOp(_)
        | F::AdminError(_)
        | F::AdminSkills(_)
        | F::AdminRules(_)
        | F::AdminGenerated(_)
        | F::AdminUpdate(_) => KEEPER,
        // The transport answers pings itself; a type this client does not know is ignored.
        F::Pong(_) | F::Unknown { .. } => NOBODY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(json: &str) -> ServerFrame {
        crate::codec::decode_server(json).expect("decodes")
    }

    #[test]
    fn admin_replies_are_the_consoles_and_pongs_nobodys() {
        let admin = frame(r#"{"type":"admin_error","op":"x","code":"c","message":"m"}"#);
        assert_eq!(readers(&admin), KEEPER);
        assert!(crate::keeper::is_admin_reply(&admin));
        assert_eq!(readers(&frame(r#"{"type":"pong","t":1}"#)), NOBODY);
        assert_eq!(readers(&frame(r#"{"type":"brand_new","x":1}"#)), NOBODY);
        let manifest = readers(&frame(r#"{"type":"ui_manifest","panels":[]}"#));
        assert!(manifest.story && manifest.backend && !manifest.keeper);
    }
}
