//! Perft's depth-2 nodes: the parent of the leaf-parents, where nearly all of a bulk-counting
//! perft's time goes. The node's moves are sorted by what they touch of the replier's moves
//! ([`crate::count::reply_squares`]): untouched ones are only counted, and the children that must be
//! made are collected in one batch and counted in tight loops with the counting generator
//! inlined here, which saves a call per leaf-parent. Nodes with few pieces, all kings, rooks
//! and pawns, sort out only the quiet moves that leave every replier move alone (on narrower
//! squares, [`SkipUntouched::sparse`]) and count every other child of the batch in full, with
//! a counter compiled for those kinds ([`crate::generator::material`]).

use crate::base::attacks::{self, NOT_FILE_A, NOT_FILE_H};
use crate::base::board::Board;
use crate::base::castling::right_index;
use crate::base::chess_move::Move;
use crate::base::status::{ClearOurK, ClearOurQ, FIRST_RIGHT, Flip, StatusFlags};
use crate::base::types::{BitIter, Color, Piece};
#[cfg(target_arch = "x86_64")]
use crate::count::lanes;
use crate::count::leaf::{count_at, count_entry};
use crate::count::reply_squares::{ReplySquares, SkipUntouched, Untouched};
use crate::generator::checks_and_pins::{AttackReach, LegalMasks};
use crate::generator::children::{Counted, Descend, MakeChildren};
use crate::generator::entry::{Engine, Operation};
use crate::generator::material::{AnyPieces, Material, MaterialOp, Pieces};
use crate::generator::movegen::{
    All, Castles, Counter, PawnMoves, PawnSteps, en_passant_captures, en_passant_count, generate,
    generate_filtered, generate_with_masks, king_moves, knight_moves,
};
use crate::generator::visitor::VisitSink;
use crate::slider::Cpu;
#[cfg(target_arch = "x86_64")]
use crate::slider::wide_lanes_are_supported;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use static_assertions::const_assert;

/// Room for the children of one node that are made: one bit each in a `u64`. Untouched moves
/// are never made, and the rare node with more children to make sends the excess through
/// calls.
const CHILD_BUFFER: usize = 64;
const_assert!(CHILD_BUFFER == u64::BITS as usize);

/// Below this many pieces on the board, none a knight, bishop or queen, a depth-2 node counts
/// all its children in full.
const SPARSE: u32 = 16;

/// A sparse batch's last children go through the scalar counter when no more than this
/// many are left over after the full passes of AVX-512 lanes (`lanes_first`).
#[cfg(target_arch = "x86_64")]
const SCALAR_TAIL: usize = 4;

/// The status the replier's moves are counted with in every batched child of a node whose
/// status is `S`: the side flips, no en passant, and only the replier's own rights matter.
/// The batch counts are compiled for these 8 statuses, not for all 64 parents.
type Reply<S> = Counted<Flip<S>>;

/// Perft of a board (status `S`, en-passant square `ep`) to depth 2, run inside an engine's
/// entry: its own entry, because its frame holds the batch of children and only depth-2
/// nodes should pay for that stack.
pub(crate) struct Depth2Node<'a, S> {
    board: &'a Board,
    /// The en-passant square in the low byte, the rights' bits (see [`NodeRights::bits`])
    /// above: two fields, so the node's entry takes it in two registers, not through memory.
    /// The square is always 0 since en passant is taken apart (`depth2_node`); dropping it
    /// moved the code and cost Kiwipete 2.5% of its wall time (docs/PERFORMANCE.md).
    ep_and_rights: u16,
    status: PhantomData<S>,
}

/// The castling rights a depth-2 node has, king side then queen side, of those its status
/// holds: a node runs as a status that holds both of a side's rights when the side has
/// one, so that statuses differing only there share one node's code.
#[derive(Clone, Copy)]
pub(crate) struct NodeRights {
    /// The mover's.
    pub(crate) mover: [bool; 2],
    /// The replier's.
    pub(crate) replier: [bool; 2],
}

impl NodeRights {
    /// The rights as four bits: the mover's king and queen side, then the replier's.
    #[inline(always)]
    fn bits(self) -> u16 {
        u16::from(self.mover[0])
            | u16::from(self.mover[1]) << 1
            | u16::from(self.replier[0]) << 2
            | u16::from(self.replier[1]) << 3
    }

    /// The rights status `S` holds.
    #[inline(always)]
    pub(crate) fn of<S: StatusFlags>() -> Self {
        NodeRights {
            mover: [S::OUR_K, S::OUR_Q],
            replier: [S::THEIR_K, S::THEIR_Q],
        }
    }

    /// The rights of [`NodeRights::bits`].
    #[inline(always)]
    fn from_bits(bits: u16) -> Self {
        NodeRights {
            mover: [bits & 1 != 0, bits & 2 != 0],
            replier: [bits & 4 != 0, bits & 8 != 0],
        }
    }
}

impl<'a, S> Depth2Node<'a, S> {
    /// The node of `board` with en-passant square `ep` and castling rights `rights` (of
    /// those `S` holds).
    #[inline(always)]
    pub(crate) fn new(board: &'a Board, ep: u8, rights: NodeRights) -> Self {
        Depth2Node {
            board,
            ep_and_rights: u16::from(ep) | rights.bits() << 8,
            status: PhantomData,
        }
    }
}

impl<S: StatusFlags> Operation for Depth2Node<'_, S> {
    type Output = u64;
    #[inline(always)]
    fn run<B: Engine>(self, cpu: Cpu<B>) -> u64 {
        let rights = NodeRights::from_bits(self.ep_and_rights >> 8);
        depth2_node::<S, B>(cpu, self.board, self.ep_and_rights as u8, rights)
    }
}

