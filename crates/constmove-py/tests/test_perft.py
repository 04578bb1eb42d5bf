"""perft, divide, perft_stats and perft_many against published counts (tests/data/perft),
never against constmove's own earlier output. Each suite is cut to a node budget so the
file runs in well under a minute."""

import csv
import gzip
import re

import pytest

import constmove

BUDGET = 5_000_000  # leaves per count


def epd(path):
    """(fen, {depth: nodes}) of each `FEN ;D1 n ;D2 n` line."""
    out = []
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    for line in text.splitlines():
        if ";" not in line:
            continue
        fen, *fields = line.split(";")
        counts = {}
        for field in fields:
            m = re.match(r"\s*D(\d+)\s+(\d+)", field)
            if m:
                counts[int(m.group(1))] = int(m.group(2))
        out.append((fen.strip(), counts))
    return out


def perft_blocks(path):
    """(fen, {depth: nodes}) of `epd FEN` / `perft D N` blocks."""
    out = []
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    for line in text.splitlines():
        if line.startswith("epd "):
            out.append((line[4:].strip(), {}))
        elif line.startswith("perft ") and out:
            _, depth, nodes = line.split()
            out[-1][1][int(depth)] = int(nodes)
    return out


def cases(entries, budget=BUDGET):
    return [(fen, d, n) for fen, counts in entries for d, n in counts.items() if n <= budget]


def cpw_rows(perft_data):
    with open(perft_data / "cpw_perft_results.csv") as f:
        return list(csv.DictReader(f))


def test_wiki_positions_nodes_threads_hash_divide(perft_data):
    rows = [r for r in cpw_rows(perft_data) if int(r["nodes"]) <= 20_000_000]
    assert len(rows) >= 24
    for r in rows:
        fen, depth, nodes = r["fen"], int(r["depth"]), int(r["nodes"])
        assert constmove.perft(fen, depth) == nodes, (fen, depth)
        assert constmove.perft(fen, depth, threads=2) == nodes, (fen, depth)
        assert constmove.perft(fen, depth, hash=4) == nodes, (fen, depth)
        assert sum(constmove.divide(fen, depth, threads=2).values()) == nodes, (fen, depth)


STATS = {
    "nodes": "nodes",
    "captures": "captures",
    "en_passant": "ep",
    "castles": "castles",
    "promotions": "promotions",
    "checks": "checks",
    "discovered_checks": "discovery_checks",
    "double_checks": "double_checks",
    "checkmates": "checkmates",
}


def test_wiki_statistics(perft_data):
    checked = 0
    for r in cpw_rows(perft_data):
        if int(r["nodes"]) > BUDGET:
            continue
        fen, depth = r["fen"], int(r["depth"])
        for threads in (1, 2):
            got = constmove.perft_stats(fen, depth, threads=threads)
            assert set(got) == set(STATS)
            for ours, column in STATS.items():
                if r[column] != "":  # empty: not published
                    assert got[ours] == int(r[column]), (fen, depth, ours)
                    checked += 1
    assert checked > 300


def test_perftsuite(perft_data):
    entries = epd(perft_data / "perftsuite.epd")
    assert len(entries) == 126
    checked = 0
    for depth in range(1, 7):
        todo = [(fen, c[depth]) for fen, c in entries if c.get(depth, BUDGET + 1) <= BUDGET]
        assert constmove.perft_many([f for f, _ in todo], depth) == [n for _, n in todo], depth
        checked += len(todo)
    assert checked > 500


def test_perftsuite_extras_and_tricky(perft_data):
    todo = cases(epd(perft_data / "perftsuite_extras.epd"))
    with open(perft_data / "tricky_positions.csv") as f:
        tricky = [(r["fen"], int(r["depth"]), int(r["nodes"])) for r in csv.DictReader(f)]
    assert len(tricky) == 28
    todo += [c for c in tricky if c[2] <= 20_000_000]
    for fen, depth, nodes in todo:
        assert constmove.perft(fen, depth, threads=2) == nodes, (fen, depth)


def test_marcelk_random_positions_in_one_batch(perft_data):
    entries = perft_blocks(perft_data / "marcelk_perft_random.perft.gz")
    assert len(entries) == 6838
    for depth in (1, 2, 3):
        fens = [fen for fen, counts in entries]
        expected = [counts[depth] for fen, counts in entries]
        assert constmove.perft_many(fens, depth) == expected, depth


def test_chess960_starts_in_one_batch(perft_data):
    entries = epd(perft_data / "fischer.epd")
    assert len(entries) == 960
    fens = [fen for fen, _ in entries]
    for depth in (1, 2, 3):
        assert constmove.perft_many(fens, depth) == [c[depth] for _, c in entries], depth
    board = constmove.Board(fens[0])
    assert board.chess960


@pytest.mark.parametrize(
    "fen, field",
    [
        ("", "missing"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "piece placement"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en-passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "king"),
    ],
)
def test_bad_fens_raise_value_error_naming_the_field(fen, field):
    for call in (
        lambda: constmove.perft(fen, 1),
        lambda: constmove.divide(fen, 1),
        lambda: constmove.perft_stats(fen, 1),
        lambda: constmove.Board(fen),
        lambda: constmove.legal_move_counts([constmove.STARTING_FEN, fen]),
        lambda: constmove.random_playouts(1, fen),
    ):
        with pytest.raises(ValueError, match=field):
            call()
    with pytest.raises(ValueError, match=r"fens\[1\]"):
        constmove.perft_many([constmove.STARTING_FEN, fen], 1)
