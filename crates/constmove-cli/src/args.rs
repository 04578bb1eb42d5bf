//! The command lines, parsed by clap (derive): one struct per command, every option with
//! the same scanning (`--opt V` or `--opt=V`, the last of a repeated option wins, `--`
//! ends the options), and the parsers for the values they take (depth, sizes, counts,
//! backend). The help text is our own (see `main.rs`); clap's errors become one line.
//!
//! Every error here is a [`CliError::Usage`] whose message quotes the offending text with
//! `{:?}`, so that even an argument containing a newline still yields a one-line message.

use crate::error::{CliError, CliResult};
use clap::Parser;
use constmove::{Backend, Position};

/// The deepest perft the command line accepts. Depth 20 is far beyond any count that could
/// finish; the limit exists to catch typos such as `perft 60` for `perft 6`.
pub const MAX_DEPTH: u32 = 20;

/// Whether the user asked for help anywhere before a `--` separator.
pub fn wants_help(args: &[String]) -> bool {
    args.iter()
        .take_while(|arg| *arg != "--")
        .any(|arg| arg == "--help" || arg == "-h")
}

/// Whether the user asked for the version anywhere before a `--` separator.
pub fn wants_version(args: &[String]) -> bool {
    args.iter()
        .take_while(|arg| *arg != "--")
        .any(|arg| arg == "--version" || arg == "-V")
}

/// `text` as a number if it is plain ASCII digits. Rust's parsers also take a leading `+`,
/// which no depth or count should have: `+3` is more likely a slip than a wish.
pub fn whole_number<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `perft [DEPTH] [options]`, and `perft --workload FILE [options]`.
#[derive(Parser, Debug)]
#[command(name = "perft")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct PerftArgs {
    /// The depth (default 6).
    #[arg(value_name = "DEPTH", value_parser = depth_value)]
    pub depth: Option<u32>,
    /// The position.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Chess960 rules.
    #[arg(long)]
    pub chess960: bool,
    /// Each root move's count.
    #[arg(long)]
    pub divide: bool,
    /// Leaf statistics.
    #[arg(long)]
    pub stats: bool,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Recount a sample of the table's hits.
    #[arg(long)]
    pub verify: bool,
    /// Worker threads.
    #[arg(long, value_name = "N", value_parser = threads_value)]
    pub threads: Option<usize>,
    /// The table size.
    #[arg(long, value_name = "SIZE", value_parser = hash_value)]
    pub hash: Option<u64>,
    /// The table's key stream.
    #[arg(long, value_name = "N", value_parser = seed_value)]
    pub hash_seed: Option<u64>,
    /// A file of work units.
    #[arg(long, value_name = "FILE")]
    pub workload: Option<String>,
    /// Part I of N of the workload.
    #[arg(long, value_name = "I/N", value_parser = part_value)]
    pub part: Option<(u64, u64)>,
    /// The results file.
    #[arg(long, value_name = "R.jsonl")]
    pub results: Option<String>,
    /// The slider backend.
    #[arg(long, value_name = "B", value_parser = backend_value)]
    pub backend: Option<Backend>,
}

/// `split DEPTH --ply K [--fen FEN] [--chess960]`.
#[derive(Parser, Debug)]
#[command(name = "split")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct SplitArgs {
    /// The depth.
    #[arg(value_name = "DEPTH", value_parser = depth_value)]
    pub depth: u32,
    /// Plies below the root (checked against the depth by the command).
    #[arg(long, value_name = "K")]
    pub ply: Option<String>,
    /// The position.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Chess960 rules.
    #[arg(long)]
    pub chess960: bool,
}

/// `merge --workload FILE R.jsonl... [--json]`.
#[derive(Parser, Debug)]
#[command(name = "merge")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct MergeArgs {
    /// The workload.
    #[arg(long, value_name = "FILE")]
    pub workload: Option<String>,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// The results files.
    #[arg(value_name = "R.jsonl")]
    pub files: Vec<String>,
}

