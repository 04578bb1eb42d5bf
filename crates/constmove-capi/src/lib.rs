//! constmove's C ABI: the functions and types declared in `include/constmove.h`.
//!
//! A thin layer over the library's public API. Every function returns a [`cm_status`]
//! code (`CM_OK` is 0), refuses null pointers with `CM_ERR_NULL`, and runs its body under
//! `catch_unwind`, so a panic never unwinds into C (it becomes `CM_ERR_PANIC`). The only
//! allocation handed to C is the position, freed by `cm_position_free`; text goes into the
//! caller's buffers, always NUL-terminated when the buffer has room for one byte.
//!
//! Moves cross as 16 bits: origin square (bits 0-5, a1 = 0, h8 = 63), destination
//! (bits 6-11) and kind (bits 12-15: `CM_MOVE_*`). The layout is this crate's, converted
//! through [`Move::new`] and the move's accessors, so the library may change its own.
#![allow(non_camel_case_types)]

use constmove::deep::{HashTable, divide_parallel, divide_parallel_stats};
use constmove::{
    Color, Move, MoveKind, Outcome, PerftOptions, PerftStats, Piece, Position, Square, perft,
    perft_stats,
};
use core::ffi::{c_char, c_int};
use std::ffi::CStr;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A status code: `CM_OK` (0) or one of the `CM_ERR_*` codes.
pub type cm_status = c_int;

/// Success.
pub const CM_OK: cm_status = 0;
/// A required pointer was null.
pub const CM_ERR_NULL: cm_status = 1;
/// The FEN was rejected; the message names the field.
pub const CM_ERR_FEN: cm_status = 2;
/// A move's text is not UCI (`e2e4`, `e7e8q`) or not valid UTF-8.
pub const CM_ERR_MOVE_SYNTAX: cm_status = 3;
/// The move is not legal in the position.
pub const CM_ERR_ILLEGAL_MOVE: cm_status = 4;
/// The caller's buffer is too small; nothing useful was written.
pub const CM_ERR_BUFFER: cm_status = 5;
/// An argument is out of range (an unknown move kind, a bad thread count).
pub const CM_ERR_ARGUMENT: cm_status = 6;
/// A hash table of the requested size could not be allocated.
pub const CM_ERR_ALLOC: cm_status = 7;
/// The count was interrupted (a worker thread failed).
pub const CM_ERR_INCOMPLETE: cm_status = 8;
/// A bug: the library panicked (the panic was stopped at the boundary).
pub const CM_ERR_PANIC: cm_status = 9;

/// Kind bits of a plain move or capture.
pub const CM_MOVE_NORMAL: u16 = 0;
/// Kind bits of a pawn's double push.
pub const CM_MOVE_DOUBLE_PUSH: u16 = 1;
/// Kind bits of castling (king to its destination, or king-takes-rook in Chess960).
pub const CM_MOVE_CASTLE: u16 = 2;
/// Kind bits of an en-passant capture.
pub const CM_MOVE_EN_PASSANT: u16 = 3;
/// Kind bits of a promotion to a knight.
pub const CM_MOVE_PROMOTE_KNIGHT: u16 = 4;
/// Kind bits of a promotion to a bishop.
pub const CM_MOVE_PROMOTE_BISHOP: u16 = 5;
/// Kind bits of a promotion to a rook.
pub const CM_MOVE_PROMOTE_ROOK: u16 = 6;
/// Kind bits of a promotion to a queen.
pub const CM_MOVE_PROMOTE_QUEEN: u16 = 7;

/// The game goes on (or only a repetition could end it: the caller keeps the history).
pub const CM_OUTCOME_NONE: c_int = 0;
/// White gave checkmate.
pub const CM_OUTCOME_WHITE_MATES: c_int = 1;
/// Black gave checkmate.
pub const CM_OUTCOME_BLACK_MATES: c_int = 2;
/// Stalemate.
pub const CM_OUTCOME_STALEMATE: c_int = 3;
/// Neither side can mate.
pub const CM_OUTCOME_INSUFFICIENT_MATERIAL: c_int = 4;
/// The fifty-move rule.
pub const CM_OUTCOME_FIFTY_MOVES: c_int = 5;

/// The most legal moves any position has: a buffer this long always suffices.
pub const CM_MAX_MOVES: usize = constmove::MAX_MOVES;

/// A position, opaque to C: made by `cm_position_from_fen`, `cm_position_startpos` or
/// `cm_position_clone`, released by `cm_position_free`.
pub struct cm_position(Position);

