//! The counting layer: perft on a board and a status index, with no `Position` in sight.
//! [`leaf`] counts one board's moves by bulk; [`perft`] recurses through
//! interior nodes, each child through its status's entry;
//! [`depth2`] batches the depth-2 nodes, sorted by [`reply_squares`]; [`stats`] counts the
//! leaf statistics.

pub(crate) mod depth2;
pub(crate) mod leaf;
pub(crate) mod perft;
pub(crate) mod reply_squares;
pub(crate) mod stats;
