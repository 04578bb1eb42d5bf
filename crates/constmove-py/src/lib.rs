//! `constmove._constmove`: the Python extension module behind the `constmove` package.
//!
//! A thin layer over the library's public API: perft, divide and statistics of a FEN; a
//! `Board` named as python-chess names the same things; and batch calls that do a whole
//! list of FENs in one call on threads, without the GIL. Array results cross as `bytes` or
//! `bytearray` (at most one copy; none for one thread's legal moves) and become NumPy
//! arrays in `python/constmove/__init__.py`: no `numpy` crate, so no second version to keep
//! in step with PyO3.

use constmove::deep::{HashTable, divide_parallel, divide_parallel_stats};
use constmove::fen::STARTPOS_FEN;
use constmove::{
    Color, History, Move, Outcome, PerftOptions, Piece, Position, Square, perft as cm_perft,
    perft_stats as cm_perft_stats,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A FEN as a position, or a `ValueError` whose message names the FEN field at fault.
fn parse(fen: &str) -> PyResult<Position> {
    Position::from_fen(fen).map_err(|e| PyValueError::new_err(format!("{e}: {fen:?}")))
}

/// The thread count for a batch: the caller's, or every core.
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// python-chess's piece type numbers: pawn 1 … king 6.
fn piece_type(piece: Piece) -> u8 {
    piece as u8 + 1
}

/// Perft of `position`, on threads and through a hash table of `hash_mib` MiB if asked.
fn count(
    position: &Position,
    depth: u32,
    threads: usize,
    hash_mib: Option<usize>,
) -> PyResult<u64> {
    let table = match hash_mib {
        None | Some(0) => None,
        Some(mib) => Some(
            HashTable::new(mib.saturating_mul(1 << 20))
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        ),
    };
    let nodes = match (threads, &table) {
        (1, None) => Some(cm_perft(position, depth)),
        (1, Some(table)) => PerftOptions::new().table(table).perft(position, depth).ok(),
        (n, table) => {
            let mut options = PerftOptions::new().threads(n);
            if let Some(table) = table {
                options = options.table(table);
            }
            divide_parallel(position, depth, &options, &|_| {})
                .ok()
                .and_then(|d| d.nodes())
        }
    };
    nodes.ok_or_else(|| PyRuntimeError::new_err("the count did not finish"))
}

/// perft(fen, depth, threads=None, hash=None)
/// --
///
/// The number of leaves of the legal move tree `depth` plies deep. `threads` (default 1)
/// splits the tree over threads; `hash` is a transposition table's size in MiB. The GIL
/// is released while counting. Raises ValueError for a bad FEN, naming the field.
#[pyfunction]
#[pyo3(signature = (fen, depth, threads=None, hash=None))]
fn perft(
    py: Python<'_>,
    fen: &str,
    depth: u32,
    threads: Option<usize>,
    hash: Option<usize>,
) -> PyResult<u64> {
    let position = parse(fen)?;
    let threads = threads.unwrap_or(1).max(1);
    py.detach(|| count(&position, depth, threads, hash))
}

/// divide(fen, depth, threads=None)
/// --
///
/// The perft of each legal root move at `depth - 1`, as a dict from UCI text to count, in
/// the generator's order.
#[pyfunction]
#[pyo3(signature = (fen, depth, threads=None))]
fn divide<'py>(
    py: Python<'py>,
    fen: &str,
    depth: u32,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let position = parse(fen)?;
    let threads = threads.unwrap_or(1).max(1);
    let counts: Vec<(String, Option<u64>)> = py.detach(|| {
        divide_parallel(
            &position,
            depth,
            &PerftOptions::new().threads(threads),
            &|_| {},
        )
        .map(|d| {
            d.moves()
                .iter()
                .map(|(mv, n)| (mv.to_string(), *n))
                .collect()
        })
        .unwrap_or_default()
    });
    let dict = PyDict::new(py);
    for (uci, nodes) in counts {
        dict.set_item(
            uci,
            nodes.ok_or_else(|| PyRuntimeError::new_err("the count did not finish"))?,
        )?;
    }
    Ok(dict)
}

