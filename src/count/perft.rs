//! Perft on a board: counting the leaves of the legal move tree below a board whose status
//! is a type. The last ply is bulk-counted (the popcounts of the target sets; no child board
//! is built); depth-2 nodes are batched by [`crate::count::depth2`]; deeper nodes are
//! [`Interior`] nodes, which make each child and hand it to a [`ChildAction`].
//! A node runs as its status without the castling rights no move below it can use (see
//! `without_unreachable_rights` and `without_dead_rights`): that code does no castling work.
//!
//! Interior nodes are few (about one per thirty depth-2 nodes) and every walk has them:
//! perft, statistics, the hash table. So one interior entry per status serves all walks, and
//! what each does with a child (recurse, probe a table, add statistics) is a `dyn` call with
//! the child's status as a runtime index: one entry instead of one per walk and status.
//! Nodes with an en-passant capture run as the status without en passant, the capture made
//! apart, and a side holding one castling right as holding both, told at run time which
//! (`run_interior`, `depth2_node`): the nodes' code is compiled for 8 statuses of 64.

use crate::base::board::Board;
use crate::base::castling::right_index;
use crate::base::status::{EP_BIT, FIRST_RIGHT, Flip, StatusFlags};
use crate::base::types::{Color, Piece, Square};
use crate::count::depth2::{Depth2Node, EnPassantChildren, NodeRights};
use crate::count::leaf::count_entry;
use crate::generator::dispatch::{StatusOp, dispatch};
use crate::generator::entry::{Engine, Operation};
use crate::generator::movegen::{Castles, en_passant_captures};
use crate::generator::visitor::{Visitor, visit_filtered};
use crate::slider::Cpu;
use core::marker::PhantomData;

/// An interior node: a board (status `S`, en-passant square `ep`) whose children are made
/// and handed to `action`, run inside an engine's entry.
struct Interior<'a, S> {
    board: &'a Board,
    /// Always 0: `run_interior` takes en passant apart. Kept, since dropping it moved the
    /// code and cost position 5 5% of its wall time (docs/PERFORMANCE.md).
    ep: u8,
    action: &'a mut dyn ChildAction,
    rights: RuntimeRights,
    status: PhantomData<S>,
}

/// The castling rights of a node compiled for a status that holds both of a side's rights
/// where the node holds one.
#[derive(Clone, Copy)]
struct RuntimeRights {
    /// The side to move's king-side and queen-side castles.
    castles: [bool; 2],
    /// The status-index bits of the rights the status holds and the node does not: cleared
    /// from every child's status.
    absent: u8,
}

impl RuntimeRights {
    /// A node with exactly its status's rights.
    const EXACT: RuntimeRights = RuntimeRights {
        castles: [true, true],
        absent: 0,
    };
}

impl<S: StatusFlags> Operation for Interior<'_, S> {
    type Output = ();
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) {
        let mut hand_on = HandOn {
            action: self.action,
            absent: self.rights.absent,
        };
        let castles = Castles(self.rights.castles);
        visit_filtered::<S, B, _, _>(self.board, self.ep, castles, &mut hand_on);
    }
}

/// Runs the interior node of `board` (status `S`, en-passant square `ep`) with `action`. A
/// status with en passant runs as the one without, its captures handed on apart, and a
/// side holding one castling right runs as holding both, told at run time which it has:
/// the interior node's code is compiled for 8 statuses of 64.
#[inline(always)]
pub(crate) fn run_interior<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    action: &mut dyn ChildAction,
) {
    if S::EP || S::OUR_K != S::OUR_Q || S::THEIR_K != S::THEIR_Q {
        interior_shared::<S, B>(cpu, board, ep, action);
    } else {
        let node = Interior::<S> {
            board,
            ep,
            action,
            rights: RuntimeRights::EXACT,
            status: PhantomData,
        };
        B::enter(cpu, node);
    }
}

/// [`run_interior`] of a status run as another. Out of line, so that the jumps to the
/// common nodes keep their registers.
#[inline(never)]
fn interior_shared<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    action: &mut dyn ChildAction,
) {
    let index = shared_status::<S>();
    let rights = RuntimeRights {
        castles: [S::OUR_K, S::OUR_Q],
        absent: index & !S::INDEX,
    };
    let node = SharedInterior::<B> {
        board,
        action: &mut *action,
        rights,
        cpu,
    };
    // A constant index: the jump folds into a call.
    dispatch(index, node);
    if S::EP {
        // Last, as the generator hands them on.
        let captures = EnPassantHandOn::<S> {
            board,
            ep,
            action,
            status: PhantomData,
        };
        B::enter(cpu, captures);
    }
}

