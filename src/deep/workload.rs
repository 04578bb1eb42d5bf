//! Work units for counting on many machines: [`split`] cuts a perft into the unique positions
//! a few plies below the root, each with its multiplicity and remaining depth, and
//! [`WorkUnit`] reads and writes them as EPD lines (`<fen> ;count N ;depth D`). The perft of
//! the root is the sum of `count × perft(position, depth)` over the units.

use crate::base::board::Board;
use crate::base::types::{Color, Square};
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
/// use constmove::{perft, Position, WorkUnit};
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
/// use constmove::{WorkUnit, WorkUnitError};
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
    /// use constmove::{WorkUnit, WorkUnitError};
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

impl std::error::Error for WorkUnitError {}

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
            board: position.board,
            side: position.side,
            castling: position.castling,
            ep_square: position.ep_square,
        }
    }
}

/// The unique positions `ply` plies below `position` (at most `depth`), each with the number
/// of move sequences reaching it and the remaining depth `depth - ply`, in the order they
/// are first reached. Positions that differ only in their move clocks are merged (perft does
/// not depend on them; the first one reached is kept). Summing `count × perft(position,
/// depth)` over the units gives `perft(position, depth)`.
///
/// # Examples
/// ```
/// use constmove::{perft, split, Position};
/// let units = split(&Position::startpos(), 4, 3);
/// assert_eq!(units.len(), 5_362); // 8,902 paths, 5,362 distinct positions
/// assert!(units.iter().all(|unit| unit.depth == 1));
/// let total: u64 = units.iter().map(|u| u.count * perft(&u.position, u.depth)).sum();
/// assert_eq!(total, 197_281);
/// ```
pub fn split(position: &Position, depth: u32, ply: u32) -> Vec<WorkUnit> {
    let ply = ply.min(depth);
    let mut level = vec![WorkUnit {
        position: position.clone(),
        count: 1,
        depth,
    }];
    for _ in 0..ply {
        let mut next: Vec<WorkUnit> = Vec::new();
        let mut index: HashMap<PerftKey, usize> = HashMap::new();
        for unit in &level {
            for mv in unit.position.legal_moves().iter().copied() {
                let mut child = unit.position.clone();
                child.play_unchecked(mv);
                match index.entry(PerftKey::of(&child)) {
                    std::collections::hash_map::Entry::Occupied(slot) => {
                        next[*slot.get()].count += unit.count;
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(next.len());
                        next.push(WorkUnit {
                            position: child,
                            count: unit.count,
                            depth: unit.depth - 1,
                        });
                    }
                }
            }
        }
        level = next;
    }
    level
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
}