/// perft_stats(fen, depth, threads=None)
/// --
///
/// The chessprogramming wiki's statistics of the last ply as a dict: nodes, captures,
/// en_passant, castles, promotions, checks, discovered_checks, double_checks, checkmates.
#[pyfunction]
#[pyo3(signature = (fen, depth, threads=None))]
fn perft_stats<'py>(
    py: Python<'py>,
    fen: &str,
    depth: u32,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let position = parse(fen)?;
    let threads = threads.unwrap_or(1).max(1);
    let stats = py.detach(|| {
        if threads == 1 {
            Some(cm_perft_stats(&position, depth))
        } else {
            divide_parallel_stats(
                &position,
                depth,
                &PerftOptions::new().threads(threads),
                &|_| {},
            )
            .ok()
            .and_then(|d| d.stats())
        }
    });
    let stats = stats.ok_or_else(|| PyRuntimeError::new_err("the count did not finish"))?;
    let dict = PyDict::new(py);
    for (name, value) in stats.fields() {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// Parses every FEN on `threads` threads; the first bad one as a ValueError with its index.
fn parse_all(fens: &[String], threads: usize) -> PyResult<Vec<Position>> {
    let fens: Vec<&str> = fens.iter().map(String::as_str).collect();
    let mut parts = Vec::new();
    each_position(
        &fens,
        (0, fens.len()),
        threads,
        &mut parts,
        Vec::with_capacity,
        |position, out: &mut Vec<Position>| out.push(position.clone()),
    )?;
    Ok(parts.into_iter().flatten().collect())
}

/// Fills `stride` bytes per position with `fill`, the positions split over `threads`.
fn fill_fixed(
    positions: &[Position],
    stride: usize,
    threads: usize,
    fill: impl Fn(&Position, &mut [u8]) + Sync,
) -> Vec<u8> {
    let mut out = vec![0u8; positions.len() * stride];
    let chunk = positions.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (part, bytes) in positions.chunks(chunk).zip(out.chunks_mut(chunk * stride)) {
            let fill = &fill;
            s.spawn(move || {
                for (position, slot) in part.iter().zip(bytes.chunks_mut(stride)) {
                    fill(position, slot);
                }
            });
        }
    });
    out
}

/// Runs `work` on every index below `n` on `threads` threads, taking indices one by one
/// (perfts and games differ widely in size); the results in index order.
fn each_index<T: Send>(n: usize, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(n).max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break mine;
                        }
                        mine.push((i, work(i)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// perft_many(fens, depth, threads=None)
/// --
///
/// The perft of each FEN at `depth`, the positions shared out over `threads` threads
/// (default: every core), the GIL released. Returns a list of ints.
#[pyfunction]
#[pyo3(signature = (fens, depth, threads=None))]
fn perft_many(
    py: Python<'_>,
    fens: Vec<String>,
    depth: u32,
    threads: Option<usize>,
) -> PyResult<Vec<u64>> {
    let threads = thread_count(threads)?;
    py.detach(|| {
        let positions = parse_all(&fens, threads)?;
        Ok(each_index(positions.len(), threads, |i| {
            cm_perft(&positions[i], depth)
        }))
    })
}

/// Runs `each` on every FEN's position, the FENs split into `threads` chunks in order, each
/// chunk parsed and worked on in one pass (no array of positions in between), and appends
/// the parts to `parts` in order (one thread: into the last part, made by `start(total)`
/// if there is none); the first bad FEN as a ValueError with its index (`base` that of the
/// first).
fn each_position<T: Send>(
    fens: &[&str],
    (base, total): (usize, usize),
    threads: usize,
    parts: &mut Vec<T>,
    start: impl Fn(usize) -> T + Sync,
    each: impl Fn(&Position, &mut T) + Sync,
) -> PyResult<()> {
    let fail =
        |index: usize, message: String| PyValueError::new_err(format!("fens[{index}]: {message}"));
    if threads == 1 {
        // No thread to spawn, and one part for all the blocks of a call.
        if parts.is_empty() {
            parts.push(start(total));
        }
        if let Some(out) = parts.last_mut() {
            read_each(fens, base, out, &each).map_err(|(index, message)| fail(index, message))?;
        }
        return Ok(());
    }
    let chunk = fens.len().div_ceil(threads).max(1);
    let work = |c: usize, part: &[&str]| -> Result<T, (usize, String)> {
        let mut out = start(part.len());
        read_each(part, base + c * chunk, &mut out, &each)?;
        Ok(out)
    };
    let done: Vec<Result<T, (usize, String)>> = std::thread::scope(|s| {
        let handles: Vec<_> = fens
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                let work = &work;
                s.spawn(move || work(c, part))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err((0, "a worker panicked".into())))
            })
            .collect()
    });
    for part in done {
        parts.push(part.map_err(|(index, message)| fail(index, message))?);
    }
    Ok(())
}

