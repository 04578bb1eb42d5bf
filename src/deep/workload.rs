//! Work units for counting on many machines: [`split`] cuts a perft into the unique positions
//! a few plies below the root, each with its multiplicity and remaining depth, and
//! [`WorkUnit`] reads and writes them as EPD lines (`<fen> ;count N ;depth D`). The perft of
//! the root is the sum of `count × perft(position, depth)` over the units.
//!
//! Over 600 lines only with its tests (under 480 without): one concept, the work unit, its
//! split and its text form.

use crate::base::board::Board;
use crate::base::chess_move::Move;
use crate::base::types::{Color, Square};
use crate::deep::hash_table::position_key;
use crate::position::Position;
use crate::position::castling::CastlingRights;
use crate::position::fen::FenError;
use std::collections::HashMap;
use std::fmt;

/// One unit of work: `count` paths from the root reach `position`, whose subtree is counted
/// `depth` plies deep.
///
/// As text it is one EPD line, `<fen> ;count N ;depth D`: the FEN as [`Position`]'s
/// `Display` writes it, then the two operations in any order, each exactly once, with plain
/// digits as values. Other `;` operations are ignored, so a line may carry an `;id`.
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// use constmove::deep::WorkUnit;
/// let unit: WorkUnit = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;count 3 ;depth 2".parse().unwrap();
/// assert_eq!((unit.count, unit.depth), (3, 2));
/// assert_eq!(unit.count * perft(&unit.position, unit.depth), 3 * 66);
/// assert_eq!(unit.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;count 3 ;depth 2");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WorkUnit {
    /// The position to count from.
    pub position: Position,
    /// How many move sequences from the root reach it (its weight in the total).
    pub count: u64,
    /// The remaining perft depth.
    pub depth: u32,
}

/// Why a work-unit line was rejected.
///
/// # Examples
/// ```
/// use constmove::deep::{WorkUnit, WorkUnitError};
/// let err = "4k3/8/8/8/8/8/8/4K2R w K - ;depth 2".parse::<WorkUnit>().unwrap_err();
/// assert_eq!(err, WorkUnitError::Missing { operation: "count" });
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WorkUnitError {
    /// The FEN part is not a valid position.
    Fen(FenError),
    /// A required operation (`count` or `depth`) is absent.
    Missing {
        /// The operation's name.
        operation: &'static str,
    },
    /// An operation's value is not a whole number in range, in plain digits.
    BadValue {
        /// The operation's name.
        operation: &'static str,
        /// The text that was given.
        text: String,
    },
    /// A required operation (`count` or `depth`) appears more than once: rather than let
    /// one of two weights or depths win silently, the line is refused.
    ///
    /// # Examples
    /// ```
    /// use constmove::deep::{WorkUnit, WorkUnitError};
    /// let line = "4k3/8/8/8/8/8/8/4K2R w K - ;count 1 ;depth 2 ;count 3";
    /// let err = line.parse::<WorkUnit>().unwrap_err();
    /// assert_eq!(err, WorkUnitError::Duplicate { operation: "count" });
    /// ```
    Duplicate {
        /// The operation's name.
        operation: &'static str,
    },
}

impl fmt::Display for WorkUnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The FEN error already begins with "invalid FEN".
            WorkUnitError::Fen(error) => write!(f, "{error}"),
            WorkUnitError::Missing { operation } => write!(f, "no `;{operation} N` operation"),
            WorkUnitError::BadValue { operation, text } => {
                write!(
                    f,
                    "invalid `;{operation}` value {text:?} (expected plain digits)"
                )
            }
            WorkUnitError::Duplicate { operation } => {
                write!(f, "`;{operation}` is given more than once")
            }
        }
    }
}

impl core::error::Error for WorkUnitError {}

