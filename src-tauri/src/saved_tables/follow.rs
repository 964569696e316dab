//! Saved tables follow the table in play: a table the person asked to remember is saved once
//! its welcome names the room and role, and marked when it refuses the key for good.

use protocol::ServerFrame;
use transport::session::{ConnectionStatus, SessionEvent};

use super::SavedTables;
use crate::seat::{Follower, Joining, Listener};

impl Follower for SavedTables {
    fn joined(&self, joining: &Joining<'_>) -> Option<Box<dyn Listener>> {
        joining.remember.then(|| {
            Box::new(Remember {
                saved: self.clone(),
                ticket: joining.ticket.to_string(),
                key: Some(joining.dial.key.clone()),
                saved_as: None,
            }) as Box<dyn Listener>
        })
    }
}

/// One session of a table to remember (no `Debug`: it holds the invite key until saved).
struct Remember {
    saved: SavedTables,
    ticket: String,
    key: Option<String>,
    /// The saved table's id, once saved.
    saved_as: Option<String>,
}

impl Listener for Remember {
    fn event(&mut self, event: &SessionEvent, _current: bool) {
        match event {
            SessionEvent::Frame(ServerFrame::Welcome(w), _) => {
                if let Some(key) = self.key.take() {
                    let role = w.you.role.as_str();
                    if let Err(e) = self.saved.remember(&self.ticket, &w.room, role, &key) {
                        tracing::warn!("could not save the table: {e}");
                    }
                    self.saved_as = Some(crate::seat::table_id(&self.ticket, &w.room));
                }
            }
            // A key the table refused for good (revoked, deleted): the saved table says so.
            SessionEvent::Status(ConnectionStatus::Refused { reason }) => {
                if let Some(id) = &self.saved_as {
                    if let Err(e) = self.saved.mark_refused(id, reason) {
                        tracing::warn!("could not mark the saved table: {e}");
                    }
                }
            }
            _ => {}
        }
    }
}