/// The leaf count below a depth-2 node's en-passant captures (status `S`, which has `EP`;
/// en-passant square `ep`), each child made and its replies counted. The node's other moves
/// run as its status without en passant, so the node's code is not compiled again for the
/// rare statuses with it: those nodes had the most instruction-cache misses a run.
pub(crate) struct EnPassantChildren<'a, S> {
    pub(crate) board: &'a Board,
    pub(crate) ep: u8,
    pub(crate) status: PhantomData<S>,
}

impl<S: StatusFlags> Operation for EnPassantChildren<'_, S> {
    type Output = u64;
    #[inline(always)]
    fn run<B: Engine>(self, cpu: Cpu<B>) -> u64 {
        let mover = Color::from_white(S::WHITE);
        let mut nodes = 0;
        en_passant_captures::<S, B>(self.board, self.ep, |from, to| {
            let child = self.board.after_en_passant(mover, from, to);
            nodes += count_entry::<Flip<S>, B>(cpu, &child, 0);
        });
        nodes
    }
}

/// The leaf count below `board` (status `S`, en-passant square `ep`). The node's own moves
/// are generated here, compiled for `S`, castling only where `rights` says; the replier's
/// moves in the batch are counted in the entries of [`Reply<S>`] (without a right it lacks).
#[inline(always)]
fn depth2_node<S: StatusFlags, B: Engine>(
    cpu: Cpu<B>,
    board: &Board,
    ep: u8,
    rights: NodeRights,
) -> u64 {
    // Few pieces, only rooks and pawns besides the kings: most moves touch the replier's
    // moves, and sorting them into parts costs more than it saves, so every child that
    // touches them is made and counted in full. With a knight, bishop or queen on the board
    // sorting pays even when sparse (it leaves their many quiet moves untouched).
    let both = |piece| board.bits(Color::White, piece) | board.bits(Color::Black, piece);
    let few = board.occupied_bits().count_ones() < SPARSE;
    let sparse = few && both(Piece::Knight) | both(Piece::Bishop) | both(Piece::Queen) == 0;
    // Sparse nodes with no castling right and no en passant (nearly all) have a generator of
    // their own that only makes children: no sorting or marking per child. The few
    // others share the dense nodes' generator, with the sorting switched off at run time.
    if sparse && !S::EP && !(S::WK || S::WQ || S::BK || S::BQ) {
        let mut collect = MakeChildren(Collect::<S, B, false>::new(
            cpu,
            &ReplySquares::EVERYWHERE,
            0,
            false,
        ));
        // Quiet moves far from everything the replier's moves read are only counted.
        let mut split = SkipUntouched::sparse::<S, B>(VisitSink::new(&mut collect, board), board);
        // No knight, bishop or queen on the board: the generator reads none.
        generate::<S, B, Pieces<false, false>, _>(board, ep, &mut split);
        let untouched = split.untouched;
        return sparse_count(cpu, board, &collect.0, untouched, rights.replier);
    }
    let (squares, off) = if sparse {
        // Never read: sparse nodes here sort nothing.
        let none = Untouched {
            from: 0,
            to: [0; 6],
        };
        (ReplySquares::EVERYWHERE, none)
    } else {
        ReplySquares::compute::<S, B>(board, rights.replier)
    };
    // The status bits of the replier's rights `S` holds that it does not have: children
    // counted at once are counted under their real status.
    let replier = Color::from_white(!S::WHITE);
    let absent_bit = |held: bool, has: bool, kingside: bool| {
        u8::from(held && !has) << (right_index(replier, kingside) as u32 + FIRST_RIGHT)
    };
    let absent = absent_bit(S::THEIR_K, rights.replier[0], true)
        | absent_bit(S::THEIR_Q, rights.replier[1], false);
    let mut collect = MakeChildren(Collect::<S, B, true>::new(cpu, &squares, absent, !sparse));
    let mut split = SkipUntouched::<_, false> {
        inner: VisitSink::new(&mut collect, board),
        off_from: off.from,
        off_to: off.to,
        empty: !board.occupied_bits(),
        untouched: 0,
        active: !sparse,
        pinner: 0,
        pinner_to: 0,
    };
    generate_filtered::<S, B, AnyPieces, _, _>(board, ep, Castles(rights.mover), &mut split);
    let untouched = split.untouched;

    // By reference: moving the batch out would copy all of it.
    let collect = &collect.0;
    if sparse {
        return sparse_count(cpu, board, collect, untouched, rights.replier);
    }
    if untouched == 0 && collect.batch.len == 0 {
        return collect.nodes;
    }
    let batch = BatchOp {
        board,
        untouched,
        batch: &collect.batch,
        squares: &squares,
        cpu,
    };
    collect.nodes + with_reply::<S, _>(rights.replier, batch)
}

/// A count over the replier's moves, compiled for the replier's status `R`.
trait ReplyOp {
    fn run<R: StatusFlags>(self) -> u64;
}

/// Runs `op` with the replier's status of a node of status `S` whose replier has the
/// castling rights `rights`: [`Reply<S>`], without the right it lacks when `S` holds both
/// for a replier that has one. So the replier's counts, which run for every child, are
/// compiled for its exact rights; only the node's own code is shared.
#[inline(always)]
fn with_reply<S: StatusFlags, O: ReplyOp>(rights: [bool; 2], op: O) -> u64 {
    if S::THEIR_K && S::THEIR_Q && rights != [true, true] {
        if rights[0] {
            op.run::<ClearOurQ<Reply<S>>>()
        } else {
            op.run::<ClearOurK<Reply<S>>>()
        }
    } else {
        op.run::<Reply<S>>()
    }
}