impl WorkUnit {
    /// The unit's share of the root's perft, `count × perft` with `perft` the unit's own
    /// perft, exact in 128 bits: a sum of units can pass 2⁶⁴ (the start position's perft 14
    /// is 6.2 × 10¹⁹), though one unit's perft fits a `u64` up to far deeper than anyone
    /// counts (the start position's to depth 13, 2.0 × 10¹⁸).
    ///
    /// # Examples
    /// ```
    /// use constmove::Position;
    /// use constmove::deep::WorkUnit;
    /// let unit = WorkUnit { position: Position::startpos(), count: u64::MAX, depth: 1 };
    /// assert_eq!(unit.weighted(20), u64::MAX as u128 * 20);
    /// ```
    pub fn weighted(&self, perft: u64) -> u128 {
        u128::from(self.count) * u128::from(perft)
    }
}

impl fmt::Display for WorkUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ;count {} ;depth {}",
            self.position, self.count, self.depth
        )
    }
}

impl core::str::FromStr for WorkUnit {
    type Err = WorkUnitError;
    fn from_str(line: &str) -> Result<WorkUnit, WorkUnitError> {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default();
        let position = Position::from_fen(fen.trim()).map_err(WorkUnitError::Fen)?;
        let (mut count, mut depth) = (None, None);
        for operation in parts {
            let mut words = operation.split_ascii_whitespace();
            let (slot, name): (&mut Option<u64>, _) = match words.next() {
                Some("count") => (&mut count, "count"),
                Some("depth") => (&mut depth, "depth"),
                _ => continue,
            };
            if slot.is_some() {
                return Err(WorkUnitError::Duplicate { operation: name });
            }
            let text = words.collect::<Vec<_>>().join(" ");
            // Digits only: `str::parse` would also take a leading `+`.
            let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
            let value = digits.then(|| text.parse().ok()).flatten();
            let value = value.ok_or_else(|| WorkUnitError::BadValue {
                operation: name,
                text: text.clone(),
            })?;
            *slot = Some(value);
        }
        let count = count.ok_or(WorkUnitError::Missing { operation: "count" })?;
        let depth = depth.ok_or(WorkUnitError::Missing { operation: "depth" })?;
        let depth = u32::try_from(depth).map_err(|_| WorkUnitError::BadValue {
            operation: "depth",
            text: depth.to_string(),
        })?;
        Ok(WorkUnit {
            position,
            count,
            depth,
        })
    }
}

/// What makes two positions the same for perft: the clocks are left out.
#[derive(PartialEq, Eq, Hash)]
struct PerftKey {
    board: Board,
    side: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
}

impl PerftKey {
    fn of(position: &Position) -> PerftKey {
        PerftKey {
            board: *position.board(),
            side: position.side_to_move(),
            castling: position.castling_rights(),
            ep_square: position.ep_square(),
        }
    }
}

/// Whether perft sees `a` and `b` as one position (all of [`PerftKey`] without copying it).
fn same_for_perft(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.side_to_move() == b.side_to_move()
        && a.castling_rights() == b.castling_rights()
        && a.ep_square() == b.ep_square()
}

/// [`try_split`] ran out of memory (or past `u32::MAX` units) while collecting the units
/// of one ply.
///
/// # Examples
/// ```
/// use constmove::deep::SplitError;
/// let error = SplitError { ply: 6, units: 1_234 };
/// assert_eq!(error.to_string(), "out of memory after 1234 units at ply 6");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SplitError {
    /// The ply being collected, 1 for the root's children.
    pub ply: u32,
    /// How many distinct positions of that ply had been found.
    pub units: usize,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of memory after {} units at ply {}",
            self.units, self.ply
        )
    }
}

impl core::error::Error for SplitError {}

/// A unit kept small: the position is rebuilt from its parent (one level up) when needed.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// How many move sequences reach the position.
    count: u64,
    /// The parent's index in the level above.
    parent: u32,
    /// The move from the parent, or `None` for the parent itself (ply 0).
    mv: Option<Move>,
}

// A sixteenth of a `WorkUnit` (256 bytes): the last ply is where the memory goes.
const _: () = assert!(size_of::<Node>() == 16);

