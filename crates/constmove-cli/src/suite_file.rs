//! Reading perft test files, in either of the two formats found in the wild:
//!
//! - EPD, one position a line: `FEN ;D1 20 ;D2 400 ...` (the `;` need not be preceded by
//!   a space: one published file has `11139762;D6`);
//! - `.perft`: an `epd FEN` line starts a position, `perft DEPTH NODES` lines give its
//!   counts, and an optional `id NAME` line names the next position.
//!
//! In both, blank lines, lines starting with `#` and a UTF-8 byte-order mark at the start
//! of the file are ignored; numbers are plain digits (no sign). The format is told by the
//! content, not the file name: any `epd ` line means `.perft` (no FEN starts with `e`).
//!
//! Every FEN is parsed here, before any counting. A line that cannot be read (a FEN the
//! parser rejects, a malformed count) is kept as a [`LineError`] and the rest of the file
//! is read: one bad line costs one result, not the run. In a `.perft` file the `perft`
//! lines of a rejected `epd` line go with it.

use crate::args::whole_number;
use crate::input::quote;
use constmove::Position;

/// Deepest count a file may ask for. Unlike the command line's limit this is not about
/// run time (the suite's node guard bounds that whatever the file claims; published files
/// have "perft 32 1" for a position with a single legal line) but catches absurd depths.
const MAX_FILE_DEPTH: u32 = 128;

/// One position of a suite with its expected counts.
#[derive(Debug)]
pub struct Case {
    /// The `id` of a `.perft` entry, if it had one.
    pub name: Option<String>,
    /// The FEN as written in the file.
    pub fen: String,
    /// The parsed position.
    pub position: Position,
    /// The expected counts, in file order.
    pub counts: Vec<Expected>,
}

/// One expected perft count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    /// The 1-based line it was read from.
    pub line: usize,
    /// The depth.
    pub depth: u32,
    /// The published node count.
    pub nodes: u64,
}

/// A problem with a line of the file.
#[derive(Debug, PartialEq, Eq)]
pub struct LineError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong, as one line.
    pub message: String,
}

/// A suite file read: the cases, and the lines that could not be read.
#[derive(Debug, Default)]
pub struct Suite {
    /// The positions with their counts, in file order.
    pub cases: Vec<Case>,
    /// The lines that could not be read, in file order.
    pub errors: Vec<LineError>,
}

/// Parses a suite file of either format.
pub fn parse(text: &str) -> Suite {
    // Many editors on Windows start a UTF-8 file with one; it is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_perft_format = significant_lines(text).any(|(_, line)| keyword(line).0 == "epd");
    if is_perft_format {
        parse_perft(text)
    } else {
        parse_epd(text)
    }
}

/// `(1-based number, trimmed line)` of every line that is neither blank nor a comment.
fn significant_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The first word of a line and the trimmed rest.
fn keyword(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    }
}

/// The EPD format: `FEN ;D1 n ;D2 n ...`.
fn parse_epd(text: &str) -> Suite {
    let mut suite = Suite::default();
    for (line, content) in significant_lines(text) {
        let read = || {
            let mut fields = content.split(';');
            let fen = fields.next().unwrap_or_default().trim();
            let mut case = new_case(line, None, fen)?;
            for field in fields.map(str::trim).filter(|field| !field.is_empty()) {
                case.counts.push(parse_epd_count(line, field)?);
            }
            Ok(case)
        };
        match read() {
            Ok(case) => suite.cases.push(case),
            Err(error) => suite.errors.push(error),
        }
    }
    suite
}

/// One `D<depth> <nodes>` operation of an EPD line.
fn parse_epd_count(line: usize, field: &str) -> Result<Expected, LineError> {
    let bad = || LineError {
        line,
        message: format!("expected \"D<depth> <nodes>\", found {}", quote(field)),
    };
    let (operation, nodes) = keyword(field);
    let depth = operation.strip_prefix('D').ok_or_else(bad)?;
    let depth = parse_depth(line, depth)?;
    let nodes = whole_number(nodes).ok_or_else(bad)?;
    Ok(Expected { line, depth, nodes })
}