/// [`CountBatch`] for the replier's status.
struct BatchOp<'a, B> {
    board: &'a Board,
    untouched: u64,
    batch: &'a Batch,
    squares: &'a ReplySquares,
    cpu: Cpu<B>,
}

impl<B: Engine> BatchOp<'_, B> {
    /// The count in the entry of [`CountBatch`], with or without the pawn lanes.
    #[inline(always)]
    fn enter<R: StatusFlags, const PAWN_LANES: bool>(self) -> u64 {
        let count = CountBatch::<R, PAWN_LANES> {
            board: self.board,
            untouched: self.untouched,
            batch: self.batch,
            squares: self.squares,
            status: PhantomData,
        };
        B::enter(self.cpu, count)
    }
}

impl<B: Engine> ReplyOp for BatchOp<'_, B> {
    #[inline(always)]
    fn run<R: StatusFlags>(self) -> u64 {
        // Two entries: the scalar one keeps the code it had before the lanes.
        if wide_lanes() {
            self.enter::<R, true>()
        } else {
            self.enter::<R, false>()
        }
    }
}

/// Where the mover's pieces must stand to attack the squares of the replier's king (on
/// `king`, status `R`) in a sparse child whose pieces `M` allows: with rooks only, the three
/// ranks and files around the king, so a rook elsewhere costs the king-ban no lookup. Any
/// other material, or castling rights (squares beyond the neighbours), skips nothing.
#[inline(always)]
fn sparse_reach<R: StatusFlags, M: Material>(king: usize) -> AttackReach {
    if M::KNIGHTS || M::DIAGONALS || R::OUR_K || R::OUR_Q {
        return AttackReach::EVERYWHERE;
    }
    let rank = 0xFF << (king & 56);
    let file = 0x0101_0101_0101_0101 << (king & 7);
    AttackReach {
        knight: 0,
        diagonal: 0,
        orthogonal: rank
            | rank << 8
            | rank >> 8
            | file
            | (file << 1 & NOT_FILE_A)
            | (file >> 1 & NOT_FILE_H),
    }
}

/// The leaf count of a sparse node (status `S`) whose children `collect` holds, and
/// `untouched` children that leave the replier's moves as they are: counted for kings, rooks
/// and pawns, unless a promotion may bring another kind.
#[inline(always)]
fn sparse_count<S: StatusFlags, B: Engine, const DENSE: bool>(
    cpu: Cpu<B>,
    board: &Board,
    collect: &Collect<'_, S, B, DENSE>,
    untouched: u64,
    replier_rights: [bool; 2],
) -> u64 {
    let mover = Color::from_white(S::WHITE);
    collect.nodes
        + Pieces::narrowest(
            board,
            mover,
            SparseCount::<S, B> {
                board,
                batch: &collect.batch,
                untouched,
                replier_rights,
                cpu,
                status: PhantomData,
            },
        )
}

/// Picks the entry that counts a sparse node's batch for the kinds of piece `M` its
/// children may hold.
struct SparseCount<'a, S, B> {
    board: &'a Board,
    batch: &'a Batch,
    untouched: u64,
    /// The replier's castling rights of those `S` holds.
    replier_rights: [bool; 2],
    cpu: Cpu<B>,
    status: PhantomData<S>,
}

impl<S: StatusFlags, B: Engine> MaterialOp for SparseCount<'_, S, B> {
    type Output = u64;
    #[inline(always)]
    fn run<M: Material>(self) -> u64 {
        let count = SparseOp::<B, M> {
            board: self.board,
            batch: self.batch,
            untouched: self.untouched,
            cpu: self.cpu,
            marker: PhantomData,
        };
        with_reply::<S, _>(self.replier_rights, count)
    }
}

/// [`CountChildren`] for the replier's status.
struct SparseOp<'a, B, M> {
    board: &'a Board,
    batch: &'a Batch,
    untouched: u64,
    cpu: Cpu<B>,
    marker: PhantomData<M>,
}

impl<B: Engine, M: Material> SparseOp<'_, B, M> {
    /// The count in the entry of [`CountChildren`], with or without the lanes.
    #[inline(always)]
    fn enter<R: StatusFlags, const IN_LANES: bool>(self) -> u64 {
        let count = CountChildren::<R, M, IN_LANES> {
            board: self.board,
            batch: self.batch,
            untouched: self.untouched,
            marker: PhantomData,
        };
        B::enter(self.cpu, count)
    }
}

impl<B: Engine, M: Material> ReplyOp for SparseOp<'_, B, M> {
    #[inline(always)]
    fn run<R: StatusFlags>(self) -> u64 {
        // Two entries: the scalar one keeps the code it had before the lanes.
        if lanes_apply::<R, M>() {
            self.enter::<R, true>()
        } else {
            self.enter::<R, false>()
        }
    }
}

/// The replier's moves in every child of a sparse batch, all of status `R` and holding only
/// the kinds of piece `M` allows: one loop with the counter inlined, after the AVX-512 lanes
/// if `IN_LANES` ([`lanes_apply`]); and in `untouched` children, as many as on the parent
/// `board` with the turn passed.
struct CountChildren<'a, R, M, const IN_LANES: bool> {
    board: &'a Board,
    batch: &'a Batch,
    untouched: u64,
    marker: PhantomData<(R, M)>,
}

