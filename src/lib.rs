//! # constmove
//!
//! A compile-time specialised legal chess move generator and bulk-counting perft core.
//!
//! - **Status as types.** Side to move, "an en-passant pawn exists" and the four castling
//!   rights are the const parameters of [`Status`]; one runtime `match` enters one of 64
//!   monomorphised enumerators, after which no branch asks whose move it is.
//! - **Legal by masks.** A checkmask, the pin masks `pin_hv`/`pin_diag` and a king-ban test
//!   make every generated move legal (`src/generator/checks_and_pins.rs`).
//! - **Visitor, not list.** Moves go to a [`Visitor`] whose methods are generic over the
//!   child's status; perft's last ply is a popcount.
//! - **Sliders by PEXT or magics**, picked once per call ([`Backend`]): one binary is fast
//!   on every CPU. Each engine is the whole generator compiled again, so a build for one
//!   CPU can keep one: the feature `pext-only` (with `-C target-cpu=x86-64-v3` or `native`)
//!   or `magic-only` compiles about 40% of the code in half the build time (figures in
//!   docs/PERFORMANCE.md, "Code size and build time").
//!
//! No global mutable state (one write-once cache of what CPUID answered): every function is
//! re-entrant. The core is `no_std` (its errors implement `core::error::Error`). The `alloc`
//! feature adds, without `std`, the repetition [`History`] (in `src/position/draws.rs`),
//! [`Position::san`] and `to_string` (`alloc::string::ToString`). The `std` feature
//! (default; includes `alloc`) adds [`PerftOptions`] and the [`deep`] module, what needs
//! threads: parallel perft ([`divide_parallel`], in `src/deep/parallel.rs`), the shared
//! transposition table ([`HashTable`], in `src/deep/hash_table.rs`) and work units for other
//! machines ([`split`], [`WorkUnit`], in `src/deep/workload.rs`).
//!
//! # Guide
//!
//! ## Perft and divide
//! ```
//! use constmove::{divide, perft, Backend, PerftOptions, Position};
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 5), 4_865_609);
//! // Force a backend (`Backend::Pext` is an error on a CPU without BMI2).
//! let magic = start.clone().with_backend(Backend::Magic).unwrap();
//! assert_eq!(perft(&magic, 4), 197_281);
//! // Threads, tables and a stop flag: one options type (std).
//! assert_eq!(PerftOptions::new().threads(2).perft(&start, 4), Ok(197_281));
//! let per_move = divide(&start, 2);
//! assert_eq!(per_move.len(), 20);
//! assert_eq!(per_move.total(), 400);
//! ```
//!
//! ## Listing and playing moves
//! [`Position::legal_moves`] fills a fixed-capacity [`MoveList`] (no allocation);
//! [`Position::for_each_legal`] hands each move to a closure; [`Position::play`] checks the
//! move and leaves the position unchanged when it is illegal. The Zobrist key follows every
//! move.
//! ```
//! use constmove::{Outcome, Position};
//! let mut pos = Position::startpos();
//! for uci in ["e2e4", "e7e5", "g1f3"] {
//!     let mv = pos.parse_uci(uci).unwrap();
//!     pos.play(mv).unwrap();
//! }
//! assert_eq!(pos.legal_moves().len(), 29);
//! assert!(pos.parse_uci("e1g1").is_err()); // castling needs f1 empty
//! assert_eq!(pos.to_string(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
//! assert_eq!(pos.zobrist(), pos.to_string().parse::<Position>().unwrap().zobrist());
//! assert_eq!(pos.outcome(), None);
//! ```
//!
//! ## Chess960
//! FEN castling may be X-FEN or Shredder-FEN, each side on its own back rank (double
//! Chess960). A castling king or rook off standard chess's squares, or a file letter, makes
//! a Chess960 position ([`Position::is_chess960`]; [`Position::into_chess960`] for any
//! position): every count, walk and table plays its castles, written king-takes-rook.
//! [`Position::chess960_startpos`] builds the 960 starting positions by Scharnagl number.
//! ```
//! use constmove::{perft, Position};
//! let pos: Position = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
//!     .parse()
//!     .unwrap();
//! assert_eq!(perft(&pos, 3), 12_189);
//! assert!(pos.parse_uci("g1h1").is_err()); // king side: the rook f1 is in the way
//! // BQNNRKRB: king f1 and rook g1 may swap on the first move.
//! let start = Position::chess960_startpos(3).unwrap();
//! assert_eq!(start.parse_uci("f1g1").unwrap().kind(), constmove::MoveKind::Castle);
//! ```
//!
//! ## Draws
//! [`Position::outcome`] reports what the position alone decides: checkmate, stalemate,
//! insufficient material ([`Position::is_insufficient_material`]) and the fifty-move rule
//! ([`Position::is_fifty_move_draw`]). Repetition needs the earlier positions' keys: keep
//! them in a [`History`].
//! ```
//! use constmove::{History, Outcome, Position};
//! let mut pos = Position::startpos();
//! let mut history = History::new();
//! for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
//!     history.push(pos.zobrist());
//!     pos.play(pos.parse_uci(uci).unwrap()).unwrap();
//! }
//! assert!(history.is_repetition(&pos, 2)); // the start position, again
//! assert_eq!(pos.outcome(), None);
//! let bare: Position = "8/8/4k3/8/8/3K4/8/8 w - - 0 1".parse().unwrap();
//! assert_eq!(bare.outcome(), Some(Outcome::InsufficientMaterial));
//! ```
//!
//! ## A custom visitor
//! A [`Visitor`] gets one call per legal move, with the child's status as a type, and is
//! inlined into the generator. [`Position::visit`] hands it one position's moves;
//! [`Position::visit_tree`] walks the tree and hands it the moves of the last ply, the way
//! perft counts them. This one counts en-passant captures five plies deep in the
//! chessprogramming wiki's position 3 (the wiki lists 1,165):
//! ```
//! use constmove::{Board, Position, Square};
//! use constmove::walk::{StatusFlags, Visitor};
//!
//! struct EnPassant(u64);
//!
//! impl Visitor for EnPassant {
//!     // The other kinds of move keep their default: nothing.
//!     fn en_passant<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) {
//!         self.0 += 1;
//!     }
//! }
//!
//! let pos: Position = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1".parse().unwrap();
//! let mut visitor = EnPassant(0);
//! pos.visit_tree(5, &mut visitor);
//! assert_eq!(visitor.0, 1_165);
//! ```
//!
//! ## Your own walk of the tree
//! [`Position::walk`] runs a caller's recursion on the monomorphised generator: the [`Walk`]
//! gets the root [`Node`] and the engine as a type `G` ([`Generator`]); `G::children` hands
//! each child as a `Node<C>` with its status `C` as a type, so the next level needs no
//! runtime status, and `G::count_moves` counts a node's moves by popcounts. This one counts
//! the checking moves at the third ply of the start position (the wiki lists 12):
//! ```
//! use constmove::{Move, Position};
//! use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
//! use core::marker::PhantomData;
//!
//! struct Checks<G> { plies_left: u32, checks: u64, engine: PhantomData<G> }
//!
//! impl<G: Generator> Children for Checks<G> {
//!     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
//!         if self.plies_left == 1 {
//!             // Off the hot path: a Position for its queries.
//!             self.checks += child.to_position().is_check() as u64;
//!         } else {
//!             self.plies_left -= 1;
//!             G::children(child, self);
//!             self.plies_left += 1;
//!         }
//!     }
//! }
//!
//! struct ChecksAt(u32);
//! impl Walk for ChecksAt {
//!     type Output = u64;
//!     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
//!         let mut checks = Checks::<G> { plies_left: self.0, checks: 0, engine: PhantomData };
//!         G::children(root, &mut checks);
//!         checks.checks
//!     }
//! }
//!
//! assert_eq!(Position::startpos().walk(ChecksAt(3)), 12);
//! ```
//! `examples/visitor_perft.rs` is a complete bulk-counting perft written this way.
//!
//! ## SAN
//! ```
//! use constmove::Position;
//! let pos = Position::startpos();
//! let mv = pos.parse_san("Nf3").unwrap();
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(pos.san(mv), "Nf3");
//! ```
//!
//! ## Hashing
//! [`Position::zobrist`] is the Polyglot key, so opening books agree with it; the
//! [`zobrist`] module has the per-item keys and [`zobrist::placement_delta`] for engines that
//! hash inside their own visitors.
//! ```
//! use constmove::Position;
//! assert_eq!(Position::startpos().zobrist(), 0x463B_9618_1691_FC9C);
//! ```
//!
//! ## Work units (std)
//! [`split`] cuts a deep perft into the distinct positions a few plies down, each a
//! [`WorkUnit`] with its weight; [`count_units_with`] counts them on threads and hands each
//! finished unit over as it completes (to keep, so a killed run can resume); totals are
//! `u128` ([`WorkUnit::weighted`]), since a sum can pass 2⁶⁴. A table's key seed
//! ([`HashTable::key_seed`]) recounts under other keys, to confirm a count.
//! ```
//! use constmove::{PerftOptions, Position};
//! use constmove::deep::{count_units_with, split, HashTable};
//! let units = split(&Position::startpos(), 5, 2);
//! let table = HashTable::new(1 << 20).unwrap().key_seed(2);
//! let options = PerftOptions::new().threads(2).table(&table);
//! let counts = count_units_with(&units, &options, &|_| {}, &|_| {}).unwrap();
//! let total: u128 = units.iter().zip(&counts).map(|(u, n)| u.weighted(n.unwrap())).sum();
//! assert_eq!(total, 4_865_609);
//! ```
//!
//! [`Status`]: walk::Status
//! [`Visitor`]: walk::Visitor
//! [`Walk`]: walk::Walk
//! [`Node`]: walk::Node
//! [`Generator`]: walk::Generator
//! [`divide_parallel`]: deep::divide_parallel
//! [`HashTable`]: deep::HashTable
//! [`HashTable::key_seed`]: deep::HashTable::key_seed
//! [`split`]: deep::split
//! [`WorkUnit`]: deep::WorkUnit
//! [`WorkUnit::weighted`]: deep::WorkUnit::weighted
//! [`count_units_with`]: deep::count_units_with
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod base;
mod count;
#[cfg(feature = "std")]
pub mod deep;
mod generator;
mod position;
mod slider;

