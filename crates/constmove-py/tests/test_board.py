"""Board: python-chess's names for the same things, and errors as exceptions."""

import pytest

import constmove
from constmove import Board, Move


def test_push_pop_san_fen():
    board = Board()
    assert board.turn and board.fen() == constmove.STARTING_FEN
    assert len(board.legal_moves) == 20 and "e2e4" in board.legal_moves_uci()
    assert board.san(Move.from_uci("g1f3")) == "Nf3"
    board.push_san("e4")
    board.push_uci("e7e5")
    board.push(Move.from_uci("g1f3"))
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert board.peek() == Move.from_uci("g1f3")
    assert [m.uci() for m in board.move_stack] == ["e2e4", "e7e5", "g1f3"]
    assert board.pop().uci() == "g1f3"
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    copy = board.copy()
    copy.push_uci("d2d4")
    assert board.fen() != copy.fen()
    # The start position's Polyglot key, as published with the book format.
    assert Board().zobrist() == 0x463B96181691FC9C


def test_outcomes_and_repetition():
    board = Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        board.push_san(san)
    assert board.is_check() and board.is_checkmate() and board.is_game_over()
    outcome = board.outcome()
    assert (outcome.termination, outcome.winner, outcome.result()) == ("CHECKMATE", False, "0-1")
    assert Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").outcome().termination == "STALEMATE"
    assert Board("8/8/4k3/8/8/3K4/8/8 w - - 0 1").outcome().termination == "INSUFFICIENT_MATERIAL"
    assert Board("8/8/4k3/8/8/3K4/8/R7 w - - 100 80").outcome().termination == "FIFTY_MOVES"
    board = Board()
    for _ in range(2):
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            assert board.outcome() is None
            board.push_uci(uci)
    assert board.is_repetition(3)
    assert board.outcome().termination == "THREEFOLD_REPETITION" and board.result() == "1/2-1/2"
    board.pop()
    assert not board.is_repetition(3) and board.result() == "*"


def test_chess960():
    board = Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    assert board.chess960 and board.perft(3) == 12189  # fischer.epd's first line
    standard = Board(constmove.STARTING_FEN, chess960=True)
    assert standard.chess960


def test_errors_are_exceptions():
    board = Board()
    for bad in ["e2e5", "e2", "", "e7e8q", "zz99"]:
        with pytest.raises(ValueError):
            board.push_uci(bad)
    for bad in ["Nf4", "O-O", "", "Ke2"]:
        with pytest.raises(ValueError):
            board.push_san(bad)
    with pytest.raises(ValueError):
        board.push(Move.from_uci("e2e5"))
    with pytest.raises(ValueError):
        Move.from_uci("e2e9")
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == constmove.STARTING_FEN