/// The chessprogramming wiki's perft statistics of the last ply.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cm_stats {
    /// Leaves.
    pub nodes: u64,
    /// Captures, en passant included.
    pub captures: u64,
    /// En-passant captures.
    pub en_passant: u64,
    /// Castles.
    pub castles: u64,
    /// Promotions.
    pub promotions: u64,
    /// Checking moves, mates included.
    pub checks: u64,
    /// Discovered (single) checks.
    pub discovered_checks: u64,
    /// Double checks.
    pub double_checks: u64,
    /// Checkmates.
    pub checkmates: u64,
}

/// One root move and its perft count, as `cm_divide` writes them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct cm_move_count {
    /// The subtree's leaves.
    pub nodes: u64,
    /// The root move.
    pub move_: u16,
}

// The header's static asserts state the same layout.
const _: () = assert!(core::mem::size_of::<cm_stats>() == 72);
const _: () = assert!(core::mem::size_of::<cm_move_count>() == 16);
const _: () = assert!(core::mem::offset_of!(cm_move_count, move_) == 8);

/// Runs `body` so that no panic crosses into C.
fn guard(body: impl FnOnce() -> cm_status) -> cm_status {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(CM_ERR_PANIC)
}

/// Copies `text` into `buf` of `len` bytes, NUL-terminated; `CM_ERR_BUFFER` when it does
/// not fit whole (a truncated prefix is still written).
///
/// # Safety
/// `buf` is null or valid for `len` bytes of writes.
unsafe fn write_text(text: &str, buf: *mut c_char, len: usize) -> cm_status {
    if buf.is_null() {
        return CM_ERR_NULL;
    }
    if len == 0 {
        return CM_ERR_BUFFER;
    }
    let n = text.len().min(len - 1);
    // SAFETY: the caller gives `len` writable bytes at `buf`; n + 1 <= len.
    unsafe {
        core::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
        *buf.add(n) = 0;
    }
    if n == text.len() {
        CM_OK
    } else {
        CM_ERR_BUFFER
    }
}

/// A move as the C ABI's 16 bits.
fn encode(mv: Move) -> u16 {
    let kind = match mv.kind() {
        MoveKind::Normal => CM_MOVE_NORMAL,
        MoveKind::DoublePush => CM_MOVE_DOUBLE_PUSH,
        MoveKind::Castle => CM_MOVE_CASTLE,
        MoveKind::EnPassant => CM_MOVE_EN_PASSANT,
        MoveKind::Promotion(Piece::Knight) => CM_MOVE_PROMOTE_KNIGHT,
        MoveKind::Promotion(Piece::Bishop) => CM_MOVE_PROMOTE_BISHOP,
        MoveKind::Promotion(Piece::Rook) => CM_MOVE_PROMOTE_ROOK,
        // A legal move never promotes to a pawn or king.
        MoveKind::Promotion(_) => CM_MOVE_PROMOTE_QUEEN,
    };
    mv.from().index() as u16 | (mv.to().index() as u16) << 6 | kind << 12
}

/// The C ABI's 16 bits as a move; `None` for kind bits above `CM_MOVE_PROMOTE_QUEEN`.
fn decode(bits: u16) -> Option<Move> {
    let from = Square::new((bits & 63) as u8)?;
    let to = Square::new((bits >> 6 & 63) as u8)?;
    let kind = match bits >> 12 {
        CM_MOVE_NORMAL => MoveKind::Normal,
        CM_MOVE_DOUBLE_PUSH => MoveKind::DoublePush,
        CM_MOVE_CASTLE => MoveKind::Castle,
        CM_MOVE_EN_PASSANT => MoveKind::EnPassant,
        CM_MOVE_PROMOTE_KNIGHT => MoveKind::Promotion(Piece::Knight),
        CM_MOVE_PROMOTE_BISHOP => MoveKind::Promotion(Piece::Bishop),
        CM_MOVE_PROMOTE_ROOK => MoveKind::Promotion(Piece::Rook),
        CM_MOVE_PROMOTE_QUEEN => MoveKind::Promotion(Piece::Queen),
        _ => return None,
    };
    Some(Move::new(from, to, kind))
}

/// Boxes `position` into `*out`.
///
/// # Safety
/// `out` is valid for a write.
unsafe fn hand_out(position: Position, out: *mut *mut cm_position) -> cm_status {
    // SAFETY: checked non-null by every caller; valid per the caller's contract.
    unsafe { *out = Box::into_raw(Box::new(cm_position(position))) };
    CM_OK
}

/// The library's version, a static NUL-terminated string (never freed).
#[unsafe(no_mangle)]
pub extern "C" fn cm_version() -> *const c_char {
    c"0.1.0".as_ptr()
}