/// The `.perft` format: `id`, `epd` and `perft` lines.
fn parse_perft(text: &str) -> Suite {
    let mut suite = Suite::default();
    let mut pending_name = None;
    // Whether the last `epd` line was rejected: its `perft` lines go with it.
    let mut rejected = false;
    for (line, content) in significant_lines(text) {
        let result = match keyword(content) {
            ("id", name) => {
                pending_name = Some(name.to_owned());
                Ok(())
            }
            ("epd", fen) => match new_case(line, pending_name.take(), fen) {
                Ok(case) => {
                    rejected = false;
                    suite.cases.push(case);
                    Ok(())
                }
                Err(error) => {
                    rejected = true;
                    Err(error)
                }
            },
            ("perft", _) if rejected => Ok(()),
            ("perft", count) => match suite.cases.last_mut() {
                Some(case) => parse_perft_count(line, count).map(|count| case.counts.push(count)),
                None => Err(LineError {
                    line,
                    message: "a perft line before any epd line".to_owned(),
                }),
            },
            (word, _) => Err(LineError {
                line,
                message: format!("unknown line {} (expected id, epd or perft)", quote(word)),
            }),
        };
        if let Err(error) = result {
            suite.errors.push(error);
        }
    }
    suite
}

/// The `DEPTH NODES` of a `perft` line.
fn parse_perft_count(line: usize, text: &str) -> Result<Expected, LineError> {
    let bad = || LineError {
        line,
        message: format!(
            "expected \"perft <depth> <nodes>\", found {}",
            quote(&format!("perft {text}"))
        ),
    };
    let (depth, nodes) = keyword(text);
    let depth = parse_depth(line, depth)?;
    let nodes = whole_number(nodes).ok_or_else(bad)?;
    Ok(Expected { line, depth, nodes })
}

/// A depth of a file entry, 0 to [`MAX_FILE_DEPTH`].
fn parse_depth(line: usize, text: &str) -> Result<u32, LineError> {
    match whole_number::<u32>(text) {
        Some(depth) if depth <= MAX_FILE_DEPTH => Ok(depth),
        _ => Err(LineError {
            line,
            message: format!(
                "invalid depth {} (expected 0 to {MAX_FILE_DEPTH})",
                quote(text)
            ),
        }),
    }
}

/// A case for the FEN on `line`, without counts yet.
fn new_case(line: usize, name: Option<String>, fen: &str) -> Result<Case, LineError> {
    let position = Position::from_fen(fen).map_err(|error| LineError {
        line,
        message: format!("{error} in {}", quote(fen)),
    })?;
    Ok(Case {
        name,
        fen: fen.to_owned(),
        position,
        counts: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depths_and_nodes(case: &Case) -> Vec<(u32, u64)> {
        case.counts.iter().map(|c| (c.depth, c.nodes)).collect()
    }

    #[test]
    fn epd_without_space_before_semicolon() {
        let text = "# comment\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25;D3 170\n";
        let cases = parse(text).cases;
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].counts[0].line, 3);
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 5), (2, 25), (3, 170)]);
    }

    #[test]
    fn perft_format_with_ids() {
        let text = "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                    perft 1 20\n# gap\nperft 2 400\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n";
        let cases = parse(text).cases;
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].name.as_deref(), Some("start"));
        assert_eq!(cases[1].name, None);
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 20), (2, 400)]);
        assert_eq!(cases[0].counts[1].line, 5);
    }

    fn error_lines(text: &str) -> Vec<usize> {
        parse(text).errors.iter().map(|error| error.line).collect()
    }

    #[test]
    fn errors_name_the_line_and_the_rest_is_read() {
        let bad_fen = "4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n4k3/8/8 w - - ;D1 5\n";
        assert_eq!(error_lines(bad_fen), [2]);
        assert_eq!(parse(bad_fen).cases.len(), 1);
        let bad_count = "4k3/8/8/8/8/8/8/4K3 w - - ;D1 five\n";
        assert_eq!(error_lines(bad_count), [1]);
        let orphan = "perft 1 20\nepd 4k3/8/8/8/8/8/8/4K3 w - -\n";
        assert_eq!(error_lines(orphan), [1]);
        let unknown = "epd 4k3/8/8/8/8/8/8/4K3 w - -\nbogus 1\nperft 1 5\n";
        assert_eq!(error_lines(unknown), [2]);
        assert_eq!(depths_and_nodes(&parse(unknown).cases[0]), [(1, 5)]);
        for signed in [";D+1 5", ";D1 +5"] {
            let text = format!("4k3/8/8/8/8/8/8/4K3 w - - {signed}\n");
            assert_eq!(error_lines(&text), [1], "{signed}");
        }
        // A rejected epd line takes its perft lines with it; the next entry is read.
        let text = "epd 4k3/8/8 w - -\nperft 1 5\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n";
        assert_eq!(error_lines(text), [1]);
        assert_eq!(parse(text).cases.len(), 1);
    }

    #[test]
    fn a_long_bad_line_is_quoted_short() {
        let text = format!("{} ;D1 5\n", "x".repeat(10_000));
        let errors = parse(&text).errors;
        assert!(errors[0].message.len() < 300, "{}", errors[0].message);
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let cases = parse("\u{feff}4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n").cases;
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 5)]);
    }
}
