//! The contract between Studio's backend (`src-tauri`) and its WebView (`ui`), compiled on both
//! sides of the wasm line.
//!
//! The model: the WebView calls a **command** by name with one argument, `args`, and gets its
//! **reply** (or the backend's error sentence); a command that streams (a table's frames, the
//! hosting strip's events) also takes a **channel**, on which the backend pushes messages. Each
//! command here is a struct: its fields are the arguments, its [`Command`] impl names it and
//! types its reply, its [`Streams`] impl (if any) names its channel argument and message type.
//!
//! On the wire: `invoke(NAME, { args: <the struct>, <CHANNEL>: <channel id> })`. The backend's
//! command takes `args: ipc::cmd::X` and answers `ipc::Reply<ipc::cmd::X>`; the UI's bridge
//! sends `&X` and reads `X::Reply`. A command renamed or an argument changed on one side is a
//! compile error on the other; [`cmd::ALL`] against the app's registered handlers is checked
//! by a test in `src-tauri`.
//!
//! Argument structs derive no `Debug`: some carry an invite key or clipboard text.

pub mod cmd;
pub mod hop;
pub mod pump;
pub mod views;

use serde::{de::DeserializeOwned, Serialize};

pub use pump::{
    DropOffer, DropRefused, DroppedFile, PumpBatch, PumpEvent, PumpItem, Status, Upload,
};
pub use views::*;

/// A copied key (or an invite holding one) leaves the clipboard after this many seconds, if the
/// clipboard still holds it; the Reveal card says so.
pub const CLIPBOARD_CLEAR_SECS: u64 = 60;

/// One backend command: its name on the wire and the type of its reply.
pub trait Command: Serialize + DeserializeOwned {
    const NAME: &'static str;
    type Reply: Serialize + DeserializeOwned;
}

/// A command that also takes a channel, under the argument name `CHANNEL`.
pub trait Streams: Command {
    const CHANNEL: &'static str;
    type Message: Serialize + DeserializeOwned;
}

/// The reply of command `C`.
pub type Reply<C> = <C as Command>::Reply;

/// The message type of streaming command `C`'s channel.
pub type Message<C> = <C as Streams>::Message;

/// The invoke payload of `command`: `{ "args": … }`, plus `{ CHANNEL: channel }` when it streams.
pub fn payload<C: Command>(
    command: &C,
    channel: Option<(&str, &str)>,
) -> Result<serde_json::Value, String> {
    let args = serde_json::to_value(command)
        .map_err(|e| format!("the arguments of {} did not encode: {e}", C::NAME))?;
    let mut map = serde_json::Map::new();
    map.insert("args".into(), args);
    if let Some((name, id)) = channel {
        map.insert(name.into(), serde_json::Value::String(id.into()));
    }
    Ok(serde_json::Value::Object(map))
}

#[cfg(test)]
mod tests;
