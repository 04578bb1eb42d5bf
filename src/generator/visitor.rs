//! The [`Visitor`] trait, and the sink that turns the generator's target sets into one
//! visitor call per move with the child's status as a type: castling rights lost by a king or
//! rook move or by a castling rook captured on its square, and the en-passant flag after a double push,
//! are decided here, per move, at compile time where possible.

use crate::base::attacks;
use crate::base::board::Board;
use crate::base::castling::{CastlingGeometry, right_index};
use crate::base::status::{
    ClearOurBoth, ClearOurK, ClearOurQ, ClearTheirK, ClearTheirQ, Flip, FlipSetEp, StatusFlags,
};
use crate::base::types::BitIter;
use crate::base::types::{Color, Piece, Square};
use crate::generator::entry::{Engine, Operation};
use crate::generator::material::AnyPieces;
use crate::generator::movegen::{All, Filter, Sink, generate_filtered};
use crate::slider::Cpu;
use crate::slider::Lookup;
use core::marker::PhantomData;

/// Receives every legal move of a position, one method per kind of move. Every method does
/// nothing by default: a visitor writes only the kinds of move it cares about.
///
/// Each method is generic over the child's status `C` (so a visitor that descends calls the
/// generator for `C` with no runtime status at all) and is given the parent board and the
/// move's squares. Implementations should be `#[inline(always)]`: the generator is inlined
/// into one function per status, and so is the visitor. The visitor decides whether to
/// descend; the child board is built with [`Board::after_move`] and friends, the mover being
/// `Color::from_white(!C::WHITE)`.
///
/// # Examples
/// Counting captures among the legal moves (a capture lands on an occupied square, or is
/// en passant):
/// ```
/// use constmove::{Board, Piece, Position, Square};
/// use constmove::walk::{StatusFlags, Visitor};
///
/// #[derive(Default)]
/// struct Captures(u32);
///
/// impl Captures {
///     fn hit(&mut self, board: &Board, to: Square) {
///         self.0 += board.occupied().contains(to) as u32;
///     }
/// }
///
/// impl Visitor for Captures {
///     fn king<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
///     fn pawn_capture<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) { self.0 += 1 }
///     fn en_passant<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) { self.0 += 1 }
///     fn promotion<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square, _: Piece) {
///         self.hit(b, to)
///     }
///     fn knight<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
///     fn bishop<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
///     fn rook<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
///     fn queen<C: StatusFlags>(&mut self, b: &Board, _: Square, to: Square) { self.hit(b, to) }
/// }
///
/// // Kiwipete: 8 of its 48 moves capture.
/// let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
///     .parse()
///     .unwrap();
/// let mut captures = Captures::default();
/// pos.visit(&mut captures);
/// assert_eq!(captures.0, 8);
/// ```
pub trait Visitor {
    /// A king step (not castling).
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// Castling by the king on `from`; `to` is the king's destination in standard rules
    /// (`e1g1`) and the castling rook's square in Chess960 rules (`b1a1`), as [`crate::Move`]
    /// writes it. The child board is [`Board::after_castle`]`(mover, from, to)` either way.
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A single pawn push that does not promote.
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A double pawn push; `C::EP` tells whether the opponent can take it en passant.
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A pawn capture that does not promote (en passant excluded).
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// An en-passant capture; `to` is the empty square the pawn lands on.
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A promotion (push or capture) to `piece`; called four times per promoting move.
    #[inline(always)]
    fn promotion<C: StatusFlags>(
        &mut self,
        _board: &Board,
        _from: Square,
        _to: Square,
        _piece: Piece,
    ) {
    }
    /// A knight move.
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A bishop move.
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A rook move.
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
    /// A queen move.
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, _board: &Board, _from: Square, _to: Square) {}
}

/// Runs the generator for status `S` with `visitor` on the moves `filter` lets through, on
/// backend `B` (inlined into the caller, which runs inside `B`'s entry).
#[inline(always)]
pub(crate) fn visit_filtered<S: StatusFlags, B: Lookup, V: Visitor, F: Filter>(
    board: &Board,
    ep: u8,
    filter: F,
    visitor: &mut V,
) {
    let mut sink = VisitSink::new(visitor, board);
    generate_filtered::<S, B, AnyPieces, _, F>(board, ep, filter, &mut sink);
}

