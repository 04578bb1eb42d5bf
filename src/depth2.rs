//! Perft's depth-2 nodes: the parent of the leaf-parents, where nearly all of a bulk-counting
//! perft's time goes. The node's moves are sorted by what they touch of the replier's moves
//! ([`crate::reply_squares`]): untouched ones are only counted, and the children that must be
//! made are collected in one batch and counted in tight loops with the counting generator
//! inlined here, which saves a call per leaf-parent. Nodes with few pieces skip the sorting
//! and count each child through its own entry.

use crate::board::Board;
use crate::checks_and_pins::LegalMasks;
use crate::movegen::{
    Counter, PawnMoves, generate, generate_with_masks, king_moves, knight_moves, slider_moves,
};
use crate::perft::{Descend, MakeChildren, perft_child};
use crate::reply_squares::{ReplySquares, SkipUntouched};
use crate::slider::SliderBackend;
use crate::status::{Flip, StatusFlags};
use crate::types::{Color, Piece};
use crate::visitor::VisitSink;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use static_assertions::const_assert;

/// Room for the children of one position; a position with more legal moves (only
/// constructed ones have) sends the excess through calls.
const CHILD_BUFFER: usize = 256;

/// Below this many pieces on the board a depth-2 node counts all its children in full.
const SPARSE: u32 = 16;

/// The body of the depth-2 entry: the leaf count below `board` (status `S`, en-passant square
/// `ep`).
#[inline(always)]
pub(crate) fn depth2_node<S: StatusFlags, B: SliderBackend>(board: &Board, ep: u8) -> u64 {
    if board.occupied_bits().count_ones() < SPARSE {
        // Few pieces: most moves touch the replier's moves, and sorting them costs more than
        // it saves. Count every child through its own entry.
        return crate::perft::children::<S, B>(board, ep, 1);
    }
    let mut collect = MakeChildren(Collect::<S, B> {
        children: [const { MaybeUninit::uninit() }; CHILD_BUFFER],
        len: 0,
        nodes: 0,
        marker: PhantomData,
    });
    let squares = ReplySquares::compute::<S, B>(board);
    let mut split = SkipUntouched {
        inner: VisitSink(&mut collect),
        squares,
        empty: !board.occupied_bits(),
        untouched: 0,
    };
    generate::<S, B, _>(board, ep, &mut split);
    let untouched = split.untouched;

    // By reference: moving the batch out would copy all of it.
    let batch = &collect.0;
    batch.nodes + count_batch::<S, B>(board, untouched, batch, &squares)
}

/// The part lists of [`count_batch`]: which children must have a part counted again.
const KING: usize = 0;
const SLIDERS: usize = 1;
const PAWNS: usize = 2;
const KNIGHTS: usize = 3;
/// Children counted in full.
const FULL: usize = 4;
/// Children known to keep the parent's masks, and those whose masks must be computed to
/// find out.
const KNOWN: usize = 5;
const UNKNOWN: usize = 6;

/// Room per list: a power of two above [`CHILD_BUFFER`], so a masked index is always in
/// bounds and the pushes need no bounds check.
const LIST_ROOM: usize = 2 * CHILD_BUFFER;
const_assert!(LIST_ROOM.is_power_of_two() && LIST_ROOM > CHILD_BUFFER);

/// The slot lists ([`KING`] .. [`UNKNOWN`]), filled without branches: every push writes,
/// and only the ones that belong advance their list.
struct PartLists {
    slots: [[MaybeUninit<u8>; LIST_ROOM]; 7],
    lens: [usize; 7],
}

impl PartLists {
    #[inline(always)]
    fn new() -> PartLists {
        PartLists {
            // Uninitialised: zeroing them would cost more than filling them.
            slots: [[MaybeUninit::uninit(); LIST_ROOM]; 7],
            lens: [0; 7],
        }
    }

    #[inline(always)]
    fn push(&mut self, list: usize, slot: usize, yes: bool) {
        let len = self.lens[list];
        // Slots are below CHILD_BUFFER = 256, so one fits a byte.
        self.slots[list][len & (LIST_ROOM - 1)].write(slot as u8);
        self.lens[list] = len + usize::from(yes);
    }

    #[inline(always)]
    fn len(&self, list: usize) -> usize {
        self.lens[list]
    }

    /// The slot at `index` of list `list`.
    ///
    /// # Safety
    /// `index` must be below the list's length.
    #[inline(always)]
    unsafe fn get(&self, list: usize, index: usize) -> usize {
        // SAFETY: `push` wrote every entry below the list's length (the caller's bound),
        // and a list is pushed at most once per slot, so the length stays below LIST_ROOM.
        usize::from(unsafe { self.slots[list][index & (LIST_ROOM - 1)].assume_init() })
    }

