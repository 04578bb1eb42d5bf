//! The base layer: the small value types every other layer speaks ([`types`]), the board and
//! copy-make ([`board`]), a move as a value ([`chess_move`]), the compile-time status
//! ([`status`]), the attack tables baked by `build.rs` ([`attacks`]) and the fixed squares of
//! pawn moves and castling ([`geometry`]). It imports nothing else of the crate.

pub(crate) mod attacks;
pub(crate) mod board;
pub(crate) mod chess_move;
pub(crate) mod geometry;
pub(crate) mod status;
pub(crate) mod types;