impl<R: StatusFlags, M: Material, const IN_LANES: bool> Operation
    for CountChildren<'_, R, M, IN_LANES>
{
    type Output = u64;
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) -> u64 {
        let batch = self.batch;
        let replier = Color::from_white(R::WHITE);
        // The replier's king stays put in every child: its king-ban needs only the mover's
        // rooks that can reach its squares.
        let king = self.board.bits(replier, Piece::King).trailing_zeros() as usize;
        let reach = sparse_reach::<R, M>(king);
        let count = |board: &Board| {
            let masks = LegalMasks::compute::<B, M>(board, replier, king);
            let mut counter = Counter(0);
            // No en passant: the batch holds only children whose status has none, and the
            // parent none for the replier.
            generate_with_masks::<R, B, M, _, _>(board, 0, &masks, &reach, All, &mut counter);
            counter.0
        };
        let passed = if self.untouched != 0 {
            self.untouched * count(self.board)
        } else {
            0
        };
        let (in_lanes, first_scalar) = if IN_LANES {
            lanes_first::<R>(self.board, batch, king)
        } else {
            (0, 0)
        };
        (first_scalar..batch.len).fold(passed + in_lanes, |nodes, slot| {
            nodes + count(batch.child(slot))
        })
    }
}

/// Whether a sparse batch (replier's status `R`, kinds of piece `M`) counts its children in
/// AVX-512 lanes: kings, rooks and pawns only (with kings and pawns alone the scalar counter
/// is shorter than a pass), no castling right or en passant, and a CPU that has them.
#[inline(always)]
fn lanes_apply<R: StatusFlags, M: Material>() -> bool {
    let kings_rooks_pawns = M::ROOKS && !(M::KNIGHTS || M::DIAGONALS);
    kings_rooks_pawns && !(R::OUR_K || R::OUR_Q || R::EP) && wide_lanes()
}

/// Whether the CPU runs the AVX-512 lanes (never off x86-64).
#[inline(always)]
fn wide_lanes() -> bool {
    #[cfg(target_arch = "x86_64")]
    return wide_lanes_are_supported();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The replier's moves (status `R`) in the first children of a sparse `batch` that
/// [`lanes_apply`] allows, counted in AVX-512 lanes, and how many children that was; the
/// rest go through the scalar counter. A short tail would cost a whole pass of lanes:
/// `SCALAR_TAIL` children or fewer left over go scalar too.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes_first<R: StatusFlags>(board: &Board, batch: &Batch, king: usize) -> (u64, usize) {
    let len = batch.len;
    let tail = len % lanes::LANES;
    let in_lanes = if tail > SCALAR_TAIL { len } else { len - tail };
    let child = |slot| batch.child(slot);
    // SAFETY: `lanes_apply` saw the CPU's cached facts report every feature `count_children`
    // enables: AVX-512 F, VL and VPOPCNTDQ with the OS saving their state, AVX2 and POPCNT.
    let nodes = unsafe {
        if R::WHITE {
            lanes::count_children::<true>(board, in_lanes, child, king)
        } else {
            lanes::count_children::<false>(board, in_lanes, child, king)
        }
    };
    (nodes, in_lanes)
}

/// Never called off x86-64, where [`lanes_apply`] is false.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn lanes_first<R: StatusFlags>(_: &Board, _: &Batch, _: usize) -> (u64, usize) {
    (0, 0)
}

/// From this many children in a dense batch's pawn part on, their pawn moves are counted in
/// AVX-512 lanes (where the CPU has them): a pass costs about what two scalar recounts do.
const PAWN_LANES_FROM: u32 = 2;

/// The replier's (status `R`) pawn moves summed over the children in `slots` of `batch`,
/// which keep the parent's `masks`, in AVX-512 lanes; callable where [`wide_lanes`]
/// said yes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes_pawn_moves<R: StatusFlags>(slots: u64, batch: &Batch, masks: &LegalMasks) -> u64 {
    let child = |slot| batch.child(slot);
    // SAFETY: `wide_lanes` saw the CPU's cached facts report every feature that
    // `count_pawn_moves` enables: AVX-512 F, VL and VPOPCNTDQ with the OS saving their state,
    // AVX2 and POPCNT.
    unsafe {
        if R::WHITE {
            lanes::count_pawn_moves::<true>(slots, child, masks)
        } else {
            lanes::count_pawn_moves::<false>(slots, child, masks)
        }
    }
}

/// Never called off x86-64, where [`wide_lanes`] is false.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn lanes_pawn_moves<R: StatusFlags>(_: u64, _: &Batch, _: &LegalMasks) -> u64 {
    0
}

/// The replier's moves in a dense node's batch and its untouched children (see
/// [`count_batch`]), all of status `R`; the pawn part in AVX-512 lanes if `PAWN_LANES`
/// (only where [`wide_lanes`] said yes).
struct CountBatch<'a, R, const PAWN_LANES: bool> {
    board: &'a Board,
    untouched: u64,
    batch: &'a Batch,
    squares: &'a ReplySquares,
    status: PhantomData<R>,
}

impl<R: StatusFlags, const PAWN_LANES: bool> Operation for CountBatch<'_, R, PAWN_LANES> {
    type Output = u64;
    #[inline(always)]
    fn run<B: Engine>(self, _: Cpu<B>) -> u64 {
        count_batch::<R, B, PAWN_LANES>(self.board, self.untouched, self.batch, self.squares)
    }
}

/// The parts of the replier's count a child may need again, as sets of slots (bit `i` is
/// the child in slot `i`), and the children counted in full.
#[derive(Default)]
struct PartSets {
    king: u64,
    /// Diagonal, then straight slider moves.
    sliders: [u64; 2],
    pawns: u64,
    knights: u64,
    full: u64,
}