/// Parses `fen` into a new position at `*out` (to free with `cm_position_free`). On
/// `CM_ERR_FEN`, `*out` is null and the reason (naming the FEN field) is copied into `err`
/// (`err_len` bytes; `err` may be null).
///
/// # Safety
/// `fen` is null or a NUL-terminated string; `out` is null or writable; `err` is null or
/// valid for `err_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_position_from_fen(
    fen: *const c_char,
    out: *mut *mut cm_position,
    err: *mut c_char,
    err_len: usize,
) -> cm_status {
    guard(|| {
        if out.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: `out` is non-null and writable per the contract.
        unsafe { *out = core::ptr::null_mut() };
        let report = |message: &str, code| {
            if !err.is_null() && err_len > 0 {
                // SAFETY: `err` is valid for `err_len` bytes per the contract; truncation is fine.
                let _ = unsafe { write_text(message, err, err_len) };
            }
            code
        };
        if fen.is_null() {
            return report("fen is a null pointer", CM_ERR_NULL);
        }
        // SAFETY: `fen` is a NUL-terminated string per the contract.
        let Ok(text) = unsafe { CStr::from_ptr(fen) }.to_str() else {
            return report("invalid FEN: not valid UTF-8", CM_ERR_FEN);
        };
        match Position::from_fen(text) {
            // SAFETY: `out` is non-null and writable.
            Ok(position) => unsafe { hand_out(position, out) },
            Err(e) => report(&e.to_string(), CM_ERR_FEN),
        }
    })
}

/// The standard starting position, new at `*out`.
///
/// # Safety
/// `out` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_position_startpos(out: *mut *mut cm_position) -> cm_status {
    guard(|| {
        if out.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: `out` is non-null and writable per the contract.
        unsafe { hand_out(Position::startpos(), out) }
    })
}

/// A copy of `pos`, new at `*out`.
///
/// # Safety
/// `pos` is null or a live position; `out` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_position_clone(
    pos: *const cm_position,
    out: *mut *mut cm_position,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if out.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: `out` is non-null and writable per the contract.
        unsafe { hand_out(pos.0.clone(), out) }
    })
}

/// Frees a position made by this library; null is ignored.
///
/// # Safety
/// `pos` is null or a live position not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_position_free(pos: *mut cm_position) {
    if !pos.is_null() {
        // SAFETY: made by Box::into_raw in `hand_out`, freed once per the contract. Dropping
        // a Position cannot panic (plain data).
        drop(unsafe { Box::from_raw(pos) });
    }
}

/// Perft: the leaves of the legal move tree `depth` plies deep into `*nodes`. `threads`
/// 0 or 1 counts on the calling thread; more splits the tree over that many threads.
/// `hash_bytes` > 0 counts through a transposition table of about that size (freed before
/// returning).
///
/// # Safety
/// `pos` is null or a live position; `nodes` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_perft(
    pos: *const cm_position,
    depth: u32,
    threads: u32,
    hash_bytes: usize,
    nodes: *mut u64,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if nodes.is_null() {
            return CM_ERR_NULL;
        }
        let table = match hash_bytes {
            0 => None,
            bytes => match HashTable::new(bytes) {
                Ok(table) => Some(table),
                Err(_) => return CM_ERR_ALLOC,
            },
        };
        let count = match (threads, &table) {
            (0 | 1, None) => Some(perft(&pos.0, depth)),
            (0 | 1, Some(table)) => PerftOptions::new().table(table).perft(&pos.0, depth).ok(),
            (n, table) => {
                let mut options = PerftOptions::new().threads(n as usize);
                if let Some(table) = table {
                    options = options.table(table);
                }
                divide_parallel(&pos.0, depth, &options, &|_| {})
                    .ok()
                    .and_then(|d| d.nodes())
            }
        };
        match count {
            Some(count) => {
                // SAFETY: non-null and writable per the contract.
                unsafe { *nodes = count };
                CM_OK
            }
            None => CM_ERR_INCOMPLETE,
        }
    })
}

