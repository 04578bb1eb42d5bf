"""constmove: a fast legal chess move generator and perft core (Rust), from Python.

One-position calls (``perft``, ``divide``, ``perft_stats``, ``Board``) and batch calls that
do a whole list of FENs in one call, on threads, with the GIL released (``perft_many``,
``legal_move_counts``, ``legal_moves``, ``legal_masks``, ``piece_planes``,
``random_playouts``). Names follow python-chess where it names the same thing. Bad input
raises ``ValueError`` whose message names the FEN field (and, in a batch, the index).
"""

from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from ._constmove import (
    STARTING_FEN,
    Board,
    Move,
    Outcome,
    divide,
    perft,
    perft_many,
    perft_stats,
    random_playouts,
)
from . import _constmove

__all__ = [
    "STARTING_FEN",
    "Board",
    "Move",
    "Outcome",
    "divide",
    "legal_masks",
    "legal_move_counts",
    "legal_moves",
    "perft",
    "perft_many",
    "perft_stats",
    "piece_planes",
    "random_playouts",
]


def _fens(fens: Sequence[str]) -> List[str]:
    # A lone string would be taken as a list of one-character FENs.
    if isinstance(fens, str):
        raise TypeError("expected a sequence of FENs, not one string")
    return list(fens)


def _batch(call, fens: Union[Sequence[str], bytes], threads: Optional[int]):
    """Runs a batch call on a sequence of str (each read in place) or on one bytes of FENs
    separated by newlines."""
    if isinstance(fens, (bytearray, memoryview)):
        fens = bytes(fens)
    elif not isinstance(fens, bytes):
        fens = _fens(fens)
    return call(fens, threads)


def legal_move_counts(fens: Union[Sequence[str], bytes], threads: Optional[int] = None) -> np.ndarray:
    """The number of legal moves of each FEN, as a uint32 array of shape (N,).

    ``fens`` is a sequence of str, or (fastest) one ``bytes`` of FENs separated by newlines,
    as a file holds them (one trailing newline allowed)."""
    return np.frombuffer(_batch(_constmove._legal_move_counts, fens, threads), dtype=np.uint32)


def legal_moves(
    fens: Union[Sequence[str], bytes], threads: Optional[int] = None
) -> Tuple[np.ndarray, np.ndarray]:
    """The legal moves of every FEN: ``(moves, offsets)``.

    ``moves`` is a uint8 array of shape (M, 3): from square, to square (a1 = 0 ... h8 = 63;
    castling as UCI writes it) and promotion piece type (2 knight ... 5 queen, 0 none).
    FEN i's moves are ``moves[offsets[i]:offsets[i + 1]]``; ``offsets`` is int64, shape (N + 1,).
    ``fens`` is a sequence of str, or (fastest) one ``bytes`` of FENs separated by newlines,
    as a file holds them (one trailing newline allowed).
    """
    moves, counts = _batch(_constmove._legal_moves, fens, threads)
    offsets = np.zeros(len(counts) // 4 + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(counts, dtype=np.uint32), out=offsets[1:])
    return np.frombuffer(moves, dtype=np.uint8).reshape(-1, 3), offsets


def legal_masks(fens: Sequence[str], threads: Optional[int] = None) -> np.ndarray:
    """A bool array of shape (N, 64, 64): ``[i, from, to]`` is True where FEN i has a legal
    move from ``from`` to ``to`` (promotions share one cell)."""
    fens = _fens(fens)
    return np.frombuffer(_constmove._legal_masks(fens, threads), dtype=np.bool_).reshape(len(fens), 64, 64)


def piece_planes(fens: Sequence[str], threads: Optional[int] = None) -> np.ndarray:
    """A bool array of shape (N, 12, 64): planes white pawn, knight, bishop, rook, queen,
    king, then black's, over squares a1 = 0 ... h8 = 63."""
    fens = _fens(fens)
    return np.frombuffer(_constmove._piece_planes(fens, threads), dtype=np.bool_).reshape(len(fens), 12, 64)