/// The status a node of status `S` runs as: without en passant, and with both of a side's
/// castling rights where `S` holds one.
#[inline(always)]
fn shared_status<S: StatusFlags>() -> u8 {
    let mover = Color::from_white(S::WHITE);
    // Both of a side's rights where it has one.
    let both = |color, one: bool| {
        (u8::from(one) * 0b11) << (right_index(color, true) as u32 + FIRST_RIGHT)
    };
    S::INDEX & !EP_BIT | both(mover, S::OUR_K != S::OUR_Q) | both(!mover, S::THEIR_K != S::THEIR_Q)
}

/// The interior node of a board run as a shared status (see [`run_interior`]).
struct SharedInterior<'a, B> {
    board: &'a Board,
    action: &'a mut dyn ChildAction,
    rights: RuntimeRights,
    cpu: Cpu<B>,
}

impl<B: Engine> StatusOp for SharedInterior<'_, B> {
    type Output = ();
    #[inline(always)]
    fn run<S: StatusFlags>(self) {
        // Asked only for shared statuses: the test, constant for each `S`, keeps the others'
        // nodes from being compiled.
        if !S::EP && S::OUR_K == S::OUR_Q && S::THEIR_K == S::THEIR_Q {
            let node = Interior::<S> {
                board: self.board,
                ep: 0,
                action: self.action,
                rights: self.rights,
                status: PhantomData,
            };
            B::enter(self.cpu, node);
        } else {
            unreachable!(
                "an interior node runs as a status with both or neither of a side's rights and no en passant"
            )
        }
    }
}

/// Hands the en-passant captures of an interior node (status `S`, which has `EP`; en-passant
/// square `ep`) to `action`.
struct EnPassantHandOn<'a, S> {
    board: &'a Board,
    ep: u8,
    action: &'a mut dyn ChildAction,
    status: PhantomData<S>,
}

impl<S: StatusFlags> Operation for EnPassantHandOn<'_, S> {
    type Output = ();
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) {
        let mut hand_on = HandOn {
            action: self.action,
            absent: 0,
        };
        en_passant_captures::<S, B>(self.board, self.ep, |from, to| {
            hand_on.en_passant::<Flip<S>>(self.board, from, to)
        });
    }
}

/// What a walk does with each child of an interior node.
pub(crate) trait ChildAction {
    /// `child` is `parent` after `mv`; `status` is its status index (see `dispatch`) and `ep`
    /// its en-passant square.
    fn child(&mut self, parent: &Board, child: &Board, mv: ChildMove, status: u8, ep: u8);
}

/// The move that made a child, as a walk may need it (the hash table updates its key by it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChildMove {
    /// The piece that moved (the king when castling, the pawn when promoting).
    pub(crate) piece: Piece,
    /// Where it came from.
    pub(crate) from: Square,
    /// Where it went (the king's square when castling).
    pub(crate) to: Square,
    /// What else the move did.
    pub(crate) kind: ChildKind,
}

/// What a [`ChildMove`] does beyond moving a piece and taking what stands on `to`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ChildKind {
    /// Nothing more (double pushes included).
    Plain,
    /// Castling: the rook moves too.
    Castle,
    /// En passant: the pawn beside is taken.
    EnPassant,
    /// The pawn becomes this piece.
    Promotion(Piece),
}

impl ChildMove {
    /// The board after this move on `parent`, made by the side that is not to move in
    /// `status` (the child's).
    #[inline(always)]
    fn apply(self, parent: &Board, status: u8) -> Board {
        // Bit 0 of the status is "white to move": the mover is the other side.
        let mover = Color::from_white(status & 1 == 0);
        // One copy of the parent, changed in place.
        let mut child = *parent;
        match self.kind {
            ChildKind::Plain => child.apply_move(mover, self.piece, self.from, self.to),
            ChildKind::Castle => {
                child.apply_castle(mover, self.from, self.to);
            }
            ChildKind::EnPassant => child.apply_en_passant(mover, self.from, self.to),
            ChildKind::Promotion(piece) => child.apply_promotion(mover, self.from, self.to, piece),
        }
        child
    }
}

