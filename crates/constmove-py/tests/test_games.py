"""Random games against python-chess: at every ply the legal-move sets, the SAN of the
move played, the FEN, check, Zobrist key and the game's end must agree; pops are checked
along the way. $CONSTMOVE_GAMES games (default 400 for CI; 2,000 for the full run)."""

import os
import random

import chess
import chess.polyglot

import constmove

GAMES = int(os.environ.get("CONSTMOVE_GAMES", "400"))
MAX_PLIES = 600


def reference_outcome(board):
    """What constmove's Board.outcome() reports, in python-chess's terms."""
    if board.is_checkmate():
        return ("CHECKMATE", not board.turn)
    if board.is_insufficient_material():
        return ("INSUFFICIENT_MATERIAL", None)
    if board.is_stalemate():
        return ("STALEMATE", None)
    if board.halfmove_clock >= 100:
        return ("FIFTY_MOVES", None)
    if board.is_repetition(3):
        return ("THREEFOLD_REPETITION", None)
    return None


def play(seed):
    rng = random.Random(seed)
    reference = chess.Board()
    ours = constmove.Board()
    for ply in range(MAX_PLIES):
        where = f"game {seed} ply {ply} {reference.fen()}"
        want = reference_outcome(reference)
        got = ours.outcome()
        assert (got and (got.termination, got.winner)) == (want or None), where
        if want:
            return want[0]
        legal = sorted(m.uci() for m in reference.legal_moves)
        assert sorted(ours.legal_moves_uci()) == legal, where
        uci = rng.choice(legal)
        move = chess.Move.from_uci(uci)
        assert ours.san(constmove.Move.from_uci(uci)) == reference.san(move), where
        if rng.random() < 0.05:  # take a move back and play it again
            before = ours.fen()
            ours.push_uci(uci)
            assert ours.pop().uci() == uci and ours.fen() == before, where
        if rng.random() < 0.5:
            ours.push_san(reference.san(move))
        else:
            ours.push_uci(uci)
        reference.push(move)
        # constmove writes the en-passant square when a pawn could take (X-FEN), even if a pin
        # forbids it; python-chess's default writes it only when the capture is legal.
        assert ours.fen() == reference.fen(en_passant="xfen"), where
        assert ours.is_check() == reference.is_check(), where
        assert ours.zobrist() == chess.polyglot.zobrist_hash(reference), where
    return "max plies"


def test_random_games_against_python_chess():
    ends = {}
    for seed in range(GAMES):
        end = play(seed)
        ends[end] = ends.get(end, 0) + 1
    print(f"{GAMES} games vs python-chess: {ends}")
    # Random games end in every way; with enough of them each kind shows up.
    if GAMES >= 400:
        assert {"CHECKMATE", "INSUFFICIENT_MATERIAL", "FIFTY_MOVES", "THREEFOLD_REPETITION"} <= set(ends)
