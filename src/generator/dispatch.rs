//! The one runtime `match` of the crate: a position's status index (bit 0 white to move,
//! 1 en passant, 2–5 castling rights WK WQ BK BQ) enters the monomorphised code for that
//! status. Generated with `seq-macro`; it compiles to a single jump table.

use crate::base::status::{Status, StatusFlags};
use seq_macro::seq;

/// An operation to run with the status type an index names.
pub(crate) trait StatusOp {
    /// What the operation returns.
    type Output;
    /// Runs the operation for status `S`.
    fn run<S: StatusFlags>(self) -> Self::Output;
}

/// Runs `op` with the [`Status`] whose [`StatusFlags::INDEX`] is `index & 63`.
// For N = 0 the expansion reads `0 & 1 != 0`, which clippy flags though it is intended.
#[allow(clippy::eq_op, clippy::erasing_op)]
// Always inlined: perft's two jumps (any node, and a node that drops a right) made
// LLVM call it instead, which cost sparse positions 0.4% (docs/PERFORMANCE.md).
#[inline(always)]
pub(crate) fn dispatch<O: StatusOp>(index: u8, op: O) -> O::Output {
    seq!(N in 0..63 {
        match index & 63 {
            #(
                N => op.run::<Status<
                    { N & 1 != 0 }, { N & 2 != 0 }, { N & 4 != 0 },
                    { N & 8 != 0 }, { N & 16 != 0 }, { N & 32 != 0 }
                >>(),
            )*
            _ => op.run::<Status<true, true, true, true, true, true>>(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Index;
    impl StatusOp for Index {
        type Output = u8;
        fn run<S: StatusFlags>(self) -> u8 {
            S::INDEX
        }
    }

    #[test]
    fn every_index_reaches_its_own_status() {
        for index in 0..64 {
            assert_eq!(dispatch(index, Index), index);
        }
    }
}
