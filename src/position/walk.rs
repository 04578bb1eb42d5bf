//! The public recursive walk: a caller's own tree search on the monomorphised generator.
//!
//! [`Position::walk`] picks the engine once (PEXT or magics) and hands the caller's [`Walk`]
//! the root [`Node`] and that engine as a type `G: Generator`. From there the caller's code
//! runs each node's moves through `G` ([`Generator::children`], [`Generator::visit`],
//! [`Generator::count_moves`]); each child arrives as a `Node<C>` whose status `C` is a type,
//! so recursion needs no runtime status and every node runs inside the engine's entry with
//! the caller's code inlined into the generator.
//!
//! Correctness rests on two facts: a node carries the proof that the CPU runs the walk's
//! engine (the `Cpu` its entries need), and a `Node<S>` is only built by this crate, from a
//! board whose status is `S`.
//!
//! Kept as one file over 600 lines: one concept, the public walk; `Node`, `Children`,
//! `Walk` and `Generator` are its sealed, co-designed parts.

use crate::base::board::Board;
use crate::base::chess_move::Move;
use crate::base::status::StatusFlags;
use crate::base::types::{Bitboard, Color, Square};
use crate::count::leaf::count_entry;
use crate::generator::children::{Descend, MakeChildren};
use crate::generator::entry::{Engine, RootOp, at_root};
use crate::generator::movegen::{All, Filter};
use crate::generator::visitor::{VisitOp, Visitor};
use crate::position::Position;
use crate::position::castling::CastlingRights;
use crate::position::moves::MoveMask;
use crate::position::queries::checkers_on;
use crate::slider::{Backend, BackendUnavailable, Cpu, Resolved};
use core::marker::PhantomData;

/// A node of the move tree: a board whose status (side to move, en passant, castling rights)
/// is the type `S`. Only the crate builds nodes, from [`Position::walk`] and for each child
/// in [`Generator::children`], so a node's board always matches its status.
pub struct Node<'a, S> {
    board: &'a Board,
    ep: u8,
    /// The engine of the walk, as a value: `to_position` hands it on without asking the CPU.
    engine: Resolved,
    status: PhantomData<S>,
}

impl<S> Clone for Node<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Node<'_, S> {}

impl<'a, S: StatusFlags> Node<'a, S> {
    #[inline(always)]
    fn new(board: &'a Board, ep: u8, engine: Resolved) -> Self {
        Node {
            board,
            ep,
            engine,
            status: PhantomData,
        }
    }

    /// The proof that this CPU runs engine `B`, the walk's: the one the node holds (the
    /// crate makes every node with it, so this folds away where the caller's code is
    /// inlined), or asked again for a node carried into a walk on another engine.
    #[inline(always)]
    fn cpu<B: Engine>(&self) -> Cpu<B> {
        match self.engine.proof::<B>() {
            Some(cpu) => cpu,
            None => check_again::<B>(),
        }
    }

