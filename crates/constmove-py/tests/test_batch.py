"""Every batch call against the one-position calls (and python-chess where constmove has no
one-position equivalent), on positions from the published suites."""

import chess
import numpy as np
import pytest

import constmove

from test_perft import epd


@pytest.fixture(scope="module")
def fens(perft_data):
    suite = [fen for fen, _ in epd(perft_data / "perftsuite.epd")]
    # A few positions with promotions, en passant and mates, and some random-game endings.
    extra = [
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ]
    played, _, _ = constmove.random_playouts(200, max_plies=60, seed=7)
    return suite + extra + played


def test_perft_many_matches_perft(fens):
    assert constmove.perft_many(fens, 2, threads=2) == [constmove.perft(f, 2) for f in fens]
    assert constmove.perft_many(fens, 2, threads=1) == constmove.perft_many(fens, 2, threads=3)
    assert constmove.perft_many([], 3) == []


def test_legal_move_counts_match_board(fens):
    counts = constmove.legal_move_counts(fens, threads=2)
    assert counts.dtype == np.uint32 and counts.shape == (len(fens),)
    assert counts.tolist() == [len(constmove.Board(f).legal_moves) for f in fens]
    assert constmove.legal_move_counts(fens, threads=1).tolist() == counts.tolist()


def test_legal_moves_with_offsets_match_board(fens):
    moves, offsets = constmove.legal_moves(fens, threads=2)
    assert moves.dtype == np.uint8 and moves.shape[1] == 3
    assert offsets.shape == (len(fens) + 1,) and offsets[-1] == len(moves)
    for i, fen in enumerate(fens):
        board = constmove.Board(fen)
        want = [(m.from_square, m.to_square, m.promotion or 0) for m in board.legal_moves]
        got = [tuple(row) for row in moves[offsets[i] : offsets[i + 1]].tolist()]
        assert got == want, fen


def test_legal_moves_of_many_fens_in_every_input_form(fens):
    # More FENs than one block of a list (16,384), so blocks and their indices are tested.
    n = 40_000
    many = [fens[i % len(fens)] for i in range(n)]
    moves, offsets = constmove.legal_moves(fens, threads=1)
    want = np.concatenate([moves[offsets[i % len(fens)] : offsets[i % len(fens) + 1]] for i in range(n)])
    joined = ("\n".join(many) + "\n").encode()
    for form, threads in [(many, 1), (many, 2), (tuple(many), 3), (joined, 1), (joined, 2)]:
        got, got_offsets = constmove.legal_moves(form, threads=threads)
        assert got_offsets.shape == (n + 1,) and got_offsets[-1] == len(got)
        assert (got == want).all()
        assert (constmove.legal_move_counts(form, threads=threads) == np.diff(got_offsets)).all()
    bad = list(many)
    bad[33_333] = "8/8/8 w - -"
    for threads in (1, 2):
        with pytest.raises(ValueError, match=r"fens\[33333\]: invalid FEN piece placement"):
            constmove.legal_moves(bad, threads=threads)
    bad[33_333] = b"not a str"
    with pytest.raises(TypeError, match=r"fens\[33333\]"):
        constmove.legal_move_counts(bad)


def test_joined_fens_split_at_each_newline_only():
    # FENs of every length modulo 8, so a newline falls at each place of an 8-byte word.
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    fens = [start[: -1] + str(n) for n in range(1, 17)]
    want = [20] * len(fens)
    for joined in ("\n".join(fens), "\n".join(fens) + "\n"):
        assert constmove.legal_move_counts(joined.encode()).tolist() == want
    # Neither a byte one off a newline (\x0b, \x0e) nor a multi-byte character splits a FEN;
    # an empty line is a FEN of its own.
    for odd, index in [("\x0b", 1), ("\x0e", 1), ("\u00e9", 1), ("\n", 2)]:
        joined = "\n".join([start, start + odd, start]).encode()
        with pytest.raises(ValueError, match=rf"fens\[{index}\]"):
            constmove.legal_move_counts(joined)
    assert constmove.legal_move_counts(b"").tolist() == []
    assert constmove.legal_move_counts(start.encode()).tolist() == [20]


