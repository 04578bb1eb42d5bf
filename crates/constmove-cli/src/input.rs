//! Reading the files the commands are given (workloads, results, suites) within bounds, and
//! keeping quotes of bad input short.
//!
//! Every file is read through [`read_bounded`]: a line longer than its limit or a file larger
//! than its total is an error naming the file and line, at once, so `suite /dev/zero` fails
//! on its first line instead of filling memory. Every error line goes through
//! [`clip_quotes`], so a message quotes at most [`QUOTE_CHARS`] characters of any text.

use crate::error::{CliError, CliResult};
use std::io::Read;

/// The most characters of offending text an error quotes.
pub const QUOTE_CHARS: usize = 100;

/// How long lines and files of one kind may be.
#[derive(Clone, Copy)]
pub struct Bounds {
    /// What the file is, for messages (`workload`, `results`, `suite`).
    pub what: &'static str,
    /// The longest line, in bytes, without its newline.
    pub line: usize,
    /// The largest file, in bytes.
    pub total: u64,
}

/// Reads `path` whole, or fails as soon as a line or the whole is over `bounds`.
pub fn read_bounded(path: &str, bounds: Bounds) -> CliResult<Vec<u8>> {
    let what = bounds.what;
    let mut file = std::fs::File::open(path)
        .map_err(|error| CliError::usage(format!("cannot read {what} {path:?}: {error}")))?;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    // Where the current line starts, and its number (from 1).
    let mut line_start = 0usize;
    let mut line = 1usize;
    loop {
        let read = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => {
                return Err(CliError::usage(format!(
                    "cannot read {what} {path:?}: {error}"
                )));
            }
        };
        if (bytes.len() + read) as u64 > bounds.total {
            return Err(CliError::usage(format!(
                "{path}: the {what} file is larger than {} bytes (at most that is read)",
                bounds.total
            )));
        }
        let old = bytes.len();
        bytes.extend_from_slice(&chunk[..read]);
        for at in old..bytes.len() {
            if bytes[at] == b'\n' {
                check_line(path, bounds, line, &bytes[line_start..at])?;
                line += 1;
                line_start = at + 1;
            }
        }
        check_line(path, bounds, line, &bytes[line_start..])?;
    }
    Ok(bytes)
}

/// `bytes` as text; the error names the first line that is not UTF-8.
pub fn utf8(path: &str, bytes: Vec<u8>) -> CliResult<String> {
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let line = 1 + error.as_bytes()[..valid]
            .iter()
            .filter(|&&byte| byte == b'\n')
            .count();
        CliError::usage(format!("{path}:{line}: the line is not valid UTF-8"))
    })
}

/// The error for a line over the limit.
fn check_line(path: &str, bounds: Bounds, number: usize, text: &[u8]) -> CliResult<()> {
    if text.len() <= bounds.line {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "{path}:{number}: line longer than {} bytes (not a {} line?): {}",
        bounds.line,
        bounds.what,
        quote(&String::from_utf8_lossy(
            &text[..text.len().min(4 * QUOTE_CHARS)]
        ))
    )))
}

/// `text` quoted as `{:?}` does, cut to [`QUOTE_CHARS`] characters (then ending in `...`).
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{:?}...", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// `message` with every `"..."` quote in it cut to [`QUOTE_CHARS`] characters of its
/// text: messages quote input with `{:?}` in many places, including the library's.
pub fn clip_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut chars = message.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        // Inside a quote: copy escapes whole, count characters, stop at the closing quote.
        let mut shown = 0usize;
        let mut cut = false;
        while let Some(c) = chars.next() {
            if c == '"' {
                if cut {
                    out.push_str("\"...");
                } else {
                    out.push('"');
                }
                break;
            }
            let mut piece = String::from(c);
            if c == '\\'
                && let Some(next) = chars.next()
            {
                piece.push(next);
                if next == 'u' {
                    // `\u{...}`
                    for c in chars.by_ref() {
                        piece.push(c);
                        if c == '}' {
                            break;
                        }
                    }
                }
            }
            if shown < QUOTE_CHARS {
                out.push_str(&piece);
                shown += 1;
            } else {
                cut = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_cut_to_a_hundred_characters() {
        let long = "x".repeat(1000);
        let quoted = quote(&long);
        assert_eq!(quoted, format!("{:?}...", "x".repeat(100)));
        assert_eq!(quote("ab"), "\"ab\"");
        let message = format!("bad {:?} and {:?}", long, "short\n");
        let clipped = clip_quotes(&message);
        assert_eq!(
            clipped,
            format!("bad \"{}\"... and \"short\\n\"", "x".repeat(100))
        );
    }
}
