//! Hand-rolled argument parsing: a small option scanner shared by the commands, and the
//! parsers for the values they take (depth, backend, FEN, counts).
//!
//! Every error here is a [`CliError::Usage`] whose message quotes the offending text with
//! `{:?}`, so that even an argument containing a newline still yields a one-line message.

use crate::error::{CliError, CliResult};
use constmove::{Backend, Position};

/// The deepest perft the command line accepts. Depth 20 is far beyond any count that could
/// finish; the limit exists to catch typos such as `perft 60` for `perft 6`.
pub const MAX_DEPTH: u32 = 20;

/// The options one command accepts.
pub struct Spec {
    /// Options without a value, like `--divide`.
    pub flags: &'static [&'static str],
    /// Options with a value, written `--fen FEN` or `--fen=FEN`.
    pub valued: &'static [&'static str],
}

/// A command line split into positional arguments and options.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The positional arguments, in order.
    pub positionals: Vec<String>,
    flags: Vec<&'static str>,
    values: Vec<(&'static str, String)>,
}

impl Parsed {
    /// Whether the flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }

    /// The value of option `name`; when it is repeated the last one wins, as in most tools.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(option, _)| *option == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Whether `arg` looks like an option. A lone `-` and negative numbers are positional, so
/// that `perft -1` is reported as a bad depth rather than an unknown option.
fn is_option(arg: &str) -> bool {
    let mut chars = arg.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_digit())
}

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

/// Splits `args` (the words after the command name) according to `spec`. Everything after
/// a `--` is positional.
pub fn parse(args: &[String], spec: &Spec) -> CliResult<Parsed> {
    let mut parsed = Parsed::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            parsed.positionals.extend(rest.by_ref().cloned());
            break;
        }
        if !is_option(arg) {
            parsed.positionals.push(arg.clone());
            continue;
        }
        let (name, inline_value) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg.as_str(), None),
        };
        if let Some(&flag) = spec.flags.iter().find(|flag| **flag == name) {
            if inline_value.is_some() {
                return Err(CliError::usage(format!("option {flag} takes no value")));
            }
            parsed.flags.push(flag);
        } else if let Some(&option) = spec.valued.iter().find(|option| **option == name) {
            let value = match inline_value {
                Some(value) => value.to_owned(),
                None => rest
                    .next()
                    .cloned()
                    .ok_or_else(|| CliError::usage(format!("option {option} needs a value")))?,
            };
            parsed.values.push((option, value));
        } else {
            return Err(CliError::usage(format!(
                "unknown option {arg:?} (try 'constmove --help')"
            )));
        }
    }
    Ok(parsed)
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

/// The `--backend` option (default `auto`), resolved to the backend that will really run.
/// Resolving up front turns "pext forced on a CPU without BMI2" into a usage error before
/// any work starts.
pub fn backend(parsed: &Parsed) -> CliResult<Backend> {
    let requested = match parsed.value("--backend") {
        None => Backend::Auto,
        Some(name) => name
            .parse::<Backend>()
            .map_err(|error| CliError::usage(format!("invalid --backend {name:?}: {error}")))?,
    };
    requested
        .resolve()
        .map_err(|error| CliError::usage(error.to_string()))
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
pub fn threads(parsed: &Parsed) -> CliResult<usize> {
    let Some(text) = parsed.value("--threads") else {
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

    const SPEC: Spec = Spec {
        flags: &["--divide"],
        valued: &["--fen"],
    };

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|word| (*word).to_owned()).collect()
    }

    #[test]
    fn splits_options_and_positionals() {
        let parsed = parse(
            &words(&["3", "--divide", "--fen", "a b", "--fen=c d"]),
            &SPEC,
        )
        .expect("valid arguments");
        assert_eq!(parsed.positionals, ["3"]);
        assert!(parsed.flag("--divide"));
        assert_eq!(parsed.value("--fen"), Some("c d"));
    }

    #[test]
    fn rejects_unknown_and_incomplete_options() {
        assert!(parse(&words(&["--frobnicate"]), &SPEC).is_err());
        assert!(parse(&words(&["--fen"]), &SPEC).is_err());
        assert!(parse(&words(&["--divide=yes"]), &SPEC).is_err());
    }

    #[test]
    fn negative_numbers_and_separator_are_positional() {
        let parsed = parse(&words(&["-1", "--", "--divide"]), &SPEC).expect("valid arguments");
        assert_eq!(parsed.positionals, ["-1", "--divide"]);
        assert!(!parsed.flag("--divide"));
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