    /// The pieces.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Occupied;
    /// impl Walk for Occupied {
    ///     type Output = u32;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u32 {
    ///         root.board().occupied().count()
    ///     }
    /// }
    /// assert_eq!(Position::startpos().walk(Occupied), 32);
    /// ```
    #[inline(always)]
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The side to move (`S::WHITE`, as a value).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Color, Position};
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Turn;
    /// impl Walk for Turn {
    ///     type Output = Color;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Color {
    ///         root.side_to_move()
    ///     }
    /// }
    /// assert_eq!(Position::startpos().walk(Turn), Color::White);
    /// ```
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        Color::from_white(S::WHITE)
    }

    /// The square a pawn can take en passant on, if any (only when `S::EP`).
    ///
    /// # Examples
    /// ```
    /// use constmove::{Position, Square};
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Ep;
    /// impl Walk for Ep {
    ///     type Output = Option<Square>;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Option<Square> {
    ///         root.ep_square()
    ///     }
    /// }
    /// let pos: Position = "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2".parse().unwrap();
    /// assert_eq!(pos.walk(Ep), Some("e6".parse().unwrap()));
    /// ```
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        if S::EP { Square::new(self.ep) } else { None }
    }

    /// The castling rights (`S::WK` … `S::BQ`, as a value).
    ///
    /// # Examples
    /// ```
    /// use constmove::{CastlingRights, Position};
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Rights;
    /// impl Walk for Rights {
    ///     type Output = CastlingRights;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> CastlingRights {
    ///         root.castling_rights()
    ///     }
    /// }
    /// assert_eq!(Position::startpos().walk(Rights).to_string(), "KQkq");
    /// ```
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        CastlingRights::from_bits(S::INDEX >> 2)
    }

    /// The pieces giving check to the side to move (empty when not in check).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Checkers;
    /// impl Walk for Checkers {
    ///     type Output = u32;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u32 {
    ///         root.checkers().count()
    ///     }
    /// }
    /// let pos: Position = "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.walk(Checkers), 2);
    /// ```
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        Bitboard(checkers_on(self.board, Color::from_white(S::WHITE)))
    }

    /// Whether the side to move is in check.
    ///
    /// # Examples
    /// Mates one ply below a node: children in check with no move (the wiki lists 8 at
    /// depth 4 of the start position, so 8 children of the depth-3 nodes).
    /// ```
    /// use constmove::{Move, Position};
    /// use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
    /// use core::marker::PhantomData;
    ///
    /// struct Mates<G> { plies_left: u32, mates: u64, engine: PhantomData<G> }
    /// impl<G: Generator> Children for Mates<G> {
    ///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
    ///         if self.plies_left == 1 {
    ///             self.mates += (child.is_check() && G::count_moves(child) == 0) as u64;
    ///         } else {
    ///             self.plies_left -= 1;
    ///             G::children(child, self);
    ///             self.plies_left += 1;
    ///         }
    ///     }
    /// }
    /// struct MatesAt(u32);
    /// impl Walk for MatesAt {
    ///     type Output = u64;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
    ///         let mut mates = Mates::<G> { plies_left: self.0, mates: 0, engine: PhantomData };
    ///         G::children(root, &mut mates);
    ///         mates.mates
    ///     }
    /// }
    /// assert_eq!(Position::startpos().walk(MatesAt(4)), 8);
    /// ```
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// The node as a [`Position`] (halfmove clock 0, fullmove number 1): for the queries and
    /// text a walk needs now and then. It computes the Zobrist key from scratch; keep it off
    /// the hot path.
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Fen;
    /// impl Walk for Fen {
    ///     type Output = String;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> String {
    ///         root.to_position().to_string()
    ///     }
    /// }
    /// let pos: Position = "4k3/8/8/8/8/8/8/4K2R w K - 3 9".parse().unwrap();
    /// assert_eq!(pos.walk(Fen), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// ```
    pub fn to_position(&self) -> Position {
        Position::from_parts(
            *self.board,
            self.side_to_move(),
            self.castling_rights(),
            self.ep_square(),
            self.engine,
        )
    }
}

/// Receives the children of a node from [`Generator::children`].
///
/// Implementations should be `#[inline(always)]`: the method is inlined into the generator,
/// once per child status.
///
/// A search cuts a node off by overriding [`Children::is_cut`]: once it returns `true`,
/// [`Generator::children`] makes no further child of the node it is walking (the remaining
/// moves are passed over unmade).
pub trait Children {
    /// `child` is the node after `mv` (castling as [`Move`] writes it: `e1g1`, or `e1h1` in
    /// Chess960).
    fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, mv: Move);

    /// Asked before each child is made: `true` stops [`Generator::children`] making the
    /// node's remaining children (a beta cut-off). The default never cuts, at no cost.
    /// One `Children` value often serves every level of a recursion: clear the flag behind
    /// it when a child's own walk returns, so the cut-off there does not stop the parent.
    ///
    /// # Examples
    /// Stop after the first child that gives check:
    /// ```
    /// use constmove::{Move, Position};
    /// use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
    ///
    /// #[derive(Default)]
    /// struct FirstCheck { made: u32, found: Option<Move> }
    /// impl Children for FirstCheck {
    ///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, mv: Move) {
    ///         self.made += 1;
    ///         if child.is_check() {
    ///             self.found = Some(mv);
    ///         }
    ///     }
    ///     fn is_cut(&self) -> bool {
    ///         self.found.is_some()
    ///     }
    /// }
    /// struct Search;
    /// impl Walk for Search {
    ///     type Output = (u32, Option<Move>);
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> (u32, Option<Move>) {
    ///         let mut first = FirstCheck::default();
    ///         G::children(root, &mut first);
    ///         (first.made, first.found)
    ///     }
    /// }
    /// let pos: Position = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
    /// let (made, found) = pos.walk(Search);
    /// let all = pos.legal_moves();
    /// let first = all.iter().position(|&mv| {
    ///     let mut child = pos.clone();
    ///     child.play_unchecked(mv);
    ///     child.is_check()
    /// });
    /// assert_eq!(found, first.map(|i| all[i])); // the first check, in generation order
    /// assert_eq!(made as usize, first.unwrap() + 1); // and no child after it
    /// ```
    #[inline(always)]
    fn is_cut(&self) -> bool {
        false
    }
}