/// Hands every legal move of a board (status `S`, en-passant square `ep`) to a visitor,
/// inside an engine's entry.
pub(crate) struct VisitOp<'a, S, V, F = All> {
    /// The board.
    pub(crate) board: &'a Board,
    /// Its en-passant square (read only when `S::EP`).
    pub(crate) ep: u8,
    /// Who receives the moves.
    pub(crate) visitor: &'a mut V,
    /// Which moves are visited.
    pub(crate) filter: F,
    /// The board's status.
    pub(crate) status: PhantomData<S>,
}

impl<S: StatusFlags, V: Visitor, F: Filter> Operation for VisitOp<'_, S, V, F> {
    type Output = ();
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) {
        visit_filtered::<S, B, V, F>(self.board, self.ep, self.filter, self.visitor);
    }
}

/// Turns target sets into visitor calls.
pub(crate) struct VisitSink<'a, V> {
    visitor: &'a mut V,
    /// The start squares of the castling rooks as bitboards, by right (White king side and
    /// queen side, then Black's): the corner constants unless a held right's rook is off its
    /// corner, else read from the board once per node. The statuses that hold no right never
    /// read them, so they are never computed.
    rooks: [u64; 4],
}

impl<'a, V> VisitSink<'a, V> {
    /// The sink for the moves of `board`.
    #[inline(always)]
    pub(crate) fn new(visitor: &'a mut V, board: &Board) -> Self {
        let castling = board.castling();
        let rooks = if castling.is_nonstandard() {
            castling_rooks(castling)
        } else {
            STANDARD_ROOKS
        };
        VisitSink { visitor, rooks }
    }
}

impl<V> VisitSink<'_, V> {
    /// The castling rook square of `white`'s right to the `kingside` (or queen side).
    #[inline(always)]
    fn rook(&self, white: bool, kingside: bool) -> u64 {
        self.rooks[right_index(Color::from_white(white), kingside)]
    }
}

/// The castling rooks' start squares of `castling` as bitboards, by right index.
#[inline(always)]
const fn castling_rooks(castling: &CastlingGeometry) -> [u64; 4] {
    [
        castling.rook_square(Color::White, true).bit(),
        castling.rook_square(Color::White, false).bit(),
        castling.rook_square(Color::Black, true).bit(),
        castling.rook_square(Color::Black, false).bit(),
    ]
}

/// Standard chess's corners, as constants.
const STANDARD_ROOKS: [u64; 4] = castling_rooks(&CastlingGeometry::STANDARD);

/// One piece kind's visitor method, callable with any child status.
trait Kind {
    fn call<C: StatusFlags, V: Visitor>(v: &mut V, board: &Board, from: Square, to: Square);
}

macro_rules! kinds {
    ($($kind:ident => $method:ident),*) => {$(
        struct $kind;
        impl Kind for $kind {
            #[inline(always)]
            fn call<C: StatusFlags, V: Visitor>(v: &mut V, board: &Board, from: Square, to: Square) {
                v.$method::<C>(board, from, to)
            }
        }
    )*};
}
kinds!(KingKind => king, KnightKind => knight, BishopKind => bishop, RookKind => rook,
    QueenKind => queen);

#[inline(always)]
fn sq(index: usize) -> Square {
    Square::from_index(index as u32)
}

/// Visits `from` → each of `targets` with kind `K`, through [`split_at_rooks`] with `M`.
#[inline(always)]
fn split_corners<M: StatusFlags, K: Kind, V: Visitor>(
    sink: &mut VisitSink<'_, V>,
    board: &Board,
    from: usize,
    targets: u64,
) {
    split_at_rooks::<M, _, V>(sink, board, targets, PieceFrom::<K>(from, PhantomData));
}

/// How a move onto one target square reaches the visitor, for any child status `C`.
trait Land {
    fn land<C: StatusFlags, V: Visitor>(&self, v: &mut V, board: &Board, to: usize);
}

/// Moves of a piece of kind `K` from the square it holds.
struct PieceFrom<K>(usize, PhantomData<K>);

impl<K: Kind> Land for PieceFrom<K> {
    #[inline(always)]
    fn land<C: StatusFlags, V: Visitor>(&self, v: &mut V, board: &Board, to: usize) {
        K::call::<C, V>(v, board, sq(self.0), sq(to));
    }
}

/// Promotions (four moves each) of the pawn `delta` behind the target.
struct Promotions(i8);

impl Land for Promotions {
    #[inline(always)]
    fn land<C: StatusFlags, V: Visitor>(&self, v: &mut V, board: &Board, to: usize) {
        promote::<C, V>(v, board, to, self.0);
    }
}

