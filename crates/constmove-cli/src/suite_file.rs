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
//! Every FEN is parsed here, before any counting, so a bad file fails at once with the
//! number of the offending line instead of after minutes of perft.

use crate::args::whole_number;
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

/// Parses a suite file of either format.
pub fn parse(text: &str) -> Result<Vec<Case>, LineError> {
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
fn parse_epd(text: &str) -> Result<Vec<Case>, LineError> {
    let mut cases = Vec::new();
    for (line, content) in significant_lines(text) {
        let mut fields = content.split(';');
        let fen = fields.next().unwrap_or_default().trim();
        let mut case = new_case(line, None, fen)?;
        for field in fields.map(str::trim).filter(|field| !field.is_empty()) {
            case.counts.push(parse_epd_count(line, field)?);
        }
        cases.push(case);
    }
    Ok(cases)
}

/// One `D<depth> <nodes>` operation of an EPD line.
fn parse_epd_count(line: usize, field: &str) -> Result<Expected, LineError> {
    let bad = || LineError {
        line,
        message: format!("expected \"D<depth> <nodes>\", found {field:?}"),
    };
    let (operation, nodes) = keyword(field);
    let depth = operation.strip_prefix('D').ok_or_else(bad)?;
    let depth = parse_depth(line, depth)?;
    let nodes = whole_number(nodes).ok_or_else(bad)?;
    Ok(Expected { line, depth, nodes })
}

/// The `.perft` format: `id`, `epd` and `perft` lines.
fn parse_perft(text: &str) -> Result<Vec<Case>, LineError> {
    let mut cases: Vec<Case> = Vec::new();
    let mut pending_name = None;
    for (line, content) in significant_lines(text) {
        match keyword(content) {
            ("id", name) => pending_name = Some(name.to_owned()),
            ("epd", fen) => cases.push(new_case(line, pending_name.take(), fen)?),
            ("perft", count) => {
                let case = cases.last_mut().ok_or_else(|| LineError {
                    line,
                    message: "a perft line before any epd line".to_owned(),
                })?;
                case.counts.push(parse_perft_count(line, count)?);
            }
            (word, _) => {
                return Err(LineError {
                    line,
                    message: format!("unknown line {word:?} (expected id, epd or perft)"),
                });
            }
        }
    }
    Ok(cases)
}

/// The `DEPTH NODES` of a `perft` line.
fn parse_perft_count(line: usize, text: &str) -> Result<Expected, LineError> {
    let bad = || LineError {
        line,
        message: format!("expected \"perft <depth> <nodes>\", found \"perft {text}\""),
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
            message: format!("invalid depth {text:?} (expected 0 to {MAX_FILE_DEPTH})"),
        }),
    }
}

/// A case for the FEN on `line`, without counts yet.
fn new_case(line: usize, name: Option<String>, fen: &str) -> Result<Case, LineError> {
    let position = Position::from_fen(fen).map_err(|error| LineError {
        line,
        message: format!("{error} in {fen:?}"),
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
        let cases = parse(text).expect("valid EPD");
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].counts[0].line, 3);
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 5), (2, 25), (3, 170)]);
    }

    #[test]
    fn perft_format_with_ids() {
        let text = "id start\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                    perft 1 20\n# gap\nperft 2 400\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nperft 1 5\n";
        let cases = parse(text).expect("valid .perft");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].name.as_deref(), Some("start"));
        assert_eq!(cases[1].name, None);
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 20), (2, 400)]);
        assert_eq!(cases[0].counts[1].line, 5);
    }

    #[test]
    fn errors_name_the_line() {
        let bad_fen = "4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n4k3/8/8 w - - ;D1 5\n";
        assert_eq!(parse(bad_fen).map(|_| ()).unwrap_err().line, 2);
        let bad_count = "4k3/8/8/8/8/8/8/4K3 w - - ;D1 five\n";
        assert_eq!(parse(bad_count).map(|_| ()).unwrap_err().line, 1);
        let orphan = "perft 1 20\nepd 4k3/8/8/8/8/8/8/4K3 w - -\n";
        assert_eq!(parse(orphan).map(|_| ()).unwrap_err().line, 1);
        let unknown = "epd 4k3/8/8/8/8/8/8/4K3 w - -\nbogus 1\n";
        assert_eq!(parse(unknown).map(|_| ()).unwrap_err().line, 2);
        for signed in [";D+1 5", ";D1 +5"] {
            let text = format!("4k3/8/8/8/8/8/8/4K3 w - - {signed}\n");
            assert_eq!(parse(&text).map(|_| ()).unwrap_err().line, 1, "{signed}");
        }
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let cases = parse("\u{feff}4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n").expect("valid EPD");
        assert_eq!(depths_and_nodes(&cases[0]), [(1, 5)]);
    }
}