/// Divide: each legal root move with its perft at `depth - 1`, into the caller's array of
/// `cap` entries (`CM_MAX_MOVES` always suffices), in legal-move order; `*len` gets the
/// number of root moves (0 at depth 0). `CM_ERR_BUFFER` when `cap` is too small (`*len`
/// still tells how many are needed).
///
/// # Safety
/// `pos` is null or a live position; `out` is null or valid for `cap` entries; `len` is
/// null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_divide(
    pos: *const cm_position,
    depth: u32,
    out: *mut cm_move_count,
    cap: usize,
    len: *mut usize,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if out.is_null() || len.is_null() {
            return CM_ERR_NULL;
        }
        let moves = if depth == 0 {
            Default::default()
        } else {
            pos.0.legal_moves()
        };
        // SAFETY: non-null and writable per the contract.
        unsafe { *len = moves.len() };
        if moves.len() > cap {
            return CM_ERR_BUFFER;
        }
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.0.clone();
            child.play_unchecked(mv);
            let entry = cm_move_count {
                nodes: perft(&child, depth - 1),
                move_: encode(mv),
            };
            // SAFETY: i < moves.len() <= cap entries, valid per the contract.
            unsafe { out.add(i).write(entry) };
        }
        CM_OK
    })
}

/// The perft statistics of the tree `depth` plies deep into `*out`, on `threads` threads
/// as `cm_perft` counts.
///
/// # Safety
/// `pos` is null or a live position; `out` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_perft_stats(
    pos: *const cm_position,
    depth: u32,
    threads: u32,
    out: *mut cm_stats,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if out.is_null() {
            return CM_ERR_NULL;
        }
        let stats: Option<PerftStats> = match threads {
            0 | 1 => Some(perft_stats(&pos.0, depth)),
            n => divide_parallel_stats(
                &pos.0,
                depth,
                &PerftOptions::new().threads(n as usize),
                &|_| {},
            )
            .ok()
            .and_then(|d| d.stats()),
        };
        let Some(s) = stats else {
            return CM_ERR_INCOMPLETE;
        };
        let stats = cm_stats {
            nodes: s.nodes,
            captures: s.captures,
            en_passant: s.en_passant,
            castles: s.castles,
            promotions: s.promotions,
            checks: s.checks,
            discovered_checks: s.discovered_checks,
            double_checks: s.double_checks,
            checkmates: s.checkmates,
        };
        // SAFETY: non-null and writable per the contract.
        unsafe { out.write(stats) };
        CM_OK
    })
}

/// The legal moves into the caller's `cap` 16-bit moves (`CM_MAX_MOVES` always suffices);
/// `*len` gets their number. `CM_ERR_BUFFER` when `cap` is too small.
///
/// # Safety
/// `pos` is null or a live position; `moves` is null or valid for `cap` writes; `len` is
/// null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_legal_moves(
    pos: *const cm_position,
    moves: *mut u16,
    cap: usize,
    len: *mut usize,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if moves.is_null() || len.is_null() {
            return CM_ERR_NULL;
        }
        let list = pos.0.legal_moves();
        // SAFETY: non-null and writable per the contract.
        unsafe { *len = list.len() };
        if list.len() > cap {
            return CM_ERR_BUFFER;
        }
        for (i, &mv) in list.iter().enumerate() {
            // SAFETY: i < list.len() <= cap, valid per the contract.
            unsafe { moves.add(i).write(encode(mv)) };
        }
        CM_OK
    })
}

/// The legal move written `uci` (`e2e4`, `e7e8q`; castling either way) into `*mv`.
///
/// # Safety
/// `pos` is null or a live position; `uci` is null or NUL-terminated; `mv` is null or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_parse_uci(
    pos: *const cm_position,
    uci: *const c_char,
    mv: *mut u16,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if uci.is_null() || mv.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: NUL-terminated per the contract.
        let Ok(text) = unsafe { CStr::from_ptr(uci) }.to_str() else {
            return CM_ERR_MOVE_SYNTAX;
        };
        match pos.0.parse_uci(text) {
            Ok(found) => {
                // SAFETY: non-null and writable per the contract.
                unsafe { *mv = encode(found) };
                CM_OK
            }
            Err(constmove::uci::UciMoveError::Malformed { .. }) => CM_ERR_MOVE_SYNTAX,
            Err(_) => CM_ERR_ILLEGAL_MOVE,
        }
    })
}

/// Plays `mv` if it is legal; otherwise `CM_ERR_ILLEGAL_MOVE` (or `CM_ERR_ARGUMENT` for
/// unknown kind bits) and the position is unchanged.
///
/// # Safety
/// `pos` is null or a live position not used by another thread meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_play(pos: *mut cm_position, mv: u16) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, used by this thread only, per the contract.
        let Some(pos) = (unsafe { pos.as_mut() }) else {
            return CM_ERR_NULL;
        };
        let Some(mv) = decode(mv) else {
            return CM_ERR_ARGUMENT;
        };
        match pos.0.play(mv) {
            Ok(()) => CM_OK,
            Err(_) => CM_ERR_ILLEGAL_MOVE,
        }
    })
}