/// `perftree DEPTH FEN [MOVES...] [--chess960] [--backend B]`.
#[derive(Parser, Debug)]
#[command(name = "perftree")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct PerftreeArgs {
    /// The depth.
    #[arg(value_name = "DEPTH", value_parser = depth_value)]
    pub depth: u32,
    /// The position.
    #[arg(value_name = "FEN")]
    pub fen: String,
    /// UCI moves to play first.
    #[arg(value_name = "MOVES")]
    pub moves: Vec<String>,
    /// Chess960 rules and castling notation.
    #[arg(long)]
    pub chess960: bool,
    /// The slider backend.
    #[arg(long, value_name = "B", value_parser = backend_value)]
    pub backend: Option<Backend>,
}

/// `suite FILE [--max-nodes N] [--json] [--backend B]`.
#[derive(Parser, Debug)]
#[command(name = "suite")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct SuiteArgs {
    /// The suite file.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The node limit.
    #[arg(long, value_name = "N", value_parser = max_nodes_value)]
    pub max_nodes: Option<u64>,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// The slider backend.
    #[arg(long, value_name = "B", value_parser = backend_value)]
    pub backend: Option<Backend>,
}

/// `uci`: no arguments (the commands come on stdin).
#[derive(Parser, Debug)]
#[command(name = "uci")]
#[command(
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true,
    disable_help_subcommand = true,
    args_override_self = true,
    allow_negative_numbers = true
)]
pub struct UciArgs {}

/// Parses `args` (the words after `command`) with clap; its error becomes one line, in the
/// words of our own value parsers where one of them refused the value.
pub fn parse<T: Parser>(command: &str, args: &[String]) -> CliResult<T> {
    T::try_parse_from(args).map_err(|error| CliError::usage(clap_message(command, &error)))
}

/// One line for a clap error.
fn clap_message(command: &str, error: &clap::Error) -> String {
    use clap::error::{ContextKind, ErrorKind};
    if error.kind() == ErrorKind::ValueValidation
        && let Some(source) = std::error::Error::source(error)
    {
        return source.to_string();
    }
    let context = |kind| error.get(kind).map(ToString::to_string);
    match error.kind() {
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_default();
            if arg.starts_with('-') {
                format!("unknown option {arg:?} (try 'constmove {command} --help')")
            } else {
                format!("{command}: unexpected argument {arg:?}")
            }
        }
        ErrorKind::MissingRequiredArgument => format!(
            "{command}: missing argument {}",
            context(ContextKind::InvalidArg)
                .unwrap_or_default()
                .replace(['<', '>'], "")
        ),
        _ => {
            let text = error.to_string();
            let line = text.lines().next().unwrap_or_default();
            format!("{command}: {}", line.trim_start_matches("error: "))
        }
    }
}

/// [`parse_depth`] for clap.
fn depth_value(text: &str) -> Result<u32, String> {
    parse_depth(text).map_err(|error| error.to_string())
}

/// [`threads`] for clap.
fn threads_value(text: &str) -> Result<usize, String> {
    threads(Some(text)).map_err(|error| error.to_string())
}

/// [`parse_size`] of `--hash` for clap.
fn hash_value(text: &str) -> Result<u64, String> {
    parse_size("--hash", text).map_err(|error| error.to_string())
}

/// `--hash-seed N`: a whole number.
fn seed_value(text: &str) -> Result<u64, String> {
    whole_number(text).ok_or_else(|| {
        format!("invalid --hash-seed {text:?}: expected a whole number from 0 to 2^64 - 1")
    })
}

/// [`parse_part`] for clap.
fn part_value(text: &str) -> Result<(u64, u64), String> {
    parse_part(text).map_err(|error| error.to_string())
}

/// [`parse_count`] of `--max-nodes` for clap.
fn max_nodes_value(text: &str) -> Result<u64, String> {
    parse_count("--max-nodes", text).map_err(|error| error.to_string())
}