/// Runs `each` on the position of every FEN of `fens` (the first one's index `first`), or
/// stops at the first bad one with its index and message.
#[inline(always)]
fn read_each<T>(
    fens: &[&str],
    first: usize,
    out: &mut T,
    each: &impl Fn(&Position, &mut T),
) -> Result<(), (usize, String)> {
    for (i, fen) in fens.iter().enumerate() {
        // A match, not `map_err` and `?`: each of those moved the position once more (about
        // 150 instructions a FEN in copies).
        match Position::from_fen(fen) {
            Ok(position) => each(&position, out),
            Err(e) => return Err((first + i, format!("{e}: {fen:?}"))),
        }
    }
    Ok(())
}

/// How many FENs of a sequence of str are gathered at a time: their text (about 1 MB) is
/// reused block after block, so no large buffer is new to the process at each call.
const BLOCK: usize = 16 * 1024;

/// Runs `work` on the FENs of a batch call, with the index of the first and how many there
/// are in all (a hint for a sequence): a sequence of str,
/// in blocks of [`BLOCK`], or one `bytes` of FENs separated by newlines (one trailing
/// newline allowed, as a file has), read in place at once.
fn with_fens(
    fens: &Bound<'_, PyAny>,
    mut work: impl FnMut((usize, usize), &[&str]) -> PyResult<()>,
) -> PyResult<()> {
    if let Ok(joined) = fens.cast::<PyBytes>() {
        let text = std::str::from_utf8(joined.as_bytes())
            .map_err(|_| PyValueError::new_err("the joined FENs are not UTF-8"))?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let list: Vec<&str> = if text.is_empty() {
            Vec::new()
        } else {
            text.split('\n').collect()
        };
        return work((0, list.len()), &list);
    }
    // A block's UTF-8 gathered into one buffer while the GIL is held: the caller's list may
    // change once it is released, and the parser then reads one run of memory, not a str
    // object somewhere in the heap per FEN.
    let hint = fens.len().unwrap_or(0);
    let mut text = String::with_capacity(BLOCK * 64);
    let mut ends = Vec::with_capacity(BLOCK);
    let mut base = 0;
    let mut items = fens.try_iter()?.enumerate().peekable();
    while items.peek().is_some() || base == 0 {
        text.clear();
        ends.clear();
        for (i, item) in items.by_ref().take(BLOCK) {
            let item = item?;
            let fen = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "fens[{i}]: expected a str FEN, got {}",
                    item.get_type()
                ))
            })?;
            text.push_str(fen.to_str()?);
            ends.push(text.len());
        }
        let mut start = 0;
        let list: Vec<&str> = ends
            .iter()
            .map(|&end| {
                let fen = &text[start..end];
                start = end;
                fen
            })
            .collect();
        work((base, hint), &list)?;
        base += list.len();
        if list.is_empty() {
            break;
        }
    }
    Ok(())
}

/// _legal_move_counts(fens, threads=None) -> bytes of native-endian uint32, one per FEN.
#[pyfunction]
#[pyo3(signature = (fens, threads=None))]
fn _legal_move_counts<'py>(
    py: Python<'py>,
    fens: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let threads = thread_count(threads)?;
    let mut parts = Vec::new();
    with_fens(fens, |at, fens| {
        py.detach(|| {
            each_position(
                fens,
                at,
                threads,
                &mut parts,
                |n| Vec::with_capacity(n * 4),
                |position, counts: &mut Vec<u8>| {
                    counts.extend_from_slice(&(cm_perft(position, 1) as u32).to_ne_bytes());
                },
            )
        })
    })?;
    joined_bytes(py, &parts)
}

