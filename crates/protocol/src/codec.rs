//! The tolerant reader and compact writer for newline-delimited JSON frames.
//!
//! Reading is manual (parse to a `Value`, read the tag, dispatch) so an unknown
//! `type` is a value (`Unknown`), never an error, while a known type with a field
//! of the wrong shape is a [`DecodeError`] naming that type. Nothing here panics
//! on input.

mod splitter;

pub use splitter::{LineEvent, LineSplitter, MAX_LINE};

use serde::Serialize;
use serde_json::Value;

use crate::frame::tagged::TagError;
use crate::frame::{ClientFrame, ErrorFrame, MediaGetHeader, MediaReply, ServerFrame};

/// Why one line could not become a frame. The connection survives it: the next
/// line decodes independently.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    #[error("frame is not JSON: {0}")]
    NotJson(String),
    #[error("frame is not a JSON object")]
    NotObject,
    #[error("frame has no string `type`")]
    MissingType,
    #[error("bad `{frame_type}` frame: {message}")]
    BadFrame { frame_type: String, message: String },
    #[error("media channel header has no known `op`")]
    BadMediaHeader,
}

impl DecodeError {
    fn from_tag(error: TagError) -> Self {
        match error {
            TagError::MissingTag => Self::MissingType,
            TagError::Payload { tag, error } => Self::BadFrame {
                frame_type: tag,
                message: error.to_string(),
            },
        }
    }
}

/// One frame as one compact JSON line, newline included.
///
/// # Panics
/// Only if `frame`'s own `Serialize` fails, which the protocol types never do
/// (every map key is a string).
pub fn encode_line<T: Serialize + ?Sized>(frame: &T) -> String {
    let mut line = serde_json::to_string(frame).expect("protocol frames always serialize");
    line.push('\n');
    line
}

/// Decodes one server → client line (a trailing `\r\n` is fine).
pub fn decode_server(line: &str) -> Result<ServerFrame, DecodeError> {
    decode_server_value(parse(line)?)
}

/// Decodes one client → server line (a trailing `\r\n` is fine).
pub fn decode_client(line: &str) -> Result<ClientFrame, DecodeError> {
    decode_client_value(parse(line)?)
}

/// [`decode_server`] for an already-parsed value.
pub fn decode_server_value(value: Value) -> Result<ServerFrame, DecodeError> {
    let Value::Object(obj) = value else {
        return Err(DecodeError::NotObject);
    };
    ServerFrame::from_object(obj).map_err(DecodeError::from_tag)
}

/// [`decode_client`] for an already-parsed value.
pub fn decode_client_value(value: Value) -> Result<ClientFrame, DecodeError> {
    let Value::Object(obj) = value else {
        return Err(DecodeError::NotObject);
    };
    ClientFrame::from_object(obj).map_err(DecodeError::from_tag)
}

/// Decodes the server's first line on a MediaChannel stream: an `{op:"get"}` or
/// `{op:"put_ok"}` header, or a `{type:"error"}` rejection.
pub fn decode_media_reply(line: &str) -> Result<MediaReply, DecodeError> {
    let Value::Object(mut obj) = parse(line)? else {
        return Err(DecodeError::NotObject);
    };
    let bad = |frame_type: &str, error: serde_json::Error| DecodeError::BadFrame {
        frame_type: frame_type.to_owned(),
        message: error.to_string(),
    };
    if obj.get("type").and_then(Value::as_str) == Some("error") {
        obj.remove("type");
        return serde_json::from_value::<ErrorFrame>(Value::Object(obj))
            .map(MediaReply::Error)
            .map_err(|e| bad("error", e));
    }
    match obj.remove("op").as_ref().and_then(Value::as_str) {
        Some("get") => serde_json::from_value::<MediaGetHeader>(Value::Object(obj))
            .map(MediaReply::Get)
            .map_err(|e| bad("get", e)),
        Some("put_ok") => match obj.get("hash").and_then(Value::as_str) {
            Some(hash) => Ok(MediaReply::PutOk {
                hash: hash.to_owned(),
            }),
            None => Err(DecodeError::BadFrame {
                frame_type: "put_ok".into(),
                message: "missing string field `hash`".into(),
            }),
        },
        _ => Err(DecodeError::BadMediaHeader),
    }
}

fn parse(line: &str) -> Result<Value, DecodeError> {
    serde_json::from_str(line.trim()).map_err(|e| DecodeError::NotJson(e.to_string()))
}