/// Makes each child of an interior node and hands it to a [`ChildAction`], with its move
/// and its status as a runtime index.
struct HandOn<'a> {
    action: &'a mut dyn ChildAction,
    /// The status bits cleared from every child's (see [`RuntimeRights`]).
    absent: u8,
}

impl HandOn<'_> {
    #[inline(always)]
    fn hand<C: StatusFlags>(&mut self, parent: &Board, mv: ChildMove, ep: u8) {
        // Made here, in the entry: a board copy with the engine's vector moves. The mover
        // is read from the constant index, so each move's code is built for one side.
        let child = mv.apply(parent, C::INDEX);
        self.action
            .child(parent, &child, mv, C::INDEX & !self.absent, ep);
    }

    #[inline(always)]
    fn plain<C: StatusFlags>(&mut self, parent: &Board, piece: Piece, from: Square, to: Square) {
        let mv = ChildMove {
            piece,
            from,
            to,
            kind: ChildKind::Plain,
        };
        self.hand::<C>(parent, mv, 0);
    }
}

impl Visitor for HandOn<'_> {
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::King, from, to);
    }
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let mv = ChildMove {
            piece: Piece::King,
            from,
            to,
            kind: ChildKind::Castle,
        };
        self.hand::<C>(board, mv, 0);
    }
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let ep = ((from.index() + to.index()) / 2) as u8;
        let mv = ChildMove {
            piece: Piece::Pawn,
            from,
            to,
            kind: ChildKind::Plain,
        };
        self.hand::<C>(board, mv, ep);
    }
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let mv = ChildMove {
            piece: Piece::Pawn,
            from,
            to,
            kind: ChildKind::EnPassant,
        };
        self.hand::<C>(board, mv, 0);
    }
    #[inline(always)]
    fn promotion<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square, piece: Piece) {
        let mv = ChildMove {
            piece: Piece::Pawn,
            from,
            to,
            kind: ChildKind::Promotion(piece),
        };
        self.hand::<C>(board, mv, 0);
    }
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Knight, from, to);
    }
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Bishop, from, to);
    }
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Rook, from, to);
    }
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.plain::<C>(board, Piece::Queen, from, to);
    }
}

/// Perft of `board` (status `S`, en-passant square `ep`) to any depth, through the entries
/// of engine `B`.
#[inline(always)]
pub(crate) fn perft<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    depth: u32,
) -> u64 {
    match depth {
        0 => 1,
        1 => count_entry::<S, B>(cpu, board, ep),
        2 if B::BATCH => {
            // Below a depth-2 node no right whose path is shut can be used: the node runs as
            // the status without it, whose code does no castling work.
            if S::WK || S::WQ || S::BK || S::BQ {
                let live = without_dead_rights(board, S::INDEX);
                if live != S::INDEX {
                    return node_at::<B>(cpu, board, live, ep, 2);
                }
            }
            depth2_node::<S, B>(cpu, board, ep)
        }
        _ => {
            if S::WK || S::WQ || S::BK || S::BQ {
                return interior_with_rights::<S, B>(cpu, board, ep, depth);
            }
            interior_perft::<S, B>(cpu, board, ep, depth)
        }
    }
}

/// The depth-2 node of `board` (status `S`, en-passant square `ep`), run as the status that
/// holds both of a side's rights where `S` holds one, the ones it has passed at run time,
/// and without en passant, its captures counted apart. Each status's node is about 22 KB of
/// code; statuses that differ only there share one, which takes most of the binary's code
/// away and most of the instruction-cache misses of a tree whose rights are lost one by one
/// (docs/PERFORMANCE.md).
#[inline(always)]
fn depth2_node<S: StatusFlags, B: Engine>(cpu: Cpu<B>, board: &Board, ep: u8) -> u64 {
    let rights = NodeRights::of::<S>();
    if S::EP {
        return depth2_with_en_passant::<S, B>(cpu, board, ep);
    }
    if S::OUR_K != S::OUR_Q || S::THEIR_K != S::THEIR_Q {
        return depth2_shared::<S, B>(cpu, board, rights);
    }
    B::enter(cpu, Depth2Node::<S>::new(board, ep, rights))
}