pub use base::board::Board;
pub use base::chess_move::{Move, MoveKind};
pub use base::types::{Bitboard, Color, ParseSquareError, Piece, Square, Squares};
pub use count::stats::PerftStats;
#[cfg(feature = "std")]
pub use deep::options::{PerftError, PerftOptions};
pub use position::attacks;
pub use position::castling::CastlingRights;
#[cfg(feature = "alloc")]
pub use position::draws::History;
pub use position::moves::{MAX_MOVES, MoveCounts, MoveList, MoveMask, PlayError};
pub use position::perft::{divide, perft, perft_stats};
pub use position::zobrist;
pub use position::{Outcome, Position};
pub use slider::{Backend, BackendUnavailable, ParseBackendError};

pub mod fen {
    //! FEN: reading a [`Position`](crate::Position) from Forsyth–Edwards Notation (X-FEN and Shredder-FEN castling
    //! included) and writing it back.
    //!
    //! # Examples
    //! ```
    //! use constmove::fen::{FenError, FenField, PositionError, STARTPOS_FEN};
    //! use constmove::{Color, Position};
    //! assert_eq!(STARTPOS_FEN.parse::<Position>().unwrap(), Position::startpos());
    //! // Text that is not FEN: a syntax error naming the field.
    //! let err = "4k3/8/8/8/8/8/8/4K3 x - - 0 1".parse::<Position>().unwrap_err();
    //! assert_eq!(err, FenError::SideToMove);
    //! assert_eq!(FenField::SideToMove.to_string(), "side to move");
    //! // FEN that sets up no legal position: the black king is in check with White to move.
    //! let err = "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1".parse::<Position>().unwrap_err();
    //! assert_eq!(err, FenError::Position(PositionError::OpponentInCheck { color: Color::Black }));
    //! ```

