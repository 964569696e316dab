//! Pictures and sounds: the verified [`cache`], served to the page from it ([`scheme`]) and
//! shared with the room from disk ([`share`]).

pub mod cache;
pub mod drops;
pub mod scheme;
pub mod share;

pub use cache::Cache;