    /// Files a child with the parent's masks (`same`) under the parts whose zones
    /// (`zones`: king, sliders, pawns) its changed squares touch, and under the knights
    /// when it captured; one without under the full count.
    #[inline(always)]
    fn sort(&mut self, slot: usize, moved: u64, captured: u64, zones: &[u64; 3], same: bool) {
        // Masks, not `&&`: a short circuit here becomes a branch on `same`, which varies
        // from child to child.
        let gate = u64::from(same).wrapping_neg();
        let (changed, captured) = ((moved | captured) & gate, captured & gate);
        for (part, zone) in zones.iter().enumerate() {
            self.push(part, slot, changed & zone != 0);
        }
        self.push(KNIGHTS, slot, captured != 0);
        self.push(FULL, slot, !same);
    }
}

/// The replier's moves in the `untouched` children and in the batch's, all children of
/// `board` (status `S`).
///
/// A child whose replier is not in check and keeps the parent's pins has the replier's count
/// on `board` with the turn passed, but for the parts ([`ReplyParts`]) on whose squares a
/// piece arrived or left: only those are counted again on the child. Children that change no
/// square on the replier's king lines are known to be such children; the others' masks are
/// computed to find out, and the rest are counted in full.
#[inline(always)]
fn count_batch<S: StatusFlags, B: SliderBackend>(
    board: &Board,
    untouched: u64,
    batch: &Collect<S, B>,
    squares: &ReplySquares,
) -> u64 {
    if untouched == 0 && batch.len == 0 {
        return 0;
    }
    let replier = Color::from_white(!S::WHITE);
    let mover = !replier;
    let king = board.bits(replier, Piece::King).trailing_zeros() as usize;
    let masks = LegalMasks::compute::<B>(board, replier, king);
    let passed = ReplyParts::count::<Flip<S>, B>(board, &masks);
    let passed_total = passed.total();
    let mut nodes = untouched * passed_total;

    // Lists of slot indices by what must be counted again, filled without branches: it
    // varies from child to child, and a branch on it would be mispredicted.
    let zones = [squares.king, squares.sliders, squares.pawns];
    let mut lists = PartLists::new();
    // The masks of the children counted in full, kept for their count.
    let mut full_masks = [const { MaybeUninit::<LegalMasks>::uninit() }; CHILD_BUFFER];
    let child = |slot: usize| {
        // SAFETY: `Collect::descend` wrote the first `len` slots, and only those are named.
        unsafe { batch.children[slot].assume_init_ref() }
    };
    let replier_pieces = board.color_bits(replier);
    let mover_pieces = board.color_bits(mover);
    // What a child changed: the mover's squares it left and reached, and the replier's piece
    // it took.
    let changed = |child: &Board| {
        (
            child.color_bits(mover) ^ mover_pieces,
            child.color_bits(replier) ^ replier_pieces,
        )
    };

    // A child that changes no square on the replier's king lines gives no check and keeps
    // its pins; the others' masks are computed to find out.
    for slot in 0..batch.len {
        let (moved, captured) = changed(child(slot));
        let known = (moved | captured) & squares.lines == 0;
        lists.push(KNOWN, slot, known);
        lists.push(UNKNOWN, slot, !known);
    }
    for index in 0..lists.len(KNOWN) {
        // SAFETY: `index` is below the list's length.
        let slot = unsafe { lists.get(KNOWN, index) };
        let (moved, captured) = changed(child(slot));
        lists.sort(slot, moved, captured, &zones, true);
    }
    let mut same = lists.len(KNOWN) as u64;
    for index in 0..lists.len(UNKNOWN) {
        // SAFETY: `index` is below the list's length.
        let slot = unsafe { lists.get(UNKNOWN, index) };
        let child_masks = LegalMasks::compute::<B>(child(slot), replier, king);
        full_masks[slot].write(child_masks);
        let keeps = (child_masks.checkers == 0)
            & (child_masks.pin_hv == masks.pin_hv)
            & (child_masks.pin_diag == masks.pin_diag);
        let (moved, captured) = changed(child(slot));
        lists.sort(slot, moved, captured, &zones, keeps);
        same += u64::from(keeps);
    }
    nodes += same * passed_total;
    let lists = &lists;
    let list = |list: usize| {
        (0..lists.len(list)).map(move |index| {
            // SAFETY: `index` is below the list's length.
            unsafe { lists.get(list, index) }
        })
    };

    for slot in list(KING) {
        let king = ReplyParts::king::<Flip<S>, B>(child(slot));
        nodes = nodes.wrapping_add(king) - passed.king;
    }
    for slot in list(SLIDERS) {
        let sliders = ReplyParts::sliders::<Flip<S>, B>(child(slot), &masks);
        nodes = nodes.wrapping_add(sliders) - passed.sliders;
    }
    for slot in list(PAWNS) {
        let pawns = ReplyParts::pawns::<Flip<S>>(child(slot), &masks);
        nodes = nodes.wrapping_add(pawns) - passed.pawns;
    }
    for slot in list(KNIGHTS) {
        let knights = knight_count(child(slot), replier, &masks);
        nodes = nodes.wrapping_add(knights) - passed.knights;
    }
    for slot in list(FULL) {
        // SAFETY: only children whose masks were computed are counted in full.
        let child_masks = unsafe { full_masks[slot].assume_init_ref() };
        let mut counter = Counter(0);
        // No en passant: the batch holds only children whose status has none.
        generate_with_masks::<Flip<S>, B, _>(child(slot), 0, child_masks, &mut counter);
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
    sliders: u64,
    pawns: u64,
    knights: u64,
}

impl ReplyParts {
    #[inline(always)]
    fn count<S: StatusFlags, B: SliderBackend>(board: &Board, masks: &LegalMasks) -> ReplyParts {
        ReplyParts {
            king: Self::king::<S, B>(board),
            sliders: Self::sliders::<S, B>(board, masks),
            pawns: Self::pawns::<S>(board, masks),
            knights: knight_count(board, Color::from_white(S::WHITE), masks),
        }
    }

    #[inline(always)]
    fn total(&self) -> u64 {
        self.king + self.sliders + self.pawns + self.knights
    }

    #[inline(always)]
    fn king<S: StatusFlags, B: SliderBackend>(board: &Board) -> u64 {
        let king_bit = board.bits(Color::from_white(S::WHITE), Piece::King);
        king_moves::<S, B>(board, false, board.occupied_bits() ^ king_bit).count()
    }

    #[inline(always)]
    fn sliders<S: StatusFlags, B: SliderBackend>(board: &Board, masks: &LegalMasks) -> u64 {
        let us = Color::from_white(S::WHITE);
        let movable = !board.color_bits(us) & masks.checkmask;
        let mut moves = 0;
        slider_moves::<B>(board, us, movable, masks, |_, _, targets| {
            moves += u64::from(targets.count_ones());
        });
        moves
    }

    #[inline(always)]
    fn pawns<S: StatusFlags>(board: &Board, masks: &LegalMasks) -> u64 {
        PawnMoves::compute::<S>(board, masks).count::<S>()
    }
}

/// The moves of `color`'s knights when `masks` are its legality masks.
#[inline(always)]
fn knight_count(board: &Board, color: Color, masks: &LegalMasks) -> u64 {
    let movable = !board.color_bits(color) & masks.checkmask;
    let mut moves = 0;
    knight_moves(board, color, movable, masks, |_, targets| {
        moves += u64::from(targets.count_ones());
    });
    moves
}

/// Keeps the children the replier's count can be batched for (those whose status counts like
/// `Flip<S>`: the side flips, no en passant, the replier's rights unchanged) and counts the
/// rest at once.
struct Collect<S, B> {
    children: [MaybeUninit<Board>; CHILD_BUFFER],
    /// The children kept are in `children[..len]`.
    len: usize,
    nodes: u64,
    marker: PhantomData<(S, B)>,
}

impl<S: StatusFlags, B: SliderBackend> Descend for Collect<S, B> {
    #[inline(always)]
    fn descend<C: StatusFlags>(&mut self, parent: &Board, make: impl FnOnce(&mut Board), ep: u8) {
        // Counting reads only the side to move, en passant and the mover's own rights: the
        // mover's lost rights (a king or rook move, castling) do not matter.
        let counts_like_flip = !C::EP
            && C::WHITE == <Flip<S> as StatusFlags>::WHITE
            && C::OUR_K == <Flip<S> as StatusFlags>::OUR_K
            && C::OUR_Q == <Flip<S> as StatusFlags>::OUR_Q;
        if counts_like_flip && let Some(slot) = self.children.get_mut(self.len) {
            // Made in its slot: one copy of the parent, no second copy of the child.
            make(slot.write(*parent));
            self.len += 1;
        } else {
            self.nodes += perft_child::<C, B>(parent, make, ep, 1);
        }
    }
}