/// Hands each of `targets` to `land` with status `Flip<M>`, where `M` is the status after the
/// mover's own right changes; landing on the square of the opponent's castling rook while it
/// still has that right takes the rook and the right with it.
#[inline(always)]
fn split_at_rooks<M: StatusFlags, L: Land, V: Visitor>(
    sink: &mut VisitSink<'_, V>,
    board: &Board,
    targets: u64,
    land: L,
) {
    let their_k = if M::THEIR_K {
        sink.rook(!M::WHITE, true)
    } else {
        0
    };
    let their_q = if M::THEIR_Q {
        sink.rook(!M::WHITE, false)
    } else {
        0
    };
    let v = &mut *sink.visitor;
    let corners = their_k | their_q;
    for to in BitIter(targets & !corners) {
        land.land::<Flip<M>, V>(v, board, to);
    }
    // One test for both rooks: taking one is rare.
    if targets & corners != 0 {
        if targets & their_k != 0 {
            land.land::<Flip<ClearTheirK<M>>, V>(v, board, their_k.trailing_zeros() as usize);
        }
        if targets & their_q != 0 {
            land.land::<Flip<ClearTheirQ<M>>, V>(v, board, their_q.trailing_zeros() as usize);
        }
    }
}

impl<V: Visitor> Sink for VisitSink<'_, V> {
    #[inline(always)]
    fn king<S: StatusFlags>(&mut self, board: &Board, from: usize, targets: u64) {
        split_corners::<ClearOurBoth<S>, KingKind, V>(self, board, from, targets);
    }

    #[inline(always)]
    fn castle<S: StatusFlags>(&mut self, board: &Board, king_from: usize, target: usize) {
        self.visitor
            .castle::<Flip<ClearOurBoth<S>>>(board, sq(king_from), sq(target));
    }

    #[inline(always)]
    fn piece<S: StatusFlags>(&mut self, board: &Board, piece: Piece, from: usize, targets: u64) {
        match piece {
            Piece::Knight => split_corners::<S, KnightKind, V>(self, board, from, targets),
            Piece::Bishop => split_corners::<S, BishopKind, V>(self, board, from, targets),
            Piece::Queen => split_corners::<S, QueenKind, V>(self, board, from, targets),
            _ => {
                // The castling rook leaving its square takes the right of that side with it.
                let from_bit = 1u64 << from;
                if S::OUR_K && from_bit == self.rook(S::WHITE, true) {
                    split_corners::<ClearOurK<S>, RookKind, V>(self, board, from, targets);
                } else if S::OUR_Q && from_bit == self.rook(S::WHITE, false) {
                    split_corners::<ClearOurQ<S>, RookKind, V>(self, board, from, targets);
                } else {
                    split_corners::<S, RookKind, V>(self, board, from, targets);
                }
            }
        }
    }

    #[inline(always)]
    fn pawn_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        for to in BitIter(targets) {
            let from = (to as isize - delta as isize) as usize;
            self.visitor.pawn_push::<Flip<S>>(board, sq(from), sq(to));
        }
    }

    #[inline(always)]
    fn pawn_double_pushes<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        // The opponent can take en passant only with a pawn beside the arrival square.
        let their_pawns = board.bits(Color::from_white(!S::WHITE), Piece::Pawn);
        let beside = attacks::beside(their_pawns);
        for to in BitIter(targets & beside) {
            let from = (to as isize - delta as isize) as usize;
            self.visitor
                .pawn_double_push::<FlipSetEp<S>>(board, sq(from), sq(to));
        }
        for to in BitIter(targets & !beside) {
            let from = (to as isize - delta as isize) as usize;
            self.visitor
                .pawn_double_push::<Flip<S>>(board, sq(from), sq(to));
        }
    }

    #[inline(always)]
    fn pawn_captures<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        for to in BitIter(targets) {
            let from = (to as isize - delta as isize) as usize;
            self.visitor
                .pawn_capture::<Flip<S>>(board, sq(from), sq(to));
        }
    }

    #[inline(always)]
    fn promotions<S: StatusFlags>(&mut self, board: &Board, targets: u64, delta: i8) {
        split_at_rooks::<S, _, V>(self, board, targets, Promotions(delta));
    }

    #[inline(always)]
    fn en_passant<S: StatusFlags>(&mut self, board: &Board, from: usize, to: usize) {
        self.visitor.en_passant::<Flip<S>>(board, sq(from), sq(to));
    }
}

#[inline(always)]
fn promote<C: StatusFlags, V: Visitor>(v: &mut V, board: &Board, to: usize, delta: i8) {
    let from = sq((to as isize - delta as isize) as usize);
    for piece in Piece::PROMOTIONS {
        v.promotion::<C>(board, from, sq(to), piece);
    }
}
