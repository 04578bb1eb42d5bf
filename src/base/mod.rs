//! The base layer: the small value types every other layer speaks ([`types`]), the board and
//! copy-make ([`board`]), a move as a value ([`chess_move`]), the compile-time status
//! ([`status`]), the attack tables baked by `build.rs` ([`attacks`]), the fixed squares of
//! pawn moves and standard castling ([`geometry`]) and the castling squares a position
//! carries, Chess960's included ([`castling`]). It imports nothing else of the crate.

pub(crate) mod attacks;
pub(crate) mod board;
pub(crate) mod castling;
pub(crate) mod chess_move;
pub(crate) mod geometry;
pub(crate) mod status;
pub(crate) mod types;