def test_one_thread_legal_moves_grow_their_buffer():
    # One thread writes into a buffer guessed at 64 moves a FEN and grows it: 218-move
    # positions overrun the guess, and an iterator gives no length to guess from at all.
    most = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    fens = [most, start] * 500
    want = [(m.from_square, m.to_square, m.promotion or 0) for f in fens for m in constmove.Board(f).legal_moves]
    assert len(want) == 500 * (218 + 20)
    for form in (fens, "\n".join(fens).encode()):
        moves, offsets = constmove.legal_moves(form, threads=1)
        assert [tuple(row) for row in moves.tolist()] == want
        assert offsets.tolist()[:3] == [0, 218, 238] and offsets[-1] == len(want)
    moves, counts = constmove._constmove._legal_moves(iter(fens), 1)
    assert [tuple(row) for row in np.frombuffer(moves, np.uint8).reshape(-1, 3).tolist()] == want
    assert np.frombuffer(counts, np.uint32).tolist() == [218, 20] * 500


def test_legal_masks_match_board(fens):
    masks = constmove.legal_masks(fens)
    assert masks.shape == (len(fens), 64, 64) and masks.dtype == np.bool_
    for i, fen in enumerate(fens):
        want = np.zeros((64, 64), dtype=bool)
        for m in constmove.Board(fen).legal_moves:
            want[m.from_square, m.to_square] = True
        assert (masks[i] == want).all(), fen


def test_piece_planes_match_python_chess(fens):
    planes = constmove.piece_planes(fens, threads=2)
    assert planes.shape == (len(fens), 12, 64)
    for i, fen in enumerate(fens):
        board = chess.Board(fen)
        for color_index, color in enumerate((chess.WHITE, chess.BLACK)):
            for k, piece_type in enumerate(chess.PIECE_TYPES):
                want = np.zeros(64, dtype=bool)
                want[list(board.pieces(piece_type, color))] = True
                assert (planes[i, color_index * 6 + k] == want).all(), (fen, color, piece_type)


def test_random_playouts_end_as_the_rules_say():
    fens, results, plies = constmove.random_playouts(300, max_plies=400, seed=3, threads=2)
    assert len(fens) == len(results) == len(plies) == 300
    # Deterministic per (seed, game), whatever the thread count.
    assert constmove.random_playouts(300, max_plies=400, seed=3, threads=1) == (fens, results, plies)
    assert constmove.random_playouts(300, max_plies=400, seed=4)[0] != fens
    for fen, result, n in zip(fens, results, plies):
        reference = chess.Board(fen)
        board = constmove.Board(fen)
        assert 0 < n <= 400
        if result == "*":
            assert n == 400 and board.outcome() is None
        elif result != "1/2-1/2":
            assert reference.is_checkmate()
            assert result == ("1-0" if reference.turn == chess.BLACK else "0-1")
        elif board.outcome() is None:
            # Only a repetition, which the final FEN alone cannot show, ends a game there.
            assert not reference.is_stalemate() and not reference.is_insufficient_material()
            assert reference.halfmove_clock < 100
        else:
            assert board.outcome().result() == "1/2-1/2"
    assert {"1-0", "0-1", "1/2-1/2"} <= set(results)


def test_out_of_range_arguments_raise():
    with pytest.raises(ValueError):
        constmove.perft(constmove.STARTING_FEN, 3, hash=2**60)  # MiB
    with pytest.raises(OverflowError):
        constmove.perft(constmove.STARTING_FEN, -1)
    fens, results, plies = constmove.random_playouts(2, max_plies=2**32 - 1)
    assert len(fens) == 2 and "*" not in results


def test_batch_input_errors():
    with pytest.raises(TypeError):
        constmove.legal_move_counts(constmove.STARTING_FEN)
    with pytest.raises(ValueError, match="threads"):
        constmove.legal_masks([constmove.STARTING_FEN], threads=0)
    assert constmove.piece_planes([]).shape == (0, 12, 64)
    moves, offsets = constmove.legal_moves([])
    assert moves.shape == (0, 3) and offsets.tolist() == [0]