/// The parts one after another, copied once into a new `bytes`.
fn joined_bytes<'py>(py: Python<'py>, parts: &[impl AsRef<[u8]>]) -> PyResult<Bound<'py, PyBytes>> {
    let len = parts.iter().map(|part| part.as_ref().len()).sum();
    PyBytes::new_with(py, len, |out| {
        let mut at = 0;
        for part in parts {
            let part = part.as_ref();
            out[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        Ok(())
    })
}

/// Room in [`MoveRows`] for one position's moves: 256 triples (no legal position has
/// more; see `MoveList`) and the spare byte of the last 4-byte store.
const POSITION_ROOM: usize = 3 * 256 + 1;

/// The move triples of a chunk of positions, written in place, and each position's count.
struct MoveRows {
    /// The triples written; spare capacity of at least [`POSITION_ROOM`] before each write.
    triples: Vec<u8>,
    counts: Vec<u8>,
}

impl MoveRows {
    fn new(positions: usize) -> MoveRows {
        MoveRows {
            // About 40 moves a position in games' middles; pages never written are never
            // touched.
            triples: Vec::with_capacity(positions * 3 * 40 + POSITION_ROOM),
            counts: Vec::with_capacity(positions * 4),
        }
    }

    /// Appends the legal moves of `position` through [`write_triples`], into the spare
    /// capacity (no zeroing).
    fn push(&mut self, position: &Position) {
        self.triples.reserve(POSITION_ROOM);
        let count = write_triples(position, self.triples.spare_capacity_mut());
        // SAFETY: `write_triples` initialised the first `3 * count` spare bytes, which the
        // reserve above made room for.
        unsafe { self.triples.set_len(self.triples.len() + 3 * count) };
        self.counts.extend_from_slice(&(count as u32).to_ne_bytes());
    }

    /// The triples written.
    fn triples(&self) -> &[u8] {
        &self.triples
    }
}

/// _legal_moves(fens, threads=None) -> (moves, counts): moves as a bytearray of (from, to,
/// promotion) triples, counts as bytes of native-endian uint32 per FEN.
#[pyfunction]
#[pyo3(signature = (fens, threads=None))]
fn _legal_moves<'py>(
    py: Python<'py>,
    fens: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyBytes>)> {
    let threads = thread_count(threads)?;
    if threads == 1 {
        return legal_moves_in_place(py, fens);
    }
    let mut parts = Vec::new();
    with_fens(fens, |at, fens| {
        py.detach(|| {
            each_position(
                fens,
                at,
                threads,
                &mut parts,
                MoveRows::new,
                |position, rows| rows.push(position),
            )
        })
    })?;
    let triples: Vec<&[u8]> = parts.iter().map(MoveRows::triples).collect();
    let counts: Vec<&[u8]> = parts.iter().map(|rows| rows.counts.as_slice()).collect();
    let len = triples.iter().map(|part| part.len()).sum();
    let moves = PyByteArray::new_with(py, len, |out| {
        let mut at = 0;
        for part in &triples {
            out[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        Ok(())
    })?;
    Ok((moves, joined_bytes(py, &counts)?))
}

/// Bytes the one-thread `_legal_moves` reserves a FEN before it has seen the moves: 64
/// moves' triples (games' middles have about 35). Pages never written are never touched.
const GUESS_PER_FEN: usize = 3 * 64;

/// `_legal_moves` on one thread: the triples written straight into the `bytearray` it
/// returns, grown while the GIL is held (no buffer in between, no copy, no zeroing).
fn legal_moves_in_place<'py>(
    py: Python<'py>,
    fens: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyBytes>)> {
    let moves = PyByteArray::new(py, &[]);
    let mut used = 0;
    let mut counts = Vec::new();
    with_fens(fens, |(base, hint), fens| {
        counts.reserve(fens.len() * 4);
        let mut done = 0;
        while done < fens.len() {
            if moves.len() - used < POSITION_ROOM {
                let left = hint.max(base + fens.len()) - (base + done);
                moves.resize(used + (left * GUESS_PER_FEN).max(used / 2) + POSITION_ROOM)?;
            }
            // SAFETY: the bytearray was made here and no Python code sees it before it is
            // returned, so nothing resizes, frees or reads it while the slice lives (the
            // next resize comes after the slice's last use); its bytes are only written,
            // as `MaybeUninit`, and it is cut to the written length before it is returned.
            let buffer = unsafe {
                std::slice::from_raw_parts_mut(moves.data().cast::<MaybeUninit<u8>>(), moves.len())
            };
            let rest = &mut buffer[used..];
            let (count, wrote) =
                py.detach(|| write_rows(&fens[done..], base + done, rest, &mut counts))?;
            done += count;
            used += wrote;
        }
        Ok(())
    })?;
    moves.resize(used)?;
    Ok((moves, PyBytes::new(py, &counts)))
}

/// Writes the triples of the positions of `fens` (the first one's index `base`) into `out`
/// while it has room for a position's, and their counts to `counts`; returns how many FENs
/// were done and how many bytes written. The first bad FEN as a ValueError with its index.
fn write_rows(
    fens: &[&str],
    base: usize,
    out: &mut [MaybeUninit<u8>],
    counts: &mut Vec<u8>,
) -> PyResult<(usize, usize)> {
    let mut used = 0;
    for (i, fen) in fens.iter().enumerate() {
        let Some(room) = out.get_mut(used..used + POSITION_ROOM) else {
            return Ok((i, used));
        };
        let position = Position::from_fen(fen)
            .map_err(|e| PyValueError::new_err(format!("fens[{}]: {e}: {fen:?}", base + i)))?;
        let count = write_triples(&position, room);
        used += 3 * count;
        counts.extend_from_slice(&(count as u32).to_ne_bytes());
    }
    Ok((fens.len(), used))
}

/// Writes the legal moves of `position` into `room` (at least [`POSITION_ROOM`] bytes) as
/// triples, one 4-byte store a move straight from the generator, and returns how many.
#[inline(always)]
fn write_triples(position: &Position, room: &mut [MaybeUninit<u8>]) -> usize {
    let mut at = 0;
    position.for_each_legal(|mv| {
        if let Some(slot) = room.get_mut(at..at + 4) {
            slot.write_copy_of_slice(&uci_word(mv).to_le_bytes());
            at += 3;
        }
    });
    at / 3
}

/// A move's (from, to, promotion) triple in the low three bytes of a little-endian word.
#[inline(always)]
fn uci_word(mv: Move) -> u32 {
    // python-chess's promotion piece types by `Move::to_u16`'s kind (4 knight … 8 king).
    const PROMOTION: [u32; 16] = [0, 0, 0, 0, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0];
    let code = u32::from(mv.to_u16());
    (code & 63) | (code >> 6 & 63) << 8 | PROMOTION[(code >> 12) as usize] << 16
}

/// A move as (from square, to square, promotion piece type or 0), python-chess's numbers.
fn uci_triple(mv: Move) -> [u8; 3] {
    [
        mv.from().index() as u8,
        mv.to().index() as u8,
        mv.kind().promotion().map_or(0, piece_type),
    ]
}

/// _legal_masks(fens, threads=None) -> bytes of N×64×64 flags: [from][to] is 1 where a
/// legal move goes from `from` to `to` (castling as UCI writes it).
#[pyfunction]
#[pyo3(signature = (fens, threads=None))]
fn _legal_masks<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let threads = thread_count(threads)?;
    let bytes = py.detach(|| {
        let positions = parse_all(&fens, threads)?;
        PyResult::Ok(fill_fixed(&positions, 64 * 64, threads, |p, out| {
            p.for_each_legal(|mv| out[mv.from().index() * 64 + mv.to().index()] = 1);
        }))
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// _piece_planes(fens, threads=None) -> bytes of N×12×64 flags: planes white P N B R Q K,
/// then black, squares a1 = 0 … h8 = 63.
#[pyfunction]
#[pyo3(signature = (fens, threads=None))]
fn _piece_planes<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let threads = thread_count(threads)?;
    let bytes = py.detach(|| {
        let positions = parse_all(&fens, threads)?;
        PyResult::Ok(fill_fixed(&positions, 12 * 64, threads, |p, out| {
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                for (k, piece) in Piece::ALL.into_iter().enumerate() {
                    let plane = &mut out[(c * 6 + k) * 64..][..64];
                    for square in p.board().pieces(color, piece) {
                        plane[square.index()] = 1;
                    }
                }
            }
        }))
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// SplitMix64: a small, seedable generator, one stream per game.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// How a game ends: python-chess's termination name and winner.
fn game_over(position: &Position, history: &History) -> Option<(&'static str, Option<bool>)> {
    match position.outcome() {
        Some(Outcome::Checkmate { winner }) => Some(("CHECKMATE", Some(winner == Color::White))),
        Some(Outcome::InsufficientMaterial) => Some(("INSUFFICIENT_MATERIAL", None)),
        Some(Outcome::Stalemate) => Some(("STALEMATE", None)),
        Some(Outcome::FiftyMoves) => Some(("FIFTY_MOVES", None)),
        None if history.is_repetition(position, 3) => Some(("THREEFOLD_REPETITION", None)),
        None => None,
    }
}

/// A result string as PGN writes it.
fn result_text(winner: Option<bool>) -> &'static str {
    match winner {
        Some(true) => "1-0",
        Some(false) => "0-1",
        None => "1/2-1/2",
    }
}

/// random_playouts(games, fen=STARTING_FEN, max_plies=500, seed=0, threads=None)
/// --
///
/// Plays `games` games of uniformly random legal moves from `fen`, until mate, stalemate,
/// insufficient material, the fifty-move rule, threefold repetition or `max_plies`, on
/// threads without the GIL. Game i's moves depend only on (seed, i). Returns
/// (final FENs, results as "1-0" / "0-1" / "1/2-1/2" / "*", plies played).
#[pyfunction]
#[pyo3(signature = (games, fen=STARTPOS_FEN, max_plies=500, seed=0, threads=None))]
fn random_playouts(
    py: Python<'_>,
    games: usize,
    fen: &str,
    max_plies: u32,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<(Vec<String>, Vec<&'static str>, Vec<u32>)> {
    let start = parse(fen)?;
    let threads = thread_count(threads)?;
    let played = py.detach(|| {
        each_index(games, threads, |game| {
            let mut rng = Rng(seed ^ (game as u64).wrapping_mul(0xD134_2543_DE82_EF95));
            let mut position = start.clone();
            let mut history = History::with_capacity(max_plies.min(1024) as usize);
            let mut plies = 0;
            // game_over's rules in its order, with one move generation per ply.
            let result = loop {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    let mated = position.is_check();
                    break if !mated {
                        "1/2-1/2"
                    } else {
                        result_text(Some(position.side_to_move() == Color::Black))
                    };
                }
                if position.is_insufficient_material()
                    || position.halfmove_clock() >= 100
                    || history.is_repetition(&position, 3)
                {
                    break "1/2-1/2";
                }
                if plies == max_plies {
                    break "*";
                }
                let mv = moves[(rng.next() % moves.len() as u64) as usize];
                history.push(position.zobrist());
                position.play_unchecked(mv);
                plies += 1;
            };
            (position.to_string(), result, plies)
        })
    });
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (fen, result, plies) in played {
        out.0.push(fen);
        out.1.push(result);
        out.2.push(plies);
    }
    Ok(out)
}

/// A move: origin and destination squares (a1 = 0 … h8 = 63) and the promotion piece
/// type (2 knight … 5 queen) or None, as python-chess's `chess.Move`.
#[pyclass(module = "constmove", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyMove {
    from: u8,
    to: u8,
    promotion: Option<u8>,
}

impl PyMove {
    fn new(mv: Move) -> PyMove {
        let [from, to, promotion] = uci_triple(mv);
        PyMove {
            from,
            to,
            promotion: (promotion != 0).then_some(promotion),
        }
    }
}

#[pymethods]
impl PyMove {
    /// Move.from_uci(uci): a move from UCI text, checked for form only.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<PyMove> {
        let bad = || PyValueError::new_err(format!("invalid UCI move: {uci:?}"));
        if !(4..=5).contains(&uci.len()) || !uci.is_ascii() {
            return Err(bad());
        }
        let square = |s: &str| s.parse::<Square>().map_err(|_| bad());
        let promotion = match uci.as_bytes().get(4) {
            None => None,
            Some(b'n') => Some(2),
            Some(b'b') => Some(3),
            Some(b'r') => Some(4),
            Some(b'q') => Some(5),
            Some(_) => return Err(bad()),
        };
        Ok(PyMove {
            from: square(&uci[0..2])?.index() as u8,
            to: square(&uci[2..4])?.index() as u8,
            promotion,
        })
    }

    /// The origin square, 0 (a1) to 63 (h8).
    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's name
    fn from_square(&self) -> u8 {
        self.from
    }

    /// The destination square (for castling: the king's in standard chess, the rook's in
    /// Chess960, as UCI writes it).
    #[getter]
    fn to_square(&self) -> u8 {
        self.to
    }

    /// The promotion piece type (2 knight, 3 bishop, 4 rook, 5 queen) or None.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        self.promotion
    }

    /// The UCI text, like `e2e4` or `e7e8q`.
    fn uci(&self) -> String {
        let name = |i: u8| format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1);
        let promo = match self.promotion {
            Some(2) => "n",
            Some(3) => "b",
            Some(4) => "r",
            Some(5) => "q",
            _ => "",
        };
        format!("{}{}{promo}", name(self.from), name(self.to))
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci())
    }
}

