//! The integration tests, built as one binary: each test binary links and optimises the whole
//! generator again, so one binary instead of seven saves build time. Each module is one
//! concern; `common` reads `tests/data/perft/`. Run one concern with a filter, e.g.
//! `cargo test --release --test integration perft_suites`.

mod common;

mod chess960;
mod differential;
mod draws;
mod engine_api;
mod errors;
mod fen_errors;
mod move_order;
mod parallel;
mod perft_stats;
mod perft_suites;
mod properties;
mod san;
mod walk;
mod zobrist;
