//! The `constmove` command (placeholder until the CLI lands).
fn main() {}