/// The end of a game, as python-chess's `chess.Outcome`: `termination` is the name of its
/// `Termination` member (`"CHECKMATE"`, …) and `winner` True (white), False or None.
#[pyclass(module = "constmove", name = "Outcome", frozen, eq)]
#[derive(Clone, PartialEq)]
struct PyOutcome {
    #[pyo3(get)]
    termination: &'static str,
    #[pyo3(get)]
    winner: Option<bool>,
}

#[pymethods]
impl PyOutcome {
    /// "1-0", "0-1" or "1/2-1/2".
    fn result(&self) -> &'static str {
        result_text(self.winner)
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "Outcome(termination='{}', winner={winner})",
            self.termination
        )
    }
}

/// A position with its move stack, named as python-chess names the same things.
///
/// `Board(fen=STARTING_FEN, *, chess960=False)`. Bad FENs raise ValueError naming the field.
#[pyclass(module = "constmove", name = "Board")]
#[derive(Clone)]
struct Board {
    /// Boxed: the board is 64-byte aligned, and Python allocates its objects at 16.
    position: Box<Position>,
    /// The positions before each pushed move, with the move: `pop` restores a copy.
    stack: Vec<(Position, Move)>,
    /// The keys of the positions in `stack`, for repetitions.
    history: History,
}