/// `--backend NAME`, resolved to the backend that will really run: forcing pext on a CPU
/// without BMI2 is refused before any work starts.
fn backend_value(text: &str) -> Result<Backend, String> {
    let requested = text
        .parse::<Backend>()
        .map_err(|error| format!("invalid --backend {text:?}: {error}"))?;
    requested.resolve().map_err(|error| error.to_string())
}

/// A perft depth: a whole number from 0 to [`MAX_DEPTH`].
pub fn parse_depth(text: &str) -> CliResult<u32> {
    match whole_number::<u32>(text) {
        Some(depth) if depth <= MAX_DEPTH => Ok(depth),
        Some(depth) => Err(CliError::usage(format!(
            "depth {depth} is too large (at most {MAX_DEPTH})"
        ))),
        None => Err(CliError::usage(format!(
            "invalid depth {text:?}: expected a whole number from 0 to {MAX_DEPTH}"
        ))),
    }
}

/// A node count such as `--max-nodes 1000000`; `_` separators (`10_000_000`) are allowed.
pub fn parse_count(option: &str, text: &str) -> CliResult<u64> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    whole_number(&digits).ok_or_else(|| {
        CliError::usage(format!(
            "invalid {option} {text:?}: expected a non-negative whole number"
        ))
    })
}

/// The backend to run: `--backend`'s, or the automatic choice resolved.
pub fn backend(given: Option<Backend>) -> CliResult<Backend> {
    match given {
        Some(backend) => Ok(backend),
        None => Backend::Auto
            .resolve()
            .map_err(|error| CliError::usage(error.to_string())),
    }
}

/// A position from FEN text; the library's message already names the field and problem.
pub fn parse_fen(fen: &str) -> CliResult<Position> {
    Position::from_fen(fen).map_err(|error| CliError::usage(error.to_string()))
}

/// The cores the OS gives us.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads run: four per core. More only slow a stop request, since the
/// threads that see it wait their turn behind every busy worker (1024 threads on 2 cores
/// took seconds to stop), and add no speed.
pub fn max_workers() -> usize {
    4 * cores()
}

/// `--threads N`: a whole number from 1 to 1024, of which at most [`max_workers`] run;
/// without it, every core the OS gives us.
pub fn threads(text: Option<&str>) -> CliResult<usize> {
    let Some(text) = text else {
        return Ok(cores());
    };
    match whole_number::<usize>(text) {
        Some(n @ 1..=1024) => Ok(n.min(max_workers())),
        _ => Err(CliError::usage(format!(
            "invalid --threads {text:?}: expected a whole number from 1 to 1024"
        ))),
    }
}

/// The smallest and largest `--hash` sizes: one 4 KiB page, and 1 TiB (a typo guard).
const HASH_BYTES: std::ops::RangeInclusive<u64> = 4096..=1 << 40;