impl PartSets {
    /// Files the children of `batch`: those in `same` (with the parent's masks) under the
    /// parts whose squares (`squares`) they changed, and under the knights when they took a
    /// piece (on `theirs`, the replier's) on a knight's square or one a knight attacks; the
    /// others under the full count.
    #[inline(always)]
    fn file<B: Engine>(batch: &Batch, theirs: u64, squares: &ReplySquares, same: u64) -> PartSets {
        let mut parts = PartSets {
            full: batch.slots() & !same,
            ..PartSets::default()
        };
        if B::WIDE_VECTORS && batch.len >= VECTOR_FILING {
            // Every child, the tests with no branch: LLVM tests four at a time (two without
            // AVX2 lost more than it saved). Those counted in full are taken out after.
            for (slot, &changed) in batch.changes().iter().enumerate() {
                parts.touch(slot, changed, theirs, squares);
            }
            parts.king &= same;
            parts.sliders[0] &= same;
            parts.sliders[1] &= same;
            parts.pawns &= same;
            parts.knights &= same;
        } else {
            for slot in BitIter(same) {
                parts.touch(slot, batch.changed(slot), theirs, squares);
            }
        }
        parts
    }

    /// Adds the child in `slot`, which changed `changed`, to the parts whose squares it
    /// touches. Bits, not branches: which parts a child touches varies from child to child.
    #[inline(always)]
    fn touch(&mut self, slot: usize, changed: u64, theirs: u64, squares: &ReplySquares) {
        let bit = |set: u64| u64::from(changed & set != 0) << slot;
        self.king |= bit(squares.king);
        self.sliders[0] |= bit(squares.slider_kinds[0]);
        self.sliders[1] |= bit(squares.slider_kinds[1]);
        self.pawns |= bit(squares.pawns);
        self.knights |= bit(squares.knights & theirs);
    }
}

/// From this many made children on, [`PartSets::file`] tests every child in vector lanes
/// (with AVX2); below it the loop's setup costs more than it saves (the start position +3%
/// a leaf with no threshold, see docs/PERFORMANCE.md).
const VECTOR_FILING: usize = 16;

/// The replier's moves in the `untouched` children and in the batch's, all children of
/// `board` in which the replier (status `R`) is to move.
///
/// A child whose replier is not in check and keeps the parent's pins has the replier's count
/// on `board` with the turn passed, but for the parts ([`ReplyParts`]) on whose squares a
/// piece arrived or left: only those are counted again on the child. Children that change no
/// square on the replier's king lines are known to be such children; the others' masks are
/// computed to find out, and the rest are counted in full. With `PAWN_LANES`, a pawn part of
/// [`PAWN_LANES_FROM`] children or more is counted in AVX-512 lanes.
#[inline(always)]
fn count_batch<R: StatusFlags, B: Engine, const PAWN_LANES: bool>(
    board: &Board,
    untouched: u64,
    batch: &Batch,
    squares: &ReplySquares,
) -> u64 {
    let replier = Color::from_white(R::WHITE);
    let king = board.bits(replier, Piece::King).trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B, AnyPieces>(board, replier, king);
    // The replier's pawn steps under its pins: a child that took no pawn has them too, and
    // counts them against its own board.
    let steps = PawnSteps::of::<R>(board.bits(replier, Piece::Pawn), &masks);
    let passed = ReplyParts::count::<R, B>(board, &masks, squares, &steps);
    let passed_total = passed.total();
    let mut nodes = untouched * passed_total;

    // The masks of the children counted in full, kept for their count.
    let mut full_masks = [const { MaybeUninit::<LegalMasks>::uninit() }; CHILD_BUFFER];
    let child = |slot: usize| batch.child(slot);

    // A child that changes no square on the replier's king lines gives no check and keeps
    // its pins (the batch marked those as it made them); the others' masks are computed to
    // find out.
    let known = batch.known;
    let mut same = known;
    for slot in BitIter(batch.slots() & !known) {
        let child_masks = LegalMasks::compute::<B, AnyPieces>(child(slot), replier, king);
        full_masks[slot & (CHILD_BUFFER - 1)].write(child_masks);
        let keeps = (child_masks.checkers == 0)
            & (child_masks.pin_hv == masks.pin_hv)
            & (child_masks.pin_diag == masks.pin_diag);
        same |= u64::from(keeps) << slot;
    }
    // The squares each child changed, stored as it was made: a capture's include the
    // replier's piece.
    let parts = PartSets::file::<B>(batch, board.color_bits(replier), squares, same);
    nodes += u64::from(same.count_ones()) * passed_total;

    for slot in BitIter(batch.ep) {
        let child_masks = if parts.full & 1 << slot != 0 {
            // SAFETY: the full set holds only children whose masks were computed above.
            unsafe { full_masks[slot & (CHILD_BUFFER - 1)].assume_init_ref() }
        } else {
            // Known children, and those whose masks were found the same: the parent's.
            &masks
        };
        nodes +=
            en_passant_count::<R, B, AnyPieces>(child(slot), batch.ep_target(slot), child_masks);
    }

    for slot in BitIter(parts.king) {
        let reach = king_reach(board, child(slot), replier, king, squares);
        // Children in this part keep the parent's pins.
        let king = ReplyParts::king::<R, B>(child(slot), &masks, &reach);
        nodes = nodes.wrapping_add(king) - passed.king;
    }
    // By kind of ray: most moves change one kind only, and leave the other's lookups undone.
    for slot in BitIter(parts.sliders[0]) {
        let sliders = ReplyParts::sliders::<R, B, true>(child(slot), &masks);
        nodes = nodes.wrapping_add(sliders) - passed.sliders[0];
    }
    for slot in BitIter(parts.sliders[1]) {
        let sliders = ReplyParts::sliders::<R, B, false>(child(slot), &masks);
        nodes = nodes.wrapping_add(sliders) - passed.sliders[1];
    }
    if PAWN_LANES && parts.pawns.count_ones() >= PAWN_LANES_FROM {
        // Branch-free in lanes: whether a child took a pawn or promotes varies from child
        // to child, and each test mispredicts.
        let moves = lanes_pawn_moves::<R>(parts.pawns, batch, &masks);
        let recounted = u64::from(parts.pawns.count_ones()) * passed.pawns;
        nodes = nodes.wrapping_add(moves) - recounted;
    } else {
        for slot in BitIter(parts.pawns) {
            let child = child(slot);
            let pawns = if child.bits(replier, Piece::Pawn) == steps.pawns {
                steps.moves::<R>(child, masks.checkmask).count::<R>()
            } else {
                ReplyParts::pawns::<R>(child, &masks)
            };
            nodes = nodes.wrapping_add(pawns) - passed.pawns;
        }
    }
    for slot in BitIter(parts.knights) {
        let knights = knight_count(child(slot), replier, &masks);
        nodes = nodes.wrapping_add(knights) - passed.knights;
    }
    for slot in BitIter(parts.full) {
        // SAFETY: the full set holds only children whose masks were computed above.
        let child_masks = unsafe { full_masks[slot & (CHILD_BUFFER - 1)].assume_init_ref() };
        let reach = king_reach(board, child(slot), replier, king, squares);
        let mut counter = Counter(0);
        // En passant apart: those captures were added above.
        generate_with_masks::<R, B, AnyPieces, _, _>(
            child(slot),
            0,
            child_masks,
            &reach,
            All,
            &mut counter,
        );
        nodes += counter.0;
    }
    nodes
}

