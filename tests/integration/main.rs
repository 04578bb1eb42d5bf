//! The integration tests, built as one binary: each test binary links the whole generator
//! again under fat LTO, so one binary instead of seven saves most of `cargo test --release`'s
//! build time. Each module is one concern; `common` reads `../shared/perft/`.

mod common;

mod differential;
mod engine_api;
mod fen_errors;
mod parallel;
mod perft_stats;
mod perft_suites;
mod zobrist;
