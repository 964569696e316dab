//! The bottom layer: a room's state and the data it is made of. No I/O and no tasks, so
//! everything above (rules, wire, the table) can share it and nothing here can reach up.

pub mod character;
pub mod ids;
pub mod room;
pub mod saved;