/// The moves of the side to move that a quiet move of the other side can change, by part:
/// king steps and castling, sliders, pawns (its knights' moves stay, and with its checks and
/// pins known there is no en passant to count). Status `S` is the side to move's; it must
/// not be in check.
#[derive(Clone, Copy)]
struct ReplyParts {
    king: u64,
    /// Diagonal, then straight moves (a queen's in both).
    sliders: [u64; 2],
    pawns: u64,
    knights: u64,
}

impl ReplyParts {
    /// The parts; the sliders' from `squares` unless one is pinned.
    #[inline(always)]
    fn count<S: StatusFlags, B: Engine>(
        board: &Board,
        masks: &LegalMasks,
        squares: &ReplySquares,
        steps: &PawnSteps,
    ) -> ReplyParts {
        let us = Color::from_white(S::WHITE);
        let queens = board.bits(us, Piece::Queen);
        let sliders = board.bits(us, Piece::Bishop) | board.bits(us, Piece::Rook) | queens;
        // The reply squares summed the sliders' moves with no pin and no checkmask: exact
        // unless one is pinned (this side is never in check with its opponent to move;
        // the test costs nothing and keeps the count exact if it were).
        let pinned = sliders & (masks.pin_hv | masks.pin_diag);
        ReplyParts {
            king: Self::king::<S, B>(board, masks, &squares.king_reach),
            sliders: if pinned | masks.checkers == 0 {
                squares.slider_moves
            } else {
                [
                    Self::sliders::<S, B, true>(board, masks),
                    Self::sliders::<S, B, false>(board, masks),
                ]
            },
            pawns: steps.moves::<S>(board, masks.checkmask).count::<S>(),
            knights: knight_count(board, us, masks),
        }
    }

    #[inline(always)]
    fn total(&self) -> u64 {
        self.king + self.sliders[0] + self.sliders[1] + self.pawns + self.knights
    }

    #[inline(always)]
    fn king<S: StatusFlags, B: Engine>(
        board: &Board,
        masks: &LegalMasks,
        reach: &AttackReach,
    ) -> u64 {
        let king_bit = board.bits(Color::from_white(S::WHITE), Piece::King);
        let without_king = board.occupied_bits() ^ king_bit;
        king_moves::<S, B, AnyPieces>(board, false, without_king, masks.pin_hv, reach, [true; 2])
            .count()
    }

    /// The moves of the sliders along one kind of ray: if `DIAGONAL`, the bishops' and the
    /// queens' diagonal moves, else the rooks' and the queens' straight ones. A slider pinned
    /// on the other kind of line has none; one pinned on this kind keeps those along it.
    #[inline(always)]
    fn sliders<S: StatusFlags, B: Engine, const DIAGONAL: bool>(
        board: &Board,
        masks: &LegalMasks,
    ) -> u64 {
        let us = Color::from_white(S::WHITE);
        let movable = !board.color_bits(us) & masks.checkmask;
        let occupied = board.occupied_bits();
        let (kind, pin) = if DIAGONAL {
            (Piece::Bishop, masks.pin_diag)
        } else {
            (Piece::Rook, masks.pin_hv)
        };
        let rays = |from| {
            if DIAGONAL {
                B::bishop(from, occupied)
            } else {
                B::rook(from, occupied)
            }
        };
        let sliders = board.bits(us, kind) | board.bits(us, Piece::Queen);
        let mut moves = 0;
        for from in BitIter(sliders & !(masks.pin_hv | masks.pin_diag)) {
            moves += u64::from((rays(from) & movable).count_ones());
        }
        for from in BitIter(sliders & pin) {
            moves += u64::from((rays(from) & movable & pin).count_ones());
        }
        moves
    }

    #[inline(always)]
    fn pawns<S: StatusFlags>(board: &Board, masks: &LegalMasks) -> u64 {
        PawnMoves::compute::<S>(board, masks).count::<S>()
    }
}

