//! The little JSON the command needs, by hand (the crate takes no dependencies): string
//! quoting and finite numbers for `--json`, whose objects the callers assemble with
//! `write!`, always on one line; and a reader of flat one-line objects for the results
//! files `perft --results` writes and `merge` reads.

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

/// A value of a flat JSON object, as [`parse_flat_object`] reads it: numbers keep their
/// text, so that integers past 2⁶⁴ and past a double's 53 bits stay exact.
#[derive(Clone, PartialEq, Debug)]
pub enum Value {
    /// A number, as written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// The `key: value` pairs of one JSON object whose values are numbers, strings, booleans
/// or null (no nested arrays or objects: the results files need none), in order. The error
/// says what is wrong and where.
pub fn parse_flat_object(text: &str) -> Result<Vec<(String, Value)>, String> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
    };
    reader.expect(b'{')?;
    let mut pairs = Vec::new();
    reader.skip_space();
    if reader.peek() == Some(b'}') {
        reader.at += 1;
    } else {
        loop {
            reader.skip_space();
            let key = reader.string()?;
            reader.expect(b':')?;
            reader.skip_space();
            let value = reader.value()?;
            pairs.push((key, value));
            reader.skip_space();
            match reader.next() {
                Some(b',') => continue,
                Some(b'}') => break,
                _ => return Err(reader.error("`,` or `}`")),
            }
        }
    }
    reader.skip_space();
    if reader.at != reader.text.len() {
        return Err(reader.error("the end of the line after the object"));
    }
    Ok(pairs)
}

/// A cursor over the bytes of one line.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    fn error(&self, expected: &str) -> String {
        match self.peek() {
            Some(byte) => format!(
                "expected {expected} at column {}, found {:?}",
                self.at + 1,
                char::from(byte)
            ),
            None => format!(
                "expected {expected} at column {}, found the end",
                self.at + 1
            ),
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("`{}`", char::from(byte))))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err(self.error("a string"));
        }
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            match self.next() {
                None => return Err(self.error("a closing `\"`")),
                Some(b'"') => break,
                Some(b'\\') => {
                    let escaped = match self.next() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => {
                            let hex = self.text.get(self.at..self.at + 4).unwrap_or_default();
                            let code = std::str::from_utf8(hex)
                                .ok()
                                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.error("four hex digits after `\\u`"))?;
                            self.at += 4;
                            code
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.error("an escape after `\\`"));
                        }
                    };
                    let mut buffer = [0; 4];
                    bytes.extend_from_slice(escaped.encode_utf8(&mut buffer).as_bytes());
                }
                Some(byte) if byte < 0x20 => {
                    self.at -= 1;
                    return Err(self.error("no control character in a string"));
                }
                Some(byte) => bytes.push(byte),
            }
        }
        String::from_utf8(bytes).map_err(|_| "a string is not valid UTF-8".to_owned())
    }

    fn value(&mut self) -> Result<Value, String> {
        for (word, value) in [
            ("null", Value::Null),
            ("true", Value::Bool(true)),
            ("false", Value::Bool(false)),
        ] {
            if self.text[self.at..].starts_with(word.as_bytes()) {
                self.at += word.len();
                return Ok(value);
            }
        }
        match self.peek() {
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    self.at += 1;
                }
                let text = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
                Ok(Value::Number(text))
            }
            _ => Err(self.error("a value (number, string, true, false or null)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_objects_are_read_back() {
        let line = format!(
            "{{\"a\":18446744073709551616,\"b\":{} , \"c\":null,\"d\":true,\"e\":-1.5e3}}",
            string("x\"y\\z\u{1}é")
        );
        let pairs = parse_flat_object(&line).unwrap();
        assert_eq!(
            pairs,
            [
                ("a".into(), Value::Number("18446744073709551616".into())),
                ("b".into(), Value::String("x\"y\\z\u{1}é".into())),
                ("c".into(), Value::Null),
                ("d".into(), Value::Bool(true)),
                ("e".into(), Value::Number("-1.5e3".into())),
            ]
        );
        assert_eq!(parse_flat_object(" { } "), Ok(Vec::new()));
    }

    #[test]
    fn broken_objects_say_where() {
        let error = |text: &str| parse_flat_object(text).unwrap_err();
        assert_eq!(error(""), "expected `{` at column 1, found the end");
        assert_eq!(
            error("{\"unit\":3,\"fen\":\"abc"),
            "expected a closing `\"` at column 21, found the end"
        );
        assert_eq!(
            error("{\"a\":1}x"),
            "expected the end of the line after the object at column 8, found 'x'"
        );
        assert_eq!(
            error("{\"a\":[1]}"),
            "expected a value (number, string, true, false or null) at column 6, found '['"
        );
        assert_eq!(error("{\"a\" 1}"), "expected `:` at column 6, found '1'");
    }

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
