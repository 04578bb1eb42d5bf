//! # constmove
//!
//! A compile-time specialised legal chess move generator and bulk-counting perft core.
//!
//! - **Status as types.** Side to move, "an en-passant pawn exists" and the four castling
//!   rights are the const parameters of [`Status`]; one runtime `match` enters one of 64
//!   monomorphised enumerators, after which no branch asks whose move it is.
//! - **Legal by masks.** A checkmask, the pin masks `pin_hv`/`pin_diag` and a king-ban test
//!   make every generated move legal ([`checks_and_pins`](crate#modules) in the source).
//! - **Visitor, not list.** Moves go to a [`Visitor`] whose methods are generic over the
//!   child's status; perft's last ply is a popcount.
//! - **Sliders by PEXT or magics**, picked once per call ([`Backend`]): one binary is fast
//!   on every CPU.
//!
//! No global mutable state: every function is re-entrant. The core is `no_std`; the `std`
//! feature (default) adds `std::error::Error` impls and what needs threads or the heap:
//! parallel perft ([`divide_parallel`], in `src/parallel.rs`), the shared transposition
//! table ([`HashTable`], [`perft_hashed`], in `src/hash_table.rs`) and work units for other
//! machines ([`split`], [`WorkUnit`], in `src/workload.rs`).
//!
//! # Examples
//! Perft and divide:
//! ```
//! use constmove::{divide, perft, Backend, Position};
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 5), 4_865_609);
//! let per_move = divide(&start, 2, Backend::Auto).unwrap();
//! assert_eq!(per_move.len(), 20);
//! assert_eq!(per_move.total(), 400);
//! ```
//! Listing and playing moves:
//! ```
//! use constmove::Position;
//! let mut pos = Position::startpos();
//! for uci in ["e2e4", "e7e5", "g1f3"] {
//!     let mv = pos.parse_uci(uci).unwrap();
//!     pos.play(mv).unwrap();
//! }
//! assert_eq!(pos.legal_moves().len(), 29);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]

mod attacks;
mod board;
mod checks_and_pins;
mod dispatch;
mod fen;
#[cfg(feature = "std")]
mod hash_table;
mod movegen;
mod moves;
#[cfg(feature = "std")]
mod parallel;
mod perft;
mod position;
mod slider;
mod status;
mod types;
mod visitor;
#[cfg(feature = "std")]
mod workload;

pub use board::Board;
pub use fen::{FenError, FenField};
#[cfg(feature = "std")]
pub use hash_table::{HashTable, TableAllocError, TableStats, perft_hashed};
pub use moves::{MAX_MOVES, Move, MoveCounts, MoveKind, MoveList, UciMoveError};
#[cfg(feature = "std")]
pub use parallel::{ParallelDivide, ParallelOptions, Progress, count_units, divide_parallel};
pub use perft::{divide, perft, perft_with};
pub use position::{CastlingRights, Position, STARTPOS_FEN};
pub use slider::{Backend, BackendUnavailable, ParseBackendError};
pub use status::{Status, StatusFlags};
pub use types::{Bitboard, Color, ParseSquareError, Piece, Square, Squares};
pub use visitor::Visitor;
#[cfg(feature = "std")]
pub use workload::{WorkUnit, WorkUnitError, split};
