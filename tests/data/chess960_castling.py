"""Writes chess960_castling.epd: Chess960 and double-Chess960 positions built around
castling (the castling rook shielding its king, king and rook swapping or landing on each
other's squares, kings that do not move, attacked and blocked paths), with perft counts to
depth 4 from python-chess 1.11.2, a generator independent of constmove:

    pip install chess==1.11.2 && python3 chess960_castling.py > chess960_castling.epd

First the hand-made cases, then 30 random castling-heavy positions (seed 7)."""
import random
import sys

import chess


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for mv in list(board.legal_moves):
        board.push(mv)
        n += perft(board, depth - 1)
        board.pop()
    return n


CASES = [
    # the castling rook shields the king: K c1 R b1, black rook a1 (king never moves)
    ("shield-king-still", "4k3/8/8/8/8/8/8/rRK4R w BH - 0 1"),
    # K e1 R b1, black rook a1: the king would land on c1 in check
    ("shield-king-lands", "4k3/8/8/8/8/8/8/rR2K2R w BH - 0 1"),
    # the same with a black queen, and the king side shielded by the rook on g1
    ("shield-both-sides", "4k3/8/8/8/8/8/8/qR2K1Rr w BG - 0 1"),
    # swaps: K f1 R g1, K d1 R c1
    ("swap-king-side", "r3k2r/8/8/8/8/8/8/2R2KR1 w GC - 0 1"),
    ("swap-both", "1r1k1r2/8/8/8/8/8/8/2RK1R2 w CFbf - 0 1"),
    ("swap-f-g", "1r1k2r1/8/8/8/8/8/8/2R2KR1 w GCgb - 0 1"),
    # king onto the rook's square: K e1 R g1
    ("king-onto-rook", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"),
    # rook onto the king's square: K f1 R h1; K d1 R a1
    ("rook-onto-king", "r3k2r/8/8/8/8/8/8/R4K1R w HA - 0 1"),
    ("rook-onto-king-2", "r2k3r/8/8/8/8/8/8/R2K3R w HAha - 0 1"),
    # king already on g1 / c1
    ("king-on-g", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"),
    ("king-on-c", "r1k4r/8/8/8/8/8/8/R1K4R w HAha - 0 1"),
    ("king-on-b", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1"),
    # attacked path squares and destination only
    ("attacked-path", "2r1k2r/8/8/8/8/8/6b1/R3K2R w HAh - 0 1"),
    ("attacked-destination-960", "4k3/8/8/8/8/2r5/8/1R1K3R w HB - 0 1"),
    # an enemy piece between king and rook / on the destination
    ("blocked-destination", "4k3/8/8/8/8/8/8/R2K1bR1 w GA - 0 1"),
    # double Chess960: different back ranks, both sides castle
    ("double-960", "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/2R1K2R w HCea - 0 1"),
    ("double-960-b", "r3k2r/8/8/8/8/8/8/RK5R b HAha - 0 1"),
    # a check that the castling rook gives after the castle
    ("rook-gives-check", "5k2/8/8/8/8/8/8/4K1R1 w G - 0 1"),
    ("rook-gives-check-q", "3k4/8/8/8/8/8/8/1R2K3 w B - 0 1"),
]


def back_rank(rng):
    king = rng.randint(1, 6)
    rooks = [rng.randint(0, king - 1), rng.randint(king + 1, 7)]
    return king, rooks

def make(rng):
    squares = {}
    rights = []
    for color in (chess.WHITE, chess.BLACK):
        rank = 0 if color == chess.WHITE else 7
        king, rooks = back_rank(rng)
        squares[chess.square(king, rank)] = chess.Piece(chess.KING, color)
        for f in rooks:
            if rng.random() < 0.85:
                squares[chess.square(f, rank)] = chess.Piece(chess.ROOK, color)
                if rng.random() < 0.8:
                    rights.append(chess.square(f, rank))
        # a few other pieces on the back rank, sometimes
        for _ in range(rng.randint(0, 2)):
            f = rng.randint(0, 7)
            sq = chess.square(f, rank)
            if sq not in squares:
                squares[sq] = chess.Piece(rng.choice([chess.KNIGHT, chess.BISHOP, chess.QUEEN]), color)
    # enemy/own pieces elsewhere, including back-rank sliders (shields, attacks)
    for _ in range(rng.randint(1, 7)):
        color = rng.choice([chess.WHITE, chess.BLACK])
        kind = rng.choice([chess.ROOK, chess.QUEEN, chess.BISHOP, chess.KNIGHT, chess.PAWN, chess.ROOK])
        if rng.random() < 0.4:
            rank = 7 if color == chess.WHITE else 0  # on the opponent's back rank
        else:
            rank = rng.randint(1, 6)
        sq = chess.square(rng.randint(0, 7), rank)
        if kind == chess.PAWN and rank in (0, 7):
            continue
        if sq not in squares:
            squares[sq] = chess.Piece(kind, color)
    board = chess.Board(None, chess960=True)
    for sq, piece in squares.items():
        board.set_piece_at(sq, piece)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    mask = 0
    for sq in rights:
        mask |= chess.BB_SQUARES[sq]
    board.castling_rights = mask
    board.castling_rights = board.clean_castling_rights()
    if not board.is_valid():
        return None
    if board.castling_rights == 0:
        return None
    return board


def random_positions(rng, count):
    made = 0
    while made < count:
        board = make(rng)
        if board is None:
            continue
        # a few random moves, castles preferred, to vary the rights
        for _ in range(rng.randint(0, 3)):
            moves = list(board.legal_moves)
            if not moves:
                break
            castles = [m for m in moves if board.is_castling(m)]
            mv = rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(moves)
            board.push(mv)
        if board.castling_rights == 0 or board.is_game_over():
            continue
        yield chess.Board(board.fen(), chess960=True)
        made += 1


def main():
    depth = 4
    print("# Chess960 castling cases; counts by python-chess 1.11.2 (chess960_castling.py)")
    boards = []
    for name, fen in CASES:
        board = chess.Board(fen, chess960=True)
        assert board.is_valid(), (name, fen, board.status())
        boards.append(board)
    boards.extend(random_positions(random.Random(7), 30))
    for board in boards:
        counts = " ".join(f";D{d} {perft(board, d)}" for d in range(1, depth + 1))
        print(f"{board.shredder_fen()} {counts}", flush=True)


main()
