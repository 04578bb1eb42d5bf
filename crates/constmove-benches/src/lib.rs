//! Holds the criterion benchmarks of the workspace's top-level `benches/` (see README.md,
//! "Speed"): a package of their own, so that `cargo test` never builds criterion and the peer
//! move generators. There is no library code; run them with `cargo bench`.
#![no_std]
