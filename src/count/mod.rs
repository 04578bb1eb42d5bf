//! The counting layer: perft on a board and a status index, with no `Position` in sight.
//! [`leaf`] counts one board's moves by bulk; [`perft`] recurses through
//! interior nodes, each child through its status's entry;
//! [`depth2`] batches the depth-2 nodes, sorted by [`reply_squares`], and counts sparse
//! batches eight children at a time in [`lanes`] where the CPU has AVX-512; [`stats`] counts
//! the leaf statistics.

pub(crate) mod depth2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
pub(crate) mod leaf;
pub(crate) mod perft;
pub(crate) mod reply_squares;
pub(crate) mod stats;