/// The caller's work at the root of a walk: [`Position::walk`] calls `walk` with the root
/// node and the engine it chose.
pub trait Walk {
    /// What the walk returns.
    type Output;
    /// Walks the tree below `root` with engine `G`.
    fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> Self::Output;
}

mod sealed {
    /// Only the crate's engines are generators.
    pub trait Sealed {}
}

impl<B: Engine> sealed::Sealed for B {}

/// An engine of the generator (PEXT or magic sliders, compiled with its CPU features), as a
/// type. A walk gets it from [`Position::walk`]; it cannot be named or implemented outside
/// the crate. Each method runs one node inside the engine's entry, with the caller's visitor
/// inlined.
///
/// # Examples
/// A bulk-counting perft, as `examples/visitor_perft.rs` writes it:
/// ```
/// use constmove::{Move, Position};
/// use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
/// use core::marker::PhantomData;
///
/// struct Count<G> { depth: u32, nodes: u64, engine: PhantomData<G> }
///
/// impl<G: Generator> Children for Count<G> {
///     #[inline(always)]
///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
///         if self.depth == 1 {
///             self.nodes += G::count_moves(child); // the last ply by popcounts
///         } else {
///             self.depth -= 1;
///             G::children(child, self);
///             self.depth += 1;
///         }
///     }
/// }
///
/// struct Perft(u32); // depth ≥ 2
///
/// impl Walk for Perft {
///     type Output = u64;
///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
///         let mut count = Count::<G> { depth: self.0 - 1, nodes: 0, engine: PhantomData };
///         G::children(root, &mut count);
///         count.nodes
///     }
/// }
///
/// assert_eq!(Position::startpos().walk(Perft(4)), 197_281);
/// ```
pub trait Generator: sealed::Sealed {
    /// Hands `node`'s children, each with its move, to `children`.
    fn children<S: StatusFlags, W: Children>(node: Node<'_, S>, children: &mut W);
    /// [`Generator::children`] for the moves `mask` lets through only, in the same order:
    /// a quiescence search's captures, the replies onto one square. The generator skips
    /// the pieces and squares the mask rules out (see [`MoveMask`]).
    ///
    /// # Examples
    /// Captures along the line until none is left (a capture-only tree's size):
    /// ```
    /// use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
    /// use constmove::{Move, MoveMask, Position};
    /// use core::marker::PhantomData;
    ///
    /// struct Captures<G> { nodes: u64, engine: PhantomData<G> }
    /// impl<G: Generator> Children for Captures<G> {
    ///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
    ///         self.nodes += 1;
    ///         G::children_masked(child, MoveMask::NOISY, self);
    ///     }
    /// }
    /// struct CaptureTree;
    /// impl Walk for CaptureTree {
    ///     type Output = u64;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
    ///         let mut tree = Captures::<G> { nodes: 0, engine: PhantomData };
    ///         G::children_masked(root, MoveMask::NOISY, &mut tree);
    ///         tree.nodes
    ///     }
    /// }
    /// // The same by listing captures and playing them.
    /// fn by_list(pos: &Position) -> u64 {
    ///     pos.legal_moves_masked(MoveMask::NOISY).iter().map(|&mv| {
    ///         let mut child = pos.clone();
    ///         child.play_unchecked(mv);
    ///         1 + by_list(&child)
    ///     }).sum()
    /// }
    /// let pos: Position = "4k3/8/3p1p2/4n3/3P1P2/8/8/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.walk(CaptureTree), by_list(&pos));
    /// assert!(pos.walk(CaptureTree) >= 2);
    /// ```
    fn children_masked<S: StatusFlags, W: Children>(
        node: Node<'_, S>,
        mask: MoveMask,
        children: &mut W,
    );
    /// Hands `node`'s legal moves to `visitor`, one method per kind of move.
    fn visit<S: StatusFlags, V: Visitor>(node: Node<'_, S>, visitor: &mut V);
    /// [`Generator::visit`] for the moves `mask` lets through only, in the same order: an
    /// engine's ordering pass over a node's captures before it makes the best first.
    ///
    /// # Examples
    /// ```
    /// use constmove::walk::{Generator, Node, StatusFlags, Visitor, Walk};
    /// use constmove::{Board, MoveMask, Position, Square};
    ///
    /// struct Count(u32);
    /// impl Visitor for Count {
    ///     fn pawn_capture<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) {
    ///         self.0 += 1;
    ///     }
    ///     fn knight<C: StatusFlags>(&mut self, _: &Board, _: Square, _: Square) {
    ///         self.0 += 1;
    ///     }
    /// }
    /// struct Noisy;
    /// impl Walk for Noisy {
    ///     type Output = u32;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u32 {
    ///         let mut count = Count(0);
    ///         G::visit_masked(root, MoveMask::NOISY, &mut count);
    ///         count.0
    ///     }
    /// }
    /// // e4xd5 and Nc3xd5; the quiet pawn and knight moves are not generated.
    /// let pos: Position = "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1".parse().unwrap();
    /// assert_eq!(pos.walk(Noisy), 2);
    /// ```
    fn visit_masked<S: StatusFlags, V: Visitor>(node: Node<'_, S>, mask: MoveMask, visitor: &mut V);
    /// The number of `node`'s legal moves, by popcounts: no move is made or listed.
    fn count_moves<S: StatusFlags>(node: Node<'_, S>) -> u64;
}

impl<B: Engine> Generator for B {
    #[inline(always)]
    fn children<S: StatusFlags, W: Children>(node: Node<'_, S>, children: &mut W) {
        children_within::<S, B, W, All>(node, All, children);
    }

    #[inline(always)]
    fn children_masked<S: StatusFlags, W: Children>(
        node: Node<'_, S>,
        mask: MoveMask,
        children: &mut W,
    ) {
        children_within::<S, B, W, _>(node, mask.filter(), children);
    }

    #[inline(always)]
    fn visit<S: StatusFlags, V: Visitor>(node: Node<'_, S>, visitor: &mut V) {
        let op = VisitOp::<S, V> {
            board: node.board,
            ep: node.ep,
            visitor,
            filter: All,
            status: PhantomData,
        };
        B::enter(node.cpu::<B>(), op)
    }

    #[inline(always)]
    fn visit_masked<S: StatusFlags, V: Visitor>(
        node: Node<'_, S>,
        mask: MoveMask,
        visitor: &mut V,
    ) {
        let op = VisitOp::<S, V, _> {
            board: node.board,
            ep: node.ep,
            visitor,
            filter: mask.filter(),
            status: PhantomData,
        };
        B::enter(node.cpu::<B>(), op)
    }

    #[inline(always)]
    fn count_moves<S: StatusFlags>(node: Node<'_, S>) -> u64 {
        count_entry::<S, B>(node.cpu::<B>(), node.board, node.ep)
    }
}

/// [`Node::cpu`] for a node of another engine's walk.
#[cold]
#[inline(never)]
fn check_again<B: Engine>() -> Cpu<B> {
    match Cpu::check() {
        Some(cpu) => cpu,
        None => unreachable!("a walk names only engines this CPU was checked for"),
    }
}

/// [`Generator::children`] of the moves `filter` lets through.
#[inline(always)]
fn children_within<S: StatusFlags, B: Engine, W: Children, F: Filter>(
    node: Node<'_, S>,
    filter: F,
    children: &mut W,
) {
    let cpu = node.cpu::<B>();
    let mut make = MakeChildren(ToChildren { children, cpu });
    let op = VisitOp::<S, _, F> {
        board: node.board,
        ep: node.ep,
        visitor: &mut make,
        filter,
        status: PhantomData,
    };
    B::enter(cpu, op)
}

/// Makes each child's node for a [`Children`].
struct ToChildren<'a, W, B> {
    children: &'a mut W,
    /// The walk's engine, handed to each child (as a constant of the entry).
    cpu: Cpu<B>,
}

impl<W: Children, B: Engine> Descend for ToChildren<'_, W, B> {
    #[inline(always)]
    fn descend<C: StatusFlags>(
        &mut self,
        parent: &Board,
        make: impl FnOnce(&mut Board),
        mv: Move,
        ep: u8,
    ) {
        if self.children.is_cut() {
            return;
        }
        let mut child = *parent;
        make(&mut child);
        self.children
            .child::<C>(Node::new(&child, ep, Resolved::of(self.cpu)), mv);
    }
}

/// The body of [`Position::walk`] and [`Position::walk_with`].
pub(crate) fn walk<W: Walk>(position: &Position, resolved: Resolved, walk: W) -> W::Output {
    at_root(
        resolved,
        position.status_index(),
        WalkRoot {
            board: &position.board,
            ep: position.ep_index(),
            walk,
        },
    )
}

/// [`walk`] once the engine and status are known.
struct WalkRoot<'a, W> {
    board: &'a Board,
    ep: u8,
    walk: W,
}

impl<W: Walk> RootOp for WalkRoot<'_, W> {
    type Output = W::Output;
    fn run<S: StatusFlags, B: Engine>(self, cpu: Cpu<B>) -> W::Output {
        self.walk
            .walk::<S, B>(Node::new(self.board, self.ep, Resolved::of(cpu)))
    }
}

