//! The generator layer: legal moves of a board whose status is a type. [`entry`] compiles
//! an operation into one backend's entry; [`dispatch`] is the one runtime `match` over the 64
//! statuses; [`checks_and_pins`] makes every move legal by masks; [`movegen`] enumerates the
//! legal target sets into a sink; [`material`] narrows the kinds of piece a board holds;
//! [`visitor`] turns target sets into single moves with their child statuses, [`list`]
//! writes them into an array, and [`children`] makes the child boards of a walk.

pub(crate) mod checks_and_pins;
pub(crate) mod children;
pub(crate) mod dispatch;
pub(crate) mod entry;
pub(crate) mod list;
pub(crate) mod material;
pub(crate) mod movegen;
pub(crate) mod visitor;
