//! Perft: counting the leaves of the legal move tree. The last ply is bulk-counted (the
//! popcounts of the target sets; no child board is built), and `divide` splits the count by
//! root move.

use crate::board::Board;
use crate::dispatch::{StatusOp, dispatch};
use crate::material::{AnyPieces, Material};
use crate::movegen::{Counter, generate};
use crate::position::Position;
use crate::slider::{Backend, BackendOp, BackendUnavailable, SliderBackend, with_backend};
use crate::status::StatusFlags;
use crate::types::{Color, Piece, Square};
use crate::visitor::{Visitor, visit};
use core::marker::PhantomData;

/// The number of leaves of the legal move tree `depth` plies deep (`1` at depth 0), on the
/// fastest backend for this CPU.
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_with(position, depth, Backend::Auto).expect("the automatic backend always resolves")
}

/// [`perft`] on a chosen backend; an error when `backend` is `Pext` on a CPU without BMI2.
///
/// # Examples
/// ```
/// use constmove::{perft_with, Backend, Position};
/// let kiwipete: Position =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().unwrap();
/// assert_eq!(perft_with(&kiwipete, 3, Backend::Magic), Ok(97_862));
/// ```
pub fn perft_with(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> Result<u64, BackendUnavailable> {
    if depth == 0 {
        backend.resolve()?;
        return Ok(1);
    }
    with_backend(
        backend,
        PerftRoot {
            board: position.board(),
            ep: position.ep_index(),
            status: position.status_index(),
            depth,
        },
    )
}

/// [`perft_with`] on a backend already resolved (no CPU check per call).
#[cfg(feature = "std")]
pub(crate) fn perft_resolved(
    position: &Position,
    depth: u32,
    backend: crate::slider::Resolved,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    crate::slider::with_resolved(
        backend,
        PerftRoot {
            board: position.board(),
            ep: position.ep_index(),
            status: position.status_index(),
            depth,
        },
    )
}

/// [`perft`] of each legal root move, in the order [`Position::legal_moves`] lists them.
/// At depth 0 there are no root moves and the list is empty.
///
/// # Examples
/// ```
/// use constmove::{divide, Backend, Position};
/// let counts = divide(&Position::startpos(), 3, Backend::Auto).unwrap();
/// assert_eq!(counts.len(), 20);
/// assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
/// let e2e4 = counts.iter().find(|(mv, _)| mv.to_string() == "e2e4").unwrap();
/// assert_eq!(e2e4.1, 600);
/// ```
pub fn divide(
    position: &Position,
    depth: u32,
    backend: Backend,
) -> Result<crate::moves::MoveCounts, BackendUnavailable> {
    backend.resolve()?;
    let mut counts = crate::moves::MoveCounts::new();
    if depth == 0 {
        return Ok(counts);
    }
    for mv in position.legal_moves().iter().copied() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        counts.push(mv, perft_with(&child, depth - 1, backend)?);
    }
    Ok(counts)
}

/// The body of [`Position::visit_tree`].
pub(crate) fn visit_tree<V: Visitor>(position: &Position, depth: u32, visitor: &mut V) {
    if depth == 0 {
        return;
    }
    let walked = with_backend(
        Backend::Auto,
        WalkRoot {
            position,
            depth,
            visitor,
        },
    );
    debug_assert!(walked.is_ok(), "the automatic backend always resolves");
}

struct WalkRoot<'a, V> {
    position: &'a Position,
    depth: u32,
    visitor: &'a mut V,
}

impl<V: Visitor> BackendOp for WalkRoot<'_, V> {
    type Output = ();
    unsafe fn run<B: SliderBackend>(self) {
        dispatch(
            self.position.status_index(),
            WalkStatus::<V, B> {
                root: self,
                backend: PhantomData,
            },
        )
    }
}

struct WalkStatus<'a, V, B> {
    root: WalkRoot<'a, V>,
    backend: PhantomData<B>,
}

impl<V: Visitor, B: SliderBackend> StatusOp for WalkStatus<'_, V, B> {
    type Output = ();
    fn run<S: StatusFlags>(self) {
        let root = self.root;
        // SAFETY: built only by `WalkRoot::run::<B>`, whose caller guarantees the CPU
        // supports B.
        unsafe {
            walk::<S, B, V>(
                root.position.board(),
                root.position.ep_index(),
                root.depth,
                root.visitor,
            )
        }
    }
}

/// Walks the tree below `board` and hands the last ply's moves to `visitor`; each node is
/// generated inside B's entry with the visitor inlined.
///
/// # Safety
/// The CPU must support B.
unsafe fn walk<S: StatusFlags, B: SliderBackend, V: Visitor>(
    board: &Board,
    ep: u8,
    depth: u32,
    visitor: &mut V,
) {
    if depth <= 1 {
        // SAFETY: the caller guarantees the CPU supports B.
        unsafe { B::visit::<S, V>(board, ep, visitor) }
    } else {
        let mut walker = MakeChildren(Walk::<V, B> {
            child_depth: depth - 1,
            visitor,
            backend: PhantomData,
        });
        // SAFETY: as above.
        unsafe { B::visit::<S, _>(board, ep, &mut walker) }
    }
}

/// Descends into each child for [`walk`].
struct Walk<'a, V, B> {
    child_depth: u32,
    visitor: &'a mut V,
    backend: PhantomData<B>,
}

impl<V: Visitor, B: SliderBackend> Descend for Walk<'_, V, B> {
    #[inline(always)]
    fn descend<C: StatusFlags>(&mut self, parent: &Board, make: impl FnOnce(&mut Board), ep: u8) {
        let mut child = *parent;
        make(&mut child);
        // SAFETY: `walk` runs only where the CPU supports B.
        unsafe { walk::<C, B, V>(&child, ep, self.child_depth, self.visitor) }
    }
}