/// [`depth2_node`] of a status with en passant: the captures counted apart, the rest as the
/// status without. Out of line, so that the jumps to the common nodes keep their registers.
#[inline(never)]
fn depth2_with_en_passant<S: StatusFlags, B: Engine>(cpu: Cpu<B>, board: &Board, ep: u8) -> u64 {
    let captures = EnPassantChildren::<S> {
        board,
        ep,
        status: PhantomData,
    };
    let rights = NodeRights::of::<S>();
    B::enter(cpu, captures) + depth2_shared::<S, B>(cpu, board, rights)
}

/// [`depth2_node`] as the status without en passant and with both of a side's rights where
/// `S` holds one (`rights` the ones it has).
#[inline(always)]
fn depth2_shared<S: StatusFlags, B: Engine>(cpu: Cpu<B>, board: &Board, rights: NodeRights) -> u64 {
    let index = shared_status::<S>();
    let node = Depth2With::<B> { board, rights, cpu };
    // A constant index: the jump folds into a call.
    dispatch(index, node)
}

/// A depth-2 node whose status holds both or neither of each side's rights and no en
/// passant, `rights` the ones it has.
struct Depth2With<'a, B> {
    board: &'a Board,
    rights: NodeRights,
    cpu: Cpu<B>,
}

impl<B: Engine> StatusOp for Depth2With<'_, B> {
    type Output = u64;
    #[inline(always)]
    fn run<S: StatusFlags>(self) -> u64 {
        // Asked only for such statuses: the test, constant for each `S`, keeps the other
        // statuses' nodes from being compiled.
        if !S::EP && S::OUR_K == S::OUR_Q && S::THEIR_K == S::THEIR_Q {
            B::enter(self.cpu, Depth2Node::<S>::new(self.board, 0, self.rights))
        } else {
            unreachable!(
                "a depth-2 node's status has no en passant and both or neither of a side's rights"
            )
        }
    }
}

/// [`interior_perft`] of a node with castling rights: a right its side cannot use within
/// `depth` plies is dropped for the whole subtree, so every node below runs code that does
/// no castling work for it. Out of line: inlined, its registers made every node's jump in
/// `PerftChildren::child` dearer (the endings +0.6% per leaf).
#[inline(never)]
fn interior_with_rights<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    depth: u32,
) -> u64 {
    let live = without_unreachable_rights(board, S::INDEX, depth);
    if live != S::INDEX {
        return node_at::<B>(cpu, board, live, ep, depth);
    }
    interior_perft::<S, B>(cpu, board, ep, depth)
}

/// Perft of the interior node `board` (status `S`, en-passant square `ep`) to `depth` > 2.
#[inline(always)]
fn interior_perft<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    depth: u32,
) -> u64 {
    let mut children = PerftChildren::<B> {
        child_depth: depth - 1,
        nodes: 0,
        cpu,
    };
    run_interior::<S, B>(cpu, board, ep, &mut children);
    children.nodes
}

/// `status` (an index, see `dispatch`) without the castling rights whose side cannot castle
/// within `depth` plies of `board`. Each piece of its own on the path leaves by a move of its
/// own (one move moves one piece) or is taken by the other side, whose capturer then stands
/// there: taking `j` of them costs the other side at least `j + 1` moves (a capturer may take
/// the next one, but the last must leave). So with `m` moves of its own, the castle one of
/// them, and `before` moves of the other side before it, a side with `o` pieces on its path
/// cannot castle when `o >= m` and `o - (m - 1) + 1 > before`.
#[inline(always)]
fn without_unreachable_rights(board: &Board, status: u8, depth: u32) -> u8 {
    let dead = ruled_out_rights(board, status, |color, to_move, path| {
        // This side's moves within `depth` plies, and the other side's before its last one.
        let (moves, before) = if to_move {
            (depth.div_ceil(2), depth.div_ceil(2) - 1)
        } else {
            (depth / 2, depth / 2)
        };
        let blockers = (path & board.color_bits(color)).count_ones();
        blockers >= moves && blockers + 2 > moves + before
    });
    status & !(dead << FIRST_RIGHT)
}

