//! The one error type every command returns, and how it maps to an exit status.
//!
//! A command either succeeds (exit 0, or 1 when a suite found mismatches) or fails with a
//! [`CliError`]: a user mistake (exit 2, one line on stderr) or a closed stdout. A closed
//! stdout is not the user's mistake, so it ends the program quietly instead, the way `head`
//! expects a producer to behave.

use std::fmt;
use std::io;

/// Why a command stopped early.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: an argument, a FEN, a move, a file. Printed as one line; exit status 2.
    Usage(String),
    /// Writing to stdout failed because its reader went away (`constmove ... | head -1`).
    BrokenPipe,
    /// Writing to stdout failed for another reason (disk full, ...). Exit status 2.
    Output(io::Error),
    /// Ctrl-C stopped a count after its partial results were written. Exit status 130.
    Interrupted(String),
}

/// What every command returns: its exit status on success.
pub type CliResult<T = u8> = Result<T, CliError>;

impl CliError {
    /// A user error with the given message (no `constmove:` prefix, no newline).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage(message.into())
    }
}

impl From<io::Error> for CliError {
    /// Output errors arrive through `?` on `writeln!`; a broken pipe is singled out here so
    /// no command has to think about it.
    fn from(error: io::Error) -> CliError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Output(error)
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::BrokenPipe => f.write_str("stdout was closed"),
            CliError::Output(error) => write!(f, "cannot write the output: {error}"),
            CliError::Interrupted(message) => f.write_str(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_pipe_is_recognised() {
        let error = CliError::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(error, CliError::BrokenPipe));
        let error = CliError::from(io::Error::other("disk full"));
        assert!(matches!(error, CliError::Output(_)));
    }
}
