//! The wire layer: the Local-only iroh endpoint, each connection's control stream and
//! session, and the media streams. It turns lines into calls on the rules below it.

pub mod carrier;
pub mod lines;
pub mod media;
pub mod session;