/// `status` (an index, see `dispatch`) without the castling rights no move of a depth-2
/// node of `board` or of its children can use: the side to move castles only there, so only
/// with its path empty; the other side castles only in a child, so never while a piece of
/// its own stands on its path (a move of the side to move can take it, but its capturer
/// then stands there).
#[inline(always)]
fn without_dead_rights(board: &Board, status: u8) -> u8 {
    let white_moves = status & 1 != 0;
    let dead = ruled_out_rights(board, status, |color, to_move, path| {
        let blockers = if to_move {
            board.occupied_bits()
        } else {
            board.color_bits(color)
        };
        path & blockers != 0
    });
    // Only when the replier keeps no right: a node that loses some of them runs code of a
    // status of its own, and mixing statuses fills the instruction cache.
    let replier = Color::from_white(!white_moves);
    let replier_rights = 0b11 << right_index(replier, true);
    if (status >> FIRST_RIGHT) & replier_rights & !dead != 0 {
        return status;
    }
    status & !(dead << FIRST_RIGHT)
}

/// The castling rights (bits by [`right_index`]) that `dead(color, to_move, path)` rules out
/// on `board`: `path` holds the squares the castle needs empty, `to_move` says whether
/// `color` moves first in `status`. Rights `status` does not hold may be among them.
#[inline(always)]
fn ruled_out_rights(board: &Board, status: u8, dead: impl Fn(Color, bool, u64) -> bool) -> u8 {
    let white_moves = status & 1 != 0;
    let castling = board.castling();
    let mut rights = 0;
    for color in [Color::White, Color::Black] {
        let to_move = (color == Color::White) == white_moves;
        for kingside in [true, false] {
            let ruled_out = dead(color, to_move, castling.block(color, kingside));
            rights |= u8::from(ruled_out) << right_index(color, kingside);
        }
    }
    rights
}

/// The node of `board` whose status index is `status`, at `depth` >= 2, without a second
/// look at its rights: one jump for every status that drops a right (see
/// [`without_dead_rights`] and [`without_unreachable_rights`]).
#[cold]
#[inline(never)]
fn node_at<B: Engine>(cpu: Cpu<B>, board: &Board, status: u8, ep: u8, depth: u32) -> u64 {
    let at = NodeAt::<B> {
        board,
        ep,
        depth,
        cpu,
    };
    dispatch(status, at)
}

/// [`node_at`] once the status is known.
struct NodeAt<'a, B> {
    board: &'a Board,
    ep: u8,
    depth: u32,
    cpu: Cpu<B>,
}

impl<B: Engine> StatusOp for NodeAt<'_, B> {
    type Output = u64;
    #[inline(always)]
    fn run<S: StatusFlags>(self) -> u64 {
        // Engines without the batch run depth-2 nodes as interior ones.
        if B::BATCH && self.depth == 2 {
            depth2_node::<S, B>(self.cpu, self.board, self.ep)
        } else {
            interior_perft::<S, B>(self.cpu, self.board, self.ep, self.depth)
        }
    }
}

/// [`perft`] of `board` whose status index is `status` (see `dispatch`).
#[inline(always)]
pub(crate) fn perft_at<B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    status: u8,
    ep: u8,
    depth: u32,
) -> u64 {
    let at = PerftAt::<B> {
        board,
        ep,
        depth,
        cpu,
    };
    dispatch(status, at)
}

/// Runs the interior node of `board` (status index `status`, en-passant square `ep`) with
/// `action` in engine B's entry for that status (for the deep layer's walks).
#[cfg(feature = "std")]
pub(crate) fn interior_at<B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    status: u8,
    ep: u8,
    action: &mut dyn ChildAction,
) {
    let at = InteriorAt::<B> {
        board,
        ep,
        action,
        cpu,
    };
    dispatch(status, at);
}

/// [`interior_at`] once the status is known.
#[cfg(feature = "std")]
struct InteriorAt<'a, B> {
    board: &'a Board,
    ep: u8,
    action: &'a mut dyn ChildAction,
    cpu: Cpu<B>,
}

#[cfg(feature = "std")]
impl<B: Engine> StatusOp for InteriorAt<'_, B> {
    type Output = ();
    #[inline(always)]
    fn run<S: StatusFlags>(self) {
        run_interior::<S, B>(self.cpu, self.board, self.ep, self.action)
    }
}

/// [`perft_at`] once the status is known.
struct PerftAt<'a, B> {
    board: &'a Board,
    ep: u8,
    depth: u32,
    cpu: Cpu<B>,
}

impl<B: Engine> StatusOp for PerftAt<'_, B> {
    type Output = u64;
    #[inline(always)]
    fn run<S: StatusFlags>(self) -> u64 {
        perft::<S, B>(self.cpu, self.board, self.ep, self.depth)
    }
}