impl Position {
    /// Runs the caller's own walk of the move tree on the fastest engine for this CPU: `walk`
    /// gets the root [`Node`] and the engine as a type `G`, and recurses through
    /// [`Generator::children`] with every child's status known at compile time. This is the
    /// generator's own speed, with the caller's code inlined into it: see [`Generator`] for a
    /// perft written this way, and `examples/` for two complete programs.
    ///
    /// # Examples
    /// The most legal moves of any position two plies from the start:
    /// ```
    /// use constmove::{Move, Position};
    /// use constmove::walk::{Children, Generator, Node, StatusFlags, Walk};
    /// use core::marker::PhantomData;
    ///
    /// struct Most<G>(u64, PhantomData<G>);
    /// impl<G: Generator> Children for Most<G> {
    ///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
    ///         self.0 = self.0.max(G::count_moves(child));
    ///     }
    /// }
    /// struct Grandchildren<'a, G>(&'a mut Most<G>);
    /// impl<G: Generator> Children for Grandchildren<'_, G> {
    ///     fn child<C: StatusFlags>(&mut self, child: Node<'_, C>, _: Move) {
    ///         G::children(child, self.0);
    ///     }
    /// }
    /// struct MostAfterTwo;
    /// impl Walk for MostAfterTwo {
    ///     type Output = u64;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
    ///         let mut most = Most::<G>(0, PhantomData);
    ///         G::children(root, &mut Grandchildren(&mut most));
    ///         most.0
    ///     }
    /// }
    /// // The same by listing and playing every move.
    /// let start = Position::startpos();
    /// let mut most = 0;
    /// for first in start.legal_moves().iter() {
    ///     let mut child = start.clone();
    ///     child.play_unchecked(*first);
    ///     for second in child.legal_moves().iter() {
    ///         let mut grandchild = child.clone();
    ///         grandchild.play_unchecked(*second);
    ///         most = most.max(grandchild.legal_moves().len() as u64);
    ///     }
    /// }
    /// assert_eq!(start.walk(MostAfterTwo), most);
    /// ```
    pub fn walk<W: Walk>(&self, walk: W) -> W::Output {
        self::walk(self, self.engine, walk)
    }