struct PerftRoot<'a> {
    board: &'a Board,
    ep: u8,
    status: u8,
    depth: u32,
}

impl BackendOp for PerftRoot<'_> {
    type Output = u64;
    unsafe fn run<B: SliderBackend>(self) -> u64 {
        dispatch(
            self.status,
            PerftStatus::<B> {
                root: self,
                backend: PhantomData,
            },
        )
    }
}

struct PerftStatus<'a, B> {
    root: PerftRoot<'a>,
    backend: PhantomData<B>,
}

impl<B: SliderBackend> StatusOp for PerftStatus<'_, B> {
    type Output = u64;
    fn run<S: StatusFlags>(self) -> u64 {
        // SAFETY: a PerftStatus<B> is only built by `PerftRoot::run::<B>`, whose caller
        // guarantees the CPU supports B.
        unsafe { B::perft::<S>(self.root.board, self.root.ep, self.root.depth) }
    }
}

/// The body of every perft entry: bulk count at depth 1, else visit and recurse.
#[inline(always)]
pub(crate) fn node<S: StatusFlags, B: SliderBackend>(board: &Board, ep: u8, depth: u32) -> u64 {
    if depth <= 1 {
        return count::<S, B, AnyPieces>(board, ep);
    }
    if depth == 2 {
        // SAFETY: we run inside one of B's entries, so the CPU supports B.
        return unsafe { B::perft_depth2::<S>(board, ep) };
    }
    let mut visitor = MakeChildren(Recurse::<B> {
        child_depth: depth - 1,
        nodes: 0,
        backend: PhantomData,
    });
    visit::<S, B, _>(board, ep, &mut visitor);
    visitor.0.nodes
}

/// The number of legal moves: the popcounts of the generator's target sets.
#[inline(always)]
pub(crate) fn count<S: StatusFlags, B: SliderBackend, M: Material>(board: &Board, ep: u8) -> u64 {
    let mut counter = Counter(0);
    generate::<S, B, M, _>(board, ep, &mut counter);
    counter.0
}

/// What to do with each child: `make` turns a copy of the parent into the child.
pub(crate) trait Descend {
    /// Handles the child of `parent` that `make` produces, whose status is `C` and
    /// en-passant square `ep`.
    fn descend<C: StatusFlags>(&mut self, parent: &Board, make: impl FnOnce(&mut Board), ep: u8);
}

/// Recurses into each child through its status's entry.
struct Recurse<B> {
    child_depth: u32,
    nodes: u64,
    backend: PhantomData<B>,
}

impl<B: SliderBackend> Descend for Recurse<B> {
    #[inline(always)]
    fn descend<C: StatusFlags>(&mut self, parent: &Board, make: impl FnOnce(&mut Board), ep: u8) {
        self.nodes += perft_child::<C, B>(parent, make, ep, self.child_depth);
    }
}

/// Makes the child on the stack and counts it through its status's entry.
#[inline(always)]
pub(crate) fn perft_child<C: StatusFlags, B: SliderBackend>(
    parent: &Board,
    make: impl FnOnce(&mut Board),
    ep: u8,
    depth: u32,
) -> u64 {
    let mut child = *parent;
    make(&mut child);
    // SAFETY: the visitors that call this run inside one of B's entries, so the CPU
    // supports B.
    unsafe { B::perft::<C>(&child, ep, depth) }
}

/// The colour that made the move leading to status `C`.
#[inline(always)]
fn mover<C: StatusFlags>() -> Color {
    Color::from_white(!C::WHITE)
}

/// Builds each child board by copy-make and hands it on.
pub(crate) struct MakeChildren<D>(pub(crate) D);

impl<D: Descend> MakeChildren<D> {
    #[inline(always)]
    fn piece_move<C: StatusFlags>(
        &mut self,
        board: &Board,
        piece: Piece,
        from: Square,
        to: Square,
    ) {
        let make = |child: &mut Board| child.apply_move(mover::<C>(), piece, from, to);
        self.0.descend::<C>(board, make, 0);
    }
}

impl<D: Descend> Visitor for MakeChildren<D> {
    #[inline(always)]
    fn king<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::King, from, to);
    }
    #[inline(always)]
    fn castle<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let make = |child: &mut Board| child.apply_castle(mover::<C>(), from, to);
        self.0.descend::<C>(board, make, 0);
    }
    #[inline(always)]
    fn pawn_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn pawn_double_push<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let ep = ((from.index() + to.index()) / 2) as u8;
        let make = |child: &mut Board| child.apply_move(mover::<C>(), Piece::Pawn, from, to);
        self.0.descend::<C>(board, make, ep);
    }
    #[inline(always)]
    fn pawn_capture<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Pawn, from, to);
    }
    #[inline(always)]
    fn en_passant<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        let make = |child: &mut Board| child.apply_en_passant(mover::<C>(), from, to);
        self.0.descend::<C>(board, make, 0);
    }
    #[inline(always)]
    fn promotion<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square, piece: Piece) {
        let make = |child: &mut Board| child.apply_promotion(mover::<C>(), from, to, piece);
        self.0.descend::<C>(board, make, 0);
    }
    #[inline(always)]
    fn knight<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Knight, from, to);
    }
    #[inline(always)]
    fn bishop<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Bishop, from, to);
    }
    #[inline(always)]
    fn rook<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Rook, from, to);
    }
    #[inline(always)]
    fn queen<C: StatusFlags>(&mut self, board: &Board, from: Square, to: Square) {
        self.piece_move::<C>(board, Piece::Queen, from, to);
    }
}