/// Counts each child of an interior node to `child_depth`.
struct PerftChildren<B> {
    child_depth: u32,
    nodes: u64,
    cpu: Cpu<B>,
}

impl<B: Engine> ChildAction for PerftChildren<B> {
    fn child(&mut self, _: &Board, child: &Board, _: ChildMove, status: u8, ep: u8) {
        self.nodes += perft_at::<B>(self.cpu, child, status, ep, self.child_depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The status a depth-2 node of `fen` runs with, as the FEN's castling field.
    fn live_rights(fen: &str) -> String {
        let position: Position = fen.parse().unwrap();
        rights_of(without_dead_rights(
            position.board(),
            position.status_index(),
        ))
    }

    /// The castling rights of a status index, as a FEN's castling field.
    fn rights_of(status: u8) -> String {
        let rights = ["K", "Q", "k", "q"].iter().enumerate();
        rights
            .filter(|(index, _)| status >> (2 + index) & 1 != 0)
            .map(|(_, right)| *right)
            .collect()
    }

    /// The status a node of `fen` at `depth` > 2 runs with, as the FEN's castling field.
    fn reachable_rights(fen: &str, depth: u32) -> String {
        let position: Position = fen.parse().unwrap();
        let status = position.status_index();
        rights_of(without_unreachable_rights(position.board(), status, depth))
    }

    #[test]
    fn rights_out_of_reach_are_dropped_for_the_subtree() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // In 3 plies white moves twice: two pieces to clear and the castle need three, and
        // black's one capture on the path would leave its capturer there.
        assert_eq!(reachable_rights(start, 3), "");
        // In 4, black's king side (f8, g8) may be cleared by one move of its own and a white
        // capture on g8 whose capturer leaves, then castled; its queen side may not.
        assert_eq!(reachable_rights(start, 4), "k");
        assert_eq!(reachable_rights(start, 5), "KQk");
        assert_eq!(reachable_rights(start, 7), "KQkq");
        // Position 5: b1, c1 and d1 hold three white pieces.
        let position5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
        assert_eq!(reachable_rights(position5, 4), "K");
        assert_eq!(reachable_rights(position5, 5), "KQ");
    }

    #[test]
    fn rights_in_reach_are_kept() {
        // Open paths: any right may be used at the last ply.
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(reachable_rights(kiwipete, 3), "KQkq");
        // Only the other side's pieces on the paths: they may leave on their own.
        assert_eq!(
            reachable_rights("rN2k1Nr/8/8/8/8/8/8/Rn2K1nR w KQkq - 0 1", 3),
            "KQkq"
        );
        // Black's queen side (c8, d8) in 4 plies: Nxd8, a knight move from c8, the white
        // knight leaving d8, and the castle (fischer.epd line 729 counts it).
        let chess960 = "rknbbq1r/p1pppppp/1p2N3/8/3n4/2P5/PP1PPPPP/RK1BBQNR w HAha - 4 9";
        assert_eq!(reachable_rights(chess960, 4), "Qq");
    }

    #[test]
    fn rights_behind_pieces_are_dropped_at_depth_2_nodes() {
        // Every path shut: the mover's by any piece, the replier's by its own pieces.
        assert_eq!(
            live_rights("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ""
        );
        // The replier's paths shut by its own pieces; the mover's open paths keep theirs.
        assert_eq!(live_rights("r3k2r/8/8/8/8/8/8/RN2KB1R b KQkq - 0 1"), "kq");
        // The mover's king-side path holds a piece of the replier: that right is dead too.
        assert_eq!(live_rights("r3k1Nr/8/8/8/8/8/8/RN2KB1R b KQkq - 0 1"), "q");
    }

    #[test]
    fn rights_the_replier_may_still_use_are_kept() {
        // Open paths everywhere.
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(live_rights(kiwipete), "KQkq");
        // The replier's king-side path holds only a piece of the mover, which may leave it.
        assert_eq!(live_rights("r3k2r/8/8/8/8/8/8/R3K1nR b KQkq - 0 1"), "KQkq");
        // While the replier keeps a right nothing is dropped, not even the mover's dead ones.
        assert_eq!(
            live_rights("rn2k1nr/8/8/8/8/8/8/RN2K1nR b KQkq - 0 1"),
            "KQkq"
        );
    }
}