impl Node {
    fn position(&self, parents: &[Position]) -> Position {
        let mut position = parents[self.parent as usize].clone();
        if let Some(mv) = self.mv {
            position.play_unchecked(mv);
        }
        position
    }
}

/// A 128-bit Zobrist key of exactly the [`PerftKey`] fields, as two halves so an index
/// entry is 24 bytes, not 32. Equal keys are only candidates: the positions are compared.
#[derive(PartialEq, Eq, Clone, Copy)]
struct IndexKey {
    low: u64,
    high: u64,
}

impl IndexKey {
    fn new(key: u128) -> IndexKey {
        IndexKey {
            low: key as u64,
            high: (key >> 64) as u64,
        }
    }
}

impl core::hash::Hash for IndexKey {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        // The low half of a Zobrist key is already uniform: no need to hash it again.
        state.write_u64(self.low);
    }
}

/// The hasher of [`IndexKey`]: passes its `u64` through.
#[derive(Default)]
struct PassThrough(u64);

impl core::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; this keeps any other input hashed, if poorly.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

type Index = HashMap<IndexKey, u32, core::hash::BuildHasherDefault<PassThrough>>;

/// The units of one ply, as [`try_split`] returns them: an iterator that builds each
/// [`WorkUnit`] when it is reached, so the units never all exist at once (16 bytes each
/// are kept, plus the positions one ply up, instead of a 256-byte `WorkUnit` each).
///
/// # Examples
/// ```
/// use constmove::Position;
/// use constmove::deep::try_split;
/// let units = try_split(&Position::startpos(), 5, 2).unwrap();
/// assert_eq!(units.len(), 400);
/// assert_eq!(units.map(|unit| unit.count).sum::<u64>(), 400);
/// ```
#[derive(Clone, Debug)]
pub struct SplitUnits {
    parents: Vec<Position>,
    nodes: std::vec::IntoIter<Node>,
    depth: u32,
}