impl Board {
    fn find(&self, mv: &PyMove) -> PyResult<Move> {
        let promotion = mv.promotion;
        self.position
            .legal_moves()
            .iter()
            .copied()
            .find(|m| PyMove::new(*m) == *mv)
            .or_else(|| {
                // A castle written the other rules' way (e1h1 in standard chess, e1g1 in 960).
                self.position
                    .parse_uci(&mv.uci())
                    .ok()
                    .filter(|_| promotion.is_none())
            })
            .ok_or_else(|| {
                PyValueError::new_err(format!("illegal move {} in {}", mv.uci(), self.position))
            })
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.position.zobrist());
        self.stack.push((Position::clone(&self.position), mv));
        self.position.play_unchecked(mv);
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen=STARTPOS_FEN, *, chess960=false))]
    fn py_new(fen: &str, chess960: bool) -> PyResult<Board> {
        let mut position = parse(fen)?;
        if chess960 {
            position = position.into_chess960();
        }
        Ok(Board {
            position: Box::new(position),
            stack: Vec::new(),
            history: History::new(),
        })
    }

    /// The FEN (X-FEN: the en-passant square when a pawn stands beside the pushed one, as
    /// python-chess's `fen(en_passant="xfen")`).
    fn fen(&self) -> String {
        self.position.to_string()
    }

    /// The FEN with Shredder-FEN castling (rook files).
    fn shredder_fen(&self) -> String {
        self.position.shredder_fen().to_string()
    }

    /// Sets the position from a FEN and clears the move stack.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        let position = parse(fen)?;
        let chess960 = self.position.is_chess960();
        *self.position = if chess960 {
            position.into_chess960()
        } else {
            position
        };
        self.stack.clear();
        self.history.clear();
        Ok(())
    }

    /// The legal moves, as Move objects.
    #[getter]
    fn legal_moves(&self) -> Vec<PyMove> {
        self.position
            .legal_moves()
            .iter()
            .map(|m| PyMove::new(*m))
            .collect()
    }

    /// The legal moves as UCI strings.
    fn legal_moves_uci(&self) -> Vec<String> {
        self.position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: PyRef<'_, PyMove>) -> bool {
        self.find(&r#move).is_ok()
    }

    /// Plays a legal move (ValueError if it is not legal).
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        let mv = self.find(&r#move)?;
        self.play(mv);
        Ok(())
    }

    /// Plays a move given in UCI and returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<PyMove> {
        let mv = self
            .position
            .parse_uci(uci)
            .map_err(|e| PyValueError::new_err(format!("{e}: {uci:?}")))?;
        self.play(mv);
        Ok(PyMove::new(mv))
    }

    /// Plays a move given in SAN and returns it.
    fn push_san(&mut self, san: &str) -> PyResult<PyMove> {
        let mv = self
            .position
            .parse_san(san)
            .map_err(|e| PyValueError::new_err(format!("{e}: {san:?}")))?;
        self.play(mv);
        Ok(PyMove::new(mv))
    }

    /// The legal move written `uci` (ValueError if malformed or illegal).
    fn parse_uci(&self, uci: &str) -> PyResult<PyMove> {
        self.position
            .parse_uci(uci)
            .map(PyMove::new)
            .map_err(|e| PyValueError::new_err(format!("{e}: {uci:?}")))
    }

    /// The legal move written `san` (ValueError if it is not one).
    fn parse_san(&self, san: &str) -> PyResult<PyMove> {
        self.position
            .parse_san(san)
            .map(PyMove::new)
            .map_err(|e| PyValueError::new_err(format!("{e}: {san:?}")))
    }

    /// Takes back the last move and returns it (IndexError on an empty stack).
    fn pop(&mut self) -> PyResult<PyMove> {
        let (position, mv) = self
            .stack
            .pop()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("pop from empty move stack"))?;
        self.history.pop();
        *self.position = position;
        Ok(PyMove::new(mv))
    }

    /// The last move played (IndexError on an empty stack).
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .map(|(_, mv)| PyMove::new(*mv))
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("peek at empty move stack"))
    }

    /// The moves played since the FEN, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack.iter().map(|(_, mv)| PyMove::new(*mv)).collect()
    }

    /// The SAN of a legal move, like `Nf3`, `O-O` or `exd8=Q#`.
    fn san(&self, r#move: PyRef<'_, PyMove>) -> PyResult<String> {
        Ok(self.position.san(self.find(&r#move)?))
    }

    /// True if white is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.position.side_to_move() == Color::White
    }

    /// The halfmove clock.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.position.halfmove_clock()
    }

    /// The fullmove number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position.fullmove_number()
    }

    /// Whether castling follows Chess960 rules (king-takes-rook UCI).
    #[getter]
    fn chess960(&self) -> bool {
        self.position.is_chess960()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        matches!(self.position.outcome(), Some(Outcome::Checkmate { .. }))
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        !self.position.is_check() && self.position.legal_moves().is_empty()
    }

    /// Whether neither side can ever mate (python-chess's definition).
    fn is_insufficient_material(&self) -> bool {
        self.position.is_insufficient_material()
    }

    /// Whether the current position has occurred `count` times since the last capture or
    /// pawn move (itself included).
    #[pyo3(signature = (count=3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.history.is_repetition(&self.position, count)
    }

    /// The game's end, or None: checkmate, insufficient material, stalemate, the fifty-move
    /// rule (halfmove clock at 100) and threefold repetition of the move stack, in that order.
    fn outcome(&self) -> Option<PyOutcome> {
        game_over(&self.position, &self.history).map(|(termination, winner)| PyOutcome {
            termination,
            winner,
        })
    }

    /// Whether `outcome()` is not None.
    fn is_game_over(&self) -> bool {
        game_over(&self.position, &self.history).is_some()
    }

    /// "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
    fn result(&self) -> &'static str {
        game_over(&self.position, &self.history).map_or("*", |(_, winner)| result_text(winner))
    }

    /// The Polyglot Zobrist key (python-chess: `chess.polyglot.zobrist_hash(board)`).
    fn zobrist(&self) -> u64 {
        self.position.zobrist()
    }

    /// A copy, move stack included.
    fn copy(&self) -> Board {
        self.clone()
    }

    /// The perft of this position.
    #[pyo3(signature = (depth, threads=None))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: Option<usize>) -> PyResult<u64> {
        let threads = threads.unwrap_or(1).max(1);
        py.detach(|| count(&self.position, depth, threads, None))
    }

    fn __str__(&self) -> String {
        let mut text = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = Square::from_file_rank(file, rank).expect("on the board");
                let c = match self.position.board().piece_at(square) {
                    None => '.',
                    Some((color, piece)) => {
                        let c = "pnbrqk".as_bytes()[piece as usize] as char;
                        if color == Color::White {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    }
                };
                text.push(c);
                text.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        text.pop();
        text
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.position)
    }

    fn __eq__(&self, other: PyRef<'_, Board>) -> bool {
        self.position == other.position
    }
}

/// The Python module: see python/constmove/__init__.py for what wraps it.
#[pymodule]
fn _constmove(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("STARTING_FEN", STARTPOS_FEN)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(divide, m)?)?;
    m.add_function(wrap_pyfunction!(perft_stats, m)?)?;
    m.add_function(wrap_pyfunction!(perft_many, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(_legal_move_counts, m)?)?;
    m.add_function(wrap_pyfunction!(_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(_legal_masks, m)?)?;
    m.add_function(wrap_pyfunction!(_piece_planes, m)?)?;
    m.add_class::<Board>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyOutcome>()?;
    Ok(())
}