/// A memory size such as `512M`, `1G`, `64K`, `1GiB` or `1048576` (bytes); the suffixes are
/// binary (K = 1024) and case-insensitive, and may end in `B` or `iB`.
pub fn parse_size(option: &str, text: &str) -> CliResult<u64> {
    let bad = || {
        CliError::usage(format!(
            "invalid {option} {text:?}: expected a size such as 64M or 1G (from 4K to 1T)"
        ))
    };
    // No trimming: `--threads " 2"` is refused, and so is `--hash " 64M"`.
    let lower = text.to_ascii_lowercase();
    let unit_start = lower
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(lower.len());
    let (digits, unit) = lower.split_at(unit_start);
    // One optional `b` or `ib` after the letter: `64Mbbbbbb` is not a size.
    let letter = unit
        .strip_suffix("ib")
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(unit);
    let shift = match letter {
        "" if unit.is_empty() || unit == "b" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let value: u64 = whole_number(digits).ok_or_else(bad)?;
    let bytes = value.checked_mul(1 << shift).ok_or_else(bad)?;
    if HASH_BYTES.contains(&bytes) {
        Ok(bytes)
    } else {
        Err(bad())
    }
}

/// `--part I/N`: part I (from 1) of N.
pub fn parse_part(text: &str) -> CliResult<(u64, u64)> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((whole_number(i.trim())?, whole_number(n.trim())?)));
    match parsed {
        Some((i, n)) if (1..=n).contains(&i) => Ok((i, n)),
        _ => Err(CliError::usage(format!(
            "invalid --part {text:?}: expected I/N with 1 <= I <= N, e.g. 3/10"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn options_scan_alike_and_the_last_wins() {
        let parsed: PerftArgs = parse(
            "perft",
            &words(&["3", "--divide", "--fen", "a b", "--fen=c d", "--threads=1"]),
        )
        .expect("valid arguments");
        assert_eq!(parsed.depth, Some(3));
        assert!(parsed.divide);
        assert_eq!(parsed.fen.as_deref(), Some("c d"));
        assert_eq!(parsed.threads, Some(1));
    }

    #[test]
    fn rejects_unknown_and_incomplete_options() {
        for (bad, mention) in [
            (&["--frobnicate"][..], "--frobnicate"),
            (&["--fen"], "--fen"),
            (&["--divide=yes"], "--divide"),
            (&["3", "4"], "\"4\""),
        ] {
            let error = parse::<PerftArgs>("perft", &words(bad)).unwrap_err();
            let message = error.to_string();
            assert!(!message.contains('\n'), "{bad:?}: {message:?}");
            assert!(message.contains(mention), "{message:?}");
        }
    }

    #[test]
    fn negative_numbers_and_separator_are_positional() {
        let error = parse::<PerftArgs>("perft", &words(&["-1"])).unwrap_err();
        assert!(
            error.to_string().contains("invalid depth \"-1\""),
            "{error}"
        );
        let error = parse::<PerftArgs>("perft", &words(&["--", "--divide"])).unwrap_err();
        assert!(error.to_string().contains("\"--divide\""), "{error}");
    }

    #[test]
    fn depth_limits() {
        assert_eq!(parse_depth("0").ok(), Some(0));
        assert_eq!(parse_depth("20").ok(), Some(20));
        assert!(parse_depth("21").is_err());
        assert!(parse_depth("abc").is_err());
        assert!(parse_depth("-1").is_err());
        assert!(parse_depth("+3").is_err());
        assert!(parse_depth("").is_err());
    }

    #[test]
    fn sizes_are_binary_and_checked() {
        assert_eq!(parse_size("--hash", "64K").ok(), Some(64 << 10));
        assert_eq!(parse_size("--hash", "512m").ok(), Some(512 << 20));
        assert_eq!(parse_size("--hash", "1G").ok(), Some(1 << 30));
        assert_eq!(parse_size("--hash", "1GiB").ok(), Some(1 << 30));
        assert_eq!(parse_size("--hash", "2gb").ok(), Some(2 << 30));
        assert_eq!(parse_size("--hash", "8192").ok(), Some(8192));
        for bad in [
            "",
            "G",
            "1X",
            "-1G",
            "1.5G",
            "1K",
            "2T",
            "99999999999999999999",
            "64Mbbbbbb",
            "64Mibibib",
            " 64M",
            "64M ",
            "64ib",
            "64bb",
        ] {
            assert!(parse_size("--hash", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn whole_numbers_are_plain_digits() {
        assert_eq!(whole_number::<u32>("42"), Some(42));
        for bad in ["+42", "-1", "", " 4", "4 ", "0x10"] {
            assert_eq!(whole_number::<u32>(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn parts_are_one_based() {
        assert_eq!(parse_part("1/1").ok(), Some((1, 1)));
        assert_eq!(parse_part("3/10").ok(), Some((3, 10)));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", "", "+1/2", "1/+2"] {
            assert!(parse_part(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn counts_allow_underscores() {
        assert_eq!(
            parse_count("--max-nodes", "10_000_000").ok(),
            Some(10_000_000)
        );
        assert!(parse_count("--max-nodes", "ten").is_err());
        assert!(parse_count("--max-nodes", "+10").is_err());
        assert!(parse_count("--max-nodes", "_").is_err());
    }
}