impl Iterator for SplitUnits {
    type Item = WorkUnit;
    fn next(&mut self) -> Option<WorkUnit> {
        let node = self.nodes.next()?;
        Some(WorkUnit {
            position: node.position(&self.parents),
            count: node.count,
            depth: self.depth,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.nodes.size_hint()
    }
}

impl ExactSizeIterator for SplitUnits {}

/// The unique positions `ply` plies below `position` (at most `depth`), each with the number
/// of move sequences reaching it and the remaining depth `depth - ply`, in the order they
/// are first reached. Positions that differ only in their move clocks are merged (perft does
/// not depend on them; the first one reached is kept). Summing `count × perft(position,
/// depth)` over the units gives `perft(position, depth)`.
///
/// This collects them in one `Vec`, 256 bytes a unit; [`try_split`] hands them out one by
/// one and reports running out of memory.
///
/// # Panics
/// If memory runs out (where [`try_split`] returns an error).
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// use constmove::deep::split;
/// let units = split(&Position::startpos(), 4, 3);
/// assert_eq!(units.len(), 5_362); // 8,902 paths, 5,362 distinct positions
/// assert!(units.iter().all(|unit| unit.depth == 1));
/// let total: u64 = units.iter().map(|u| u.count * perft(&u.position, u.depth)).sum();
/// assert_eq!(total, 197_281);
/// ```
pub fn split(position: &Position, depth: u32, ply: u32) -> Vec<WorkUnit> {
    match try_split(position, depth, ply) {
        Ok(units) => units.collect(),
        Err(error) => panic!("split: {error}"),
    }
}

/// [`split`], but the units come as an iterator ([`SplitUnits`]) that builds each one when
/// it is reached, and running out of memory is an error instead of an abort.
///
/// The memory is about 16 bytes per unit, the positions one ply up (192 bytes each, a
/// tenth as many at the start position) and an index of 25 to 50 bytes per unit while a ply
/// is collected: ply 6 of the start position, 9.4 million units, takes under 1 GB.
///
/// # Errors
/// [`SplitError`] when an allocation fails, with the ply and the units found so far.
///
/// # Examples
/// ```
/// use constmove::{perft, Position};
/// use constmove::deep::try_split;
/// let units = try_split(&Position::startpos(), 4, 3)?;
/// assert_eq!(units.len(), 5_362);
/// let total: u64 = units.map(|u| u.count * perft(&u.position, u.depth)).sum();
/// assert_eq!(total, 197_281);
/// # Ok::<(), constmove::deep::SplitError>(())
/// ```
pub fn try_split(position: &Position, depth: u32, ply: u32) -> Result<SplitUnits, SplitError> {
    split_keyed(position, depth, ply, position_key)
}

/// [`try_split`] with the index keyed by `key`, which must give equal keys to positions
/// equal for perft (tests pass a colliding one).
fn split_keyed(
    position: &Position,
    depth: u32,
    ply: u32,
    key: impl Fn(&Position) -> u128,
) -> Result<SplitUnits, SplitError> {
    let ply = ply.min(depth);
    let out_of_memory = |ply, units| SplitError { ply, units };
    let mut parents = Vec::new();
    parents
        .try_reserve_exact(1)
        .map_err(|_| out_of_memory(0, 0))?;
    parents.push(position.clone());
    let mut nodes = Vec::new();
    nodes
        .try_reserve_exact(1)
        .map_err(|_| out_of_memory(0, 0))?;
    nodes.push(Node {
        count: 1,
        parent: 0,
        mv: None,
    });
    for done in 0..ply {
        let this_ply = done + 1;
        // The positions of this level, built once; the level above is no longer needed.
        let mut level = Vec::new();
        level
            .try_reserve_exact(nodes.len())
            .map_err(|_| out_of_memory(done, nodes.len()))?;
        level.extend(nodes.iter().map(|node| node.position(&parents)));
        drop(parents);
        let mut next: Vec<Node> = Vec::new();
        let mut index = Index::default();
        // Positions whose key matched a different position's: exact, and almost always empty.
        let mut collisions: HashMap<PerftKey, u32> = HashMap::new();
        for (parent, (unit, node)) in level.iter().zip(&nodes).enumerate() {
            for mv in unit.legal_moves().iter().copied() {
                let mut child = unit.clone();
                child.play_unchecked(mv);
                let child_key = IndexKey::new(key(&child));
                // The unit already collected, or whether the key belongs to another position.
                let (found, collided) = match index.get(&child_key) {
                    None => (None, false),
                    Some(&i) if same_for_perft(&next[i as usize].position(&level), &child) => {
                        (Some(i), false)
                    }
                    Some(_) => (collisions.get(&PerftKey::of(&child)).copied(), true),
                };
                if let Some(i) = found {
                    next[i as usize].count += node.count;
                    continue;
                }
                // Units are indexed by u32; 4 billion of them would not fit in memory anyway.
                let (Ok(i), Ok(()), Ok(())) = (
                    u32::try_from(next.len()),
                    next.try_reserve(1),
                    if collided {
                        collisions.try_reserve(1)
                    } else {
                        index.try_reserve(1)
                    },
                ) else {
                    return Err(out_of_memory(this_ply, next.len()));
                };
                if collided {
                    collisions.insert(PerftKey::of(&child), i);
                } else {
                    index.insert(child_key, i);
                }
                next.push(Node {
                    count: node.count,
                    parent: parent as u32,
                    mv: Some(mv),
                });
            }
        }
        parents = level;
        nodes = next;
    }
    Ok(SplitUnits {
        parents,
        nodes: nodes.into_iter(),
        depth: depth - ply,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let unit = WorkUnit {
            position: Position::startpos(),
            count: 12,
            depth: 5,
        };
        assert_eq!(unit.to_string().parse::<WorkUnit>(), Ok(unit));
    }

    #[test]
    fn operations_in_any_order_and_unknown_ones_ignored() {
        let unit: WorkUnit = "8/8/8/8/8/8/6k1/4K2R w K - ;id \"x y\" ;depth 3 ;count 7"
            .parse()
            .unwrap();
        assert_eq!((unit.count, unit.depth), (7, 3));
    }

    #[test]
    fn bad_lines_are_rejected() {
        let bad = |line: &str| line.parse::<WorkUnit>().unwrap_err();
        assert!(matches!(
            bad("8/8 w - - ;count 1 ;depth 1"),
            WorkUnitError::Fen(_)
        ));
        assert_eq!(
            bad(&format!("{} ;count 1", Position::startpos())),
            WorkUnitError::Missing { operation: "depth" }
        );
        assert!(matches!(
            bad(&format!("{} ;count x ;depth 1", Position::startpos())),
            WorkUnitError::BadValue {
                operation: "count",
                ..
            }
        ));
        assert!(matches!(
            bad(&format!(
                "{} ;count 1 ;depth 99999999999",
                Position::startpos()
            )),
            WorkUnitError::BadValue {
                operation: "depth",
                ..
            }
        ));
    }

    #[test]
    fn split_at_ply_zero_is_the_root() {
        let units = split(&Position::startpos(), 3, 0);
        assert_eq!(units.len(), 1);
        assert_eq!((units[0].count, units[0].depth), (1, 3));
    }

    #[test]
    fn ply_is_capped_at_depth() {
        let units = split(&Position::startpos(), 2, 5);
        assert!(units.iter().all(|unit| unit.depth == 0));
        assert_eq!(units.iter().map(|unit| unit.count).sum::<u64>(), 400);
    }

    #[test]
    fn sizes_behind_the_memory_figures() {
        assert_eq!(size_of::<WorkUnit>(), 256);
        assert_eq!(size_of::<Position>(), 192);
        assert_eq!(size_of::<(IndexKey, u32)>(), 24);
    }

    #[test]
    fn colliding_keys_never_merge_positions() {
        let kiwipete: Position =
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                .parse()
                .unwrap();
        for position in [Position::startpos(), kiwipete] {
            for ply in 0..=3 {
                let exact: Vec<WorkUnit> = split(&position, 4, ply);
                // Every key equal, or only the side to move: every lookup meets other positions.
                let all_equal = split_keyed(&position, 4, ply, |_| 7).unwrap();
                let by_side = split_keyed(&position, 4, ply, |p| p.side_to_move() as u128).unwrap();
                assert_eq!(all_equal.collect::<Vec<_>>(), exact, "ply {ply}");
                assert_eq!(by_side.collect::<Vec<_>>(), exact, "ply {ply}");
            }
        }
    }

    /// The simple version this module had: every unit whole, indexed by its whole key.
    fn split_reference(position: &Position, depth: u32, ply: u32) -> Vec<WorkUnit> {
        let mut level = vec![WorkUnit {
            position: position.clone(),
            count: 1,
            depth,
        }];
        for _ in 0..ply.min(depth) {
            let mut next: Vec<WorkUnit> = Vec::new();
            let mut index: HashMap<PerftKey, usize> = HashMap::new();
            for unit in &level {
                for mv in unit.position.legal_moves().iter().copied() {
                    let mut child = unit.position.clone();
                    child.play_unchecked(mv);
                    if let Some(&i) = index.get(&PerftKey::of(&child)) {
                        next[i].count += unit.count;
                    } else {
                        index.insert(PerftKey::of(&child), next.len());
                        next.push(WorkUnit {
                            position: child,
                            count: unit.count,
                            depth: unit.depth - 1,
                        });
                    }
                }
            }
            level = next;
        }
        level
    }

    #[test]
    fn same_units_in_the_same_order_as_the_simple_version() {
        // Kiwipete's ply 4 is 4 million paths: too slow for the simple version.
        let cases = [
            (crate::fen::STARTPOS_FEN, 4),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        ];
        for (fen, max_ply) in cases {
            let position: Position = fen.parse().unwrap();
            for ply in 0..=max_ply {
                assert_eq!(
                    split(&position, 5, ply),
                    split_reference(&position, 5, ply),
                    "{fen} ply {ply}"
                );
            }
        }
    }
}