    pub use crate::position::STARTPOS_FEN;
    pub use crate::position::fen::{FenError, FenField, PositionError, ShredderFen};
}

pub mod san {
    //! SAN: reading and writing moves in Standard Algebraic Notation
    //! ([`Position::parse_san`](crate::Position::parse_san), [`Position::san`](crate::Position::san)).

    pub use crate::position::san::{SanCandidates, SanError, SanText};
}

pub mod uci {
    //! UCI: moves in the long algebraic notation of the Universal Chess Interface (`e2e4`,
    //! `e7e8q`; `Move`'s `Display`), read by [`Position::parse_uci`](crate::Position::parse_uci).

    pub use crate::position::moves::UciMoveError;
}

pub mod walk {
    //! Walking the move tree with the generator's own speed: a [`Visitor`] receives one
    //! position's moves ([`Position::visit`](crate::Position::visit)), a [`Walk`] runs a whole
    //! recursion ([`Position::walk`](crate::Position::walk)) with each node's status as a type
    //! ([`Status`], [`StatusFlags`]).

    pub use crate::base::status::{Status, StatusFlags};
    pub use crate::generator::visitor::Visitor;
    pub use crate::position::walk::{Children, Generator, Node, Walk};
}

/// README's Rust examples, run as doctests so the front page stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