    /// This position, with every later call on it and on the positions played from it
    /// (`legal_moves`, `play`, `walk`, `perft`, …) run on `backend`: for measurements that
    /// must not depend on which engine the CPU would pick. An error when this CPU cannot run
    /// it.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, Position};
    /// let pos = Position::startpos().with_backend(Backend::Magic).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 20);
    /// ```
    pub fn with_backend(mut self, backend: Backend) -> Result<Position, BackendUnavailable> {
        self.engine = Resolved::new(backend)?;
        Ok(self)
    }

    /// [`Position::walk`] on a chosen backend; an error when this CPU cannot run it.
    ///
    /// # Examples
    /// ```
    /// use constmove::{Backend, Position};
    /// use constmove::walk::{Generator, Node, StatusFlags, Walk};
    ///
    /// struct Moves;
    /// impl Walk for Moves {
    ///     type Output = u64;
    ///     fn walk<S: StatusFlags, G: Generator>(self, root: Node<'_, S>) -> u64 {
    ///         G::count_moves(root)
    ///     }
    /// }
    /// assert_eq!(Position::startpos().walk_with(Moves, Backend::Magic), Ok(20));
    /// ```
    pub fn walk_with<W: Walk>(
        &self,
        walk: W,
        backend: Backend,
    ) -> Result<W::Output, BackendUnavailable> {
        Ok(self::walk(self, Resolved::new(backend)?, walk))
    }
}
