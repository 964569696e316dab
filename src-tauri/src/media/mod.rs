//! Pictures and sounds: served to the page from the verified cache ([`scheme`]) and shared
//! with the room from disk ([`share`]).

pub mod scheme;
pub mod share;