/// What `child` changed of `parent` by a move of `mover`: the squares the mover left and
/// reached, and the square of the replier's piece it took.
#[inline(always)]
fn changed(parent: &Board, child: &Board, mover: Color) -> (u64, u64) {
    (
        child.color_bits(mover) ^ parent.color_bits(mover),
        child.color_bits(!mover) ^ parent.color_bits(!mover),
    )
}

/// Where the mover's pieces can attack the squares of the replier's king (on `king`) in
/// `child`: those of the parent `board`, and a neighbour the child captured.
#[inline(always)]
fn king_reach(
    board: &Board,
    child: &Board,
    replier: Color,
    king: usize,
    squares: &ReplySquares,
) -> AttackReach {
    let taken = board.color_bits(replier) & !child.color_bits(replier);
    let mut reach = squares.king_reach;
    for square in BitIter(taken & attacks::king(king)) {
        reach.add(square);
    }
    reach
}

/// The moves of `color`'s knights when `masks` are its legality masks.
#[inline(always)]
fn knight_count(board: &Board, color: Color, masks: &LegalMasks) -> u64 {
    let movable = !board.color_bits(color) & masks.checkmask;
    let mut moves = 0;
    knight_moves::<AnyPieces>(board, color, movable, masks, |_, targets| {
        moves += u64::from(targets.count_ones());
    });
    moves
}

/// The children of a depth-2 node that are made and counted together: the first `len`
/// slots of `children`, and with them which ones are known to leave the replier's king lines
/// alone.
/// In C's order, the changed squares before the children: after them, their stores took
/// wall time (position 6 +16%, instructions fewer; see docs/PERFORMANCE.md).
#[repr(C)]
struct Batch {
    /// The squares each child changed of the parent (when the batch marks them).
    changes: [MaybeUninit<u64>; CHILD_BUFFER],
    /// The children kept are in `children[..len]`.
    len: usize,
    /// The slots whose child changed no square on the replier's king lines (when the batch
    /// marks them; see [`Collect`]).
    known: u64,
    /// The slots whose child the replier may take en passant in (a double push beside one of
    /// its pawns; only when the batch marks changes): counted as the others, plus those
    /// captures.
    ep: u64,
    children: [MaybeUninit<Board>; CHILD_BUFFER],
}

impl Batch {
    /// The child in `slot`, one of the first `len`.
    #[inline(always)]
    fn child(&self, slot: usize) -> &Board {
        debug_assert!(slot < self.len);
        // SAFETY: `Collect::descend` wrote the first `len` slots, and callers name only those
        // (slots come from `0..len` or from `slots()`); the mask keeps the index in bounds.
        unsafe { self.children[slot & (CHILD_BUFFER - 1)].assume_init_ref() }
    }

    /// The squares the child in `slot` changed of the parent.
    #[inline(always)]
    fn changed(&self, slot: usize) -> u64 {
        debug_assert!(slot < self.len);
        // SAFETY: `Collect::descend` wrote the first `len` entries when `DENSE`, the only
        // batches whose changes are read; the mask keeps the index in bounds.
        unsafe { self.changes[slot & (CHILD_BUFFER - 1)].assume_init() }
    }

    /// The squares each child changed, in slot order.
    #[inline(always)]
    fn changes(&self) -> &[u64] {
        let len = self.len.min(CHILD_BUFFER);
        // SAFETY: `Collect::descend` wrote the first `len` entries when `DENSE`, the only
        // batches whose changes are read; `MaybeUninit<u64>` has `u64`'s layout.
        unsafe { core::slice::from_raw_parts(self.changes.as_ptr().cast::<u64>(), len) }
    }

    /// The en-passant target square of the double push in `slot` (one of [`Batch::ep`]):
    /// between the two squares it changed.
    #[inline(always)]
    fn ep_target(&self, slot: usize) -> u8 {
        let changed = self.changed(slot);
        ((changed.trailing_zeros() + 63 - changed.leading_zeros()) / 2) as u8
    }

    /// The filled slots as a set of bits.
    #[inline(always)]
    fn slots(&self) -> u64 {
        // `len` may be 0: shifting by 64 would overflow.
        u64::MAX
            .checked_shr((CHILD_BUFFER - self.len) as u32)
            .unwrap_or(0)
    }
}

/// Keeps the children the replier's count can be batched for (those whose status counts like
/// `Flip<S>`: the side flips, no en passant, the replier's rights unchanged; in dense nodes
/// also double pushes it may take en passant, [`Batch::ep`]) and counts the rest at once.
/// If `DENSE`, it also notes which children leave the replier's king lines alone (the dense
/// path's sorting; sparse nodes with a castling right or en passant share it with every
/// square on the lines, and count every child in full).
struct Collect<'a, S, B, const DENSE: bool> {
    batch: Batch,
    nodes: u64,
    /// The replier's king lines ([`ReplySquares::lines`], `leave` and `arrive`); unused
    /// unless `DENSE`. By reference: sparse nodes pass a constant and store nothing.
    squares: &'a ReplySquares,
    /// The proof that let `depth2_node` into B's entry, for the children counted at once.
    cpu: Cpu<B>,
    /// The status bits of the replier's rights the node's status holds that it does not
    /// have: cleared for the children counted at once.
    absent: u8,
    /// Whether double pushes the replier may take en passant are batched ([`Batch::ep`]):
    /// in dense nodes only, as the sparse count adds no captures.
    ep_batched: bool,
    status: PhantomData<S>,
}