/// Plays `mv` without checking it: for moves from `cm_legal_moves` of this position. An
/// illegal move leaves a position that may break the rules, never undefined behaviour.
///
/// # Safety
/// `pos` is null or a live position not used by another thread meanwhile.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_play_unchecked(pos: *mut cm_position, mv: u16) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, used by this thread only, per the contract.
        let Some(pos) = (unsafe { pos.as_mut() }) else {
            return CM_ERR_NULL;
        };
        let Some(mv) = decode(mv) else {
            return CM_ERR_ARGUMENT;
        };
        pos.0.play_unchecked(mv);
        CM_OK
    })
}

/// The UCI text of `mv` (`e2e4`, `e7e8q`; castling as the move stores it) into `buf` of
/// `len` bytes (6 always suffice).
///
/// # Safety
/// `buf` is null or valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_move_uci(mv: u16, buf: *mut c_char, len: usize) -> cm_status {
    guard(|| {
        let Some(mv) = decode(mv) else {
            return CM_ERR_ARGUMENT;
        };
        // SAFETY: `buf` is null or valid for `len` bytes per the contract.
        unsafe { write_text(&mv.to_string(), buf, len) }
    })
}

/// The SAN of the legal move `mv` in `pos` (`Nf3`, `O-O`, `exd8=Q+`) into `buf` of `len`
/// bytes (16 always suffice); `CM_ERR_ILLEGAL_MOVE` if `mv` is not legal there.
///
/// # Safety
/// `pos` is null or a live position; `buf` is null or valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_move_san(
    pos: *const cm_position,
    mv: u16,
    buf: *mut c_char,
    len: usize,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        let Some(mv) = decode(mv) else {
            return CM_ERR_ARGUMENT;
        };
        if !pos.0.is_legal(mv) {
            return CM_ERR_ILLEGAL_MOVE;
        }
        // SAFETY: `buf` is null or valid for `len` bytes per the contract.
        unsafe { write_text(&pos.0.san(mv), buf, len) }
    })
}

/// The position's FEN into `buf` of `len` bytes (128 always suffice).
///
/// # Safety
/// `pos` is null or a live position; `buf` is null or valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_position_fen(
    pos: *const cm_position,
    buf: *mut c_char,
    len: usize,
) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        // SAFETY: `buf` is null or valid for `len` bytes per the contract.
        unsafe { write_text(&pos.0.to_string(), buf, len) }
    })
}

/// The Polyglot Zobrist key into `*key`.
///
/// # Safety
/// `pos` is null or a live position; `key` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_zobrist(pos: *const cm_position, key: *mut u64) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if key.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: non-null and writable per the contract.
        unsafe { *key = pos.0.zobrist() };
        CM_OK
    })
}

/// Whether the side to move is in check, as 0 or 1 into `*check`.
///
/// # Safety
/// `pos` is null or a live position; `check` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_is_check(pos: *const cm_position, check: *mut c_int) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if check.is_null() {
            return CM_ERR_NULL;
        }
        // SAFETY: non-null and writable per the contract.
        unsafe { *check = c_int::from(pos.0.is_check()) };
        CM_OK
    })
}

/// What the position alone decides, as a `CM_OUTCOME_*` code into `*outcome`.
///
/// # Safety
/// `pos` is null or a live position; `outcome` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cm_outcome(pos: *const cm_position, outcome: *mut c_int) -> cm_status {
    guard(|| {
        // SAFETY: a live position or null, per the contract.
        let Some(pos) = (unsafe { pos.as_ref() }) else {
            return CM_ERR_NULL;
        };
        if outcome.is_null() {
            return CM_ERR_NULL;
        }
        let code = match pos.0.outcome() {
            None => CM_OUTCOME_NONE,
            Some(Outcome::Checkmate {
                winner: Color::White,
            }) => CM_OUTCOME_WHITE_MATES,
            Some(Outcome::Checkmate {
                winner: Color::Black,
            }) => CM_OUTCOME_BLACK_MATES,
            Some(Outcome::Stalemate) => CM_OUTCOME_STALEMATE,
            Some(Outcome::InsufficientMaterial) => CM_OUTCOME_INSUFFICIENT_MATERIAL,
            Some(Outcome::FiftyMoves) => CM_OUTCOME_FIFTY_MOVES,
        };
        // SAFETY: non-null and writable per the contract.
        unsafe { *outcome = code };
        CM_OK
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_sixteen_bits() {
        let pos: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse()
            .unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 48); // the wiki's perft(1) of Kiwipete
        for &mv in moves.iter() {
            assert_eq!(decode(encode(mv)), Some(mv));
        }
        assert_eq!(decode(9 << 12), None);
    }
}
