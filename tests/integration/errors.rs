//! Every error type is a `core::error::Error` (with or without `std`) that is `Send`, `Sync`
//! and `'static`, so `?` boxes it; its message names what is wrong. `Debug` of a square is
//! its name.

use constmove::deep::{SplitError, TableAllocError, WorkUnitError};
use constmove::fen::{FenError, PositionError};
use constmove::san::SanError;
use constmove::uci::UciMoveError;
use constmove::{
    Backend, BackendUnavailable, ParseBackendError, ParseSquareError, Position, Square,
};
use core::error::Error;

/// Compiles only for types an application can box and send between threads.
fn is_error<E: Error + Send + Sync + 'static>() {}

#[test]
fn every_error_type_is_an_error() {
    is_error::<BackendUnavailable>();
    is_error::<FenError>();
    is_error::<ParseBackendError>();
    is_error::<ParseSquareError>();
    is_error::<PositionError>();
    is_error::<SanError>();
    is_error::<SplitError>();
    is_error::<TableAllocError>();
    is_error::<UciMoveError>();
    is_error::<constmove::PlayError>();
    is_error::<WorkUnitError>();
}

/// Each step fails with a different error type; `?` turns each into the box.
fn parse_all(square: &str, backend: &str, fen: &str) -> Result<(), Box<dyn Error>> {
    let _: Square = square.parse()?;
    let _: Backend = backend.parse()?;
    let _: Position = fen.parse()?;
    Ok(())
}

#[test]
fn question_mark_boxes_them_with_their_message() {
    let start = constmove::fen::STARTPOS_FEN;
    assert!(parse_all("e4", "magic", start).is_ok());
    let err = parse_all("i9", "magic", start).unwrap_err();
    assert_eq!(err.to_string(), ParseSquareError.to_string());
    assert!(err.to_string().contains("e4"), "{err}");
    let err = parse_all("e4", "avx", start).unwrap_err();
    assert!(err.to_string().contains("auto, pext or magic"), "{err}");
    assert!(parse_all("e4", "magic", "not a fen").is_err());
}

/// A FEN's text errors and its position errors are told apart by type, and a position
/// error reads the same on its own as inside [`FenError`].
#[test]
fn fen_syntax_and_position_errors_are_apart() {
    let syntax = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - e9 0 1").unwrap_err();
    assert_eq!(syntax, FenError::EnPassantSyntax);
    let position = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - e3 0 1").unwrap_err();
    let FenError::Position(inner) = position else {
        panic!("{position:?} is not a position error");
    };
    assert_eq!(
        inner,
        PositionError::EnPassantRank {
            square: "e3".parse().unwrap()
        }
    );
    assert_eq!(position.to_string(), inner.to_string());
    assert_eq!(FenError::from(inner), position);
    assert!(position.source().is_none());
}

#[test]
fn backend_unavailable_names_the_backend() {
    let err = BackendUnavailable {
        backend: Backend::Pext,
    };
    assert_eq!(err.backend, Backend::Pext);
    assert!(err.to_string().contains("`pext`"), "{err}");
    // Where this CPU cannot run PEXT, forcing it gives that error.
    if let Err(err) = Backend::Pext.resolve() {
        assert_eq!(err.backend, Backend::Pext);
    }
}

#[test]
fn debug_of_a_square_is_its_name() {
    let e3: Square = "e3".parse().unwrap();
    assert_eq!(format!("{e3:?}"), "e3");
    assert_eq!(
        format!("{:?}", [Square::new(0), Square::new(63)]),
        "[Some(a1), Some(h8)]"
    );
}