impl<'a, S, B, const DENSE: bool> Collect<'a, S, B, DENSE> {
    /// An empty batch (that, if `DENSE`, notes the children leaving the king lines of
    /// `squares` alone).
    #[inline(always)]
    fn new(cpu: Cpu<B>, squares: &'a ReplySquares, absent: u8, ep_batched: bool) -> Self {
        Collect {
            batch: Batch {
                children: [const { MaybeUninit::uninit() }; CHILD_BUFFER],
                changes: [const { MaybeUninit::uninit() }; CHILD_BUFFER],
                len: 0,
                known: 0,
                ep: 0,
            },
            nodes: 0,
            squares,
            cpu,
            absent,
            ep_batched,
            status: PhantomData,
        }
    }
}

impl<S: StatusFlags, B: Engine, const DENSE: bool> Collect<'_, S, B, DENSE> {
    /// Makes a child (status `C`, en-passant square `ep`) into the batch, marked by the
    /// squares it changes and `also` (squares whose piece changed but not its colour), or
    /// counts it at once.
    #[inline(always)]
    fn batch_made<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        ep: u8,
        also: u64,
    ) {
        // Castles, promotions and en passant: made, and marked by the squares they change.
        let batch = &mut self.batch;
        if Self::counts_like_flip::<C>()
            && let Some(slot) = batch.children.get_mut(batch.len)
        {
            let child = slot.write(*parent);
            make(child);
            if DENSE {
                // Read back while the child's occupancies are still in registers.
                let (moved, captured) = changed(parent, child, Color::from_white(S::WHITE));
                let changes = moved | captured | also;
                batch.changes[batch.len & (CHILD_BUFFER - 1)].write(changes);
                batch.known |= u64::from(changes & self.squares.lines == 0) << batch.len;
            }
            batch.len += 1;
        } else {
            self.count_now::<C>(parent, make, ep);
        }
    }

    /// Counts a child (status `C`, en-passant square `ep`) at once instead of batching it.
    #[inline(always)]
    fn count_now<C: StatusFlags>(&mut self, parent: &Board, make: impl FnOnce(&mut Board), ep: u8) {
        let mut child = *parent;
        make(&mut child);
        // A status without the replier's rights has nothing absent: the test folds away.
        self.nodes += if !(S::THEIR_K || S::THEIR_Q) || self.absent == 0 {
            count_entry::<C, B>(self.cpu, &child, ep)
        } else {
            count_at::<B>(self.cpu, &child, C::INDEX & !self.absent, ep)
        };
    }
}

impl<S: StatusFlags, B: Engine, const DENSE: bool> Collect<'_, S, B, DENSE> {
    /// Whether a child of status `C` counts like the batch's (see [`Collect`]).
    #[inline(always)]
    fn counts_like_flip<C: StatusFlags>() -> bool {
        !C::EP && Self::rights_like_flip::<C>()
    }

    /// Whether a child of status `C` counts like the batch's but for en passant.
    #[inline(always)]
    fn rights_like_flip<C: StatusFlags>() -> bool {
        // Counting reads only the side to move, en passant and the mover's own rights: the
        // mover's lost rights (a king or rook move, castling) do not matter.
        C::WHITE == <Flip<S> as StatusFlags>::WHITE
            && C::OUR_K == <Flip<S> as StatusFlags>::OUR_K
            && C::OUR_Q == <Flip<S> as StatusFlags>::OUR_Q
    }
}

impl<S: StatusFlags, B: Engine, const DENSE: bool> Descend for Collect<'_, S, B, DENSE> {
    #[inline(always)]
    fn descend<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        _mv: Move,
        ep: u8,
    ) {
        self.batch_made::<C>(parent, make, ep, 0);
    }

    #[inline(always)]
    fn descend_piece<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
        ep: u8,
        piece: Piece,
    ) {
        let batch = &mut self.batch;
        // A batch that marks changes adds the en-passant captures a double push allows.
        let batched = if DENSE {
            Self::rights_like_flip::<C>() && (!C::EP || self.ep_batched)
        } else {
            Self::counts_like_flip::<C>()
        };
        if batched && let Some(slot) = batch.children.get_mut(batch.len) {
            if DENSE {
                batch.ep |= u64::from(C::EP) << batch.len;
                // A plain move or capture (or a double push no pawn can take) changes its
                // from and to squares: off the king lines it gives no check and keeps the
                // pins.
                let (from, to) = (1 << mv.from().index(), 1 << mv.to().index());
                let squares = self.squares;
                let touch = (from & squares.leave) | (to & squares.arrive[piece as usize]);
                // Made in its slot: one copy of the parent, no second copy of the child.
                make(slot.write(*parent));
                batch.changes[batch.len & (CHILD_BUFFER - 1)].write(from | to);
                batch.known |= u64::from(touch == 0) << batch.len;
            } else {
                make(slot.write(*parent));
            }
            batch.len += 1;
        } else {
            self.count_now::<C>(parent, make, ep);
        }
    }

    #[inline(always)]
    fn descend_castle<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
    ) {
        // A Chess960 castle may put the king on the rook's square or the rook on the king's:
        // that square stays occupied, so its colour does not show the change. The batch,
        // which sorts children by the squares they change, is given all four, and the
        // replier king's square, which no move reaches: what attacks the king's squares
        // changed with the piece there, so its moves are counted again. Other castles
        // change the colour of every square they touch.
        let castling = parent.castling();
        let mover = Color::from_white(S::WHITE);
        let also = if castling.is_nonstandard() {
            let squares = castling.castle_squares(mover, mv.from(), mv.to());
            if squares.king_to == squares.rook_from || squares.rook_to == mv.from() {
                squares.king_to.bit()
                    | squares.rook_from.bit()
                    | squares.rook_to.bit()
                    | mv.from().bit()
                    | parent.bits(!mover, Piece::King)
            } else {
                0
            }
        } else {
            0
        };
        self.batch_made::<C>(parent, make, 0, also);
    }
}
