//! The little JSON the `--json` options need, written by hand (the crate takes no
//! dependencies): string quoting and finite numbers. Objects are assembled by the callers
//! with `write!`, always on one line.

use std::fmt::Write as _;

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            // Other control characters have no short escape; JSON requires them escaped.
            c if u32::from(c) < 0x20 => {
                let _ = write!(quoted, "\\u{:04x}", u32::from(c));
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// `value` as a JSON number with `decimals` digits after the point. JSON has no NaN or
/// infinity, so those (which a caller should never produce) become `0`.
pub fn number(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        "0".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("e2e4"), "\"e2e4\"");
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn numbers_are_finite() {
        assert_eq!(number(0.5, 3), "0.500");
        assert_eq!(number(f64::INFINITY, 3), "0");
        assert_eq!(number(f64::NAN, 0), "0");
    }
}
