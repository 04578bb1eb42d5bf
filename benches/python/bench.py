"""constmove from Python against python-chess and the fast PyPI packages that install here
(chessmg, spooky-chess, cozy-chess-py, rust-chess), side by side in one run:

  1. perft of the chessprogramming wiki's six positions (depth 5 where the package has a
     native perft; a Python recursion with bulk-counted leaves, at depth 3, where it has
     none: reported as nodes per second); constmove's and chessmg's native perft run
     interleaved, position by position, and the ratio is printed per position;
  2. random playouts of 1,000 games (at most 500 plies, each package's own game-over test);
  3. the legal moves of 100,000 FENs (positions 40-80 plies into random games), then
     constmove against cozy-chess-py (moves) and rust-chess (counts) head to head, interleaved.

Usage: python benches/python/bench.py [--quick] [--only perft|playouts|legal]. Packages that fail to import are skipped.
Prints a Markdown table; figures go to docs/PERFORMANCE.md ("From Python").
"""

import importlib
import os
import platform
import random
import sys
import time

import constmove

QUICK = "--quick" in sys.argv
# `--only legal` runs one part (perft, playouts or legal).
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
WIKI = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]
CORES = os.cpu_count() or 1


def optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


chess = optional("chess")
chessmg = optional("chessmg")
spooky = optional("spooky_chess")
cozy = optional("cozy_chess")
rust_chess = optional("rust_chess")


def timed(f, repeat=1):
    """(best seconds of `repeat` runs, result of the last); the best CPU seconds of this
    process (every thread's) go to the next `row`."""
    global cpu_seconds
    best, result, cpu_seconds = float("inf"), None, float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = f()
        best = min(best, time.perf_counter() - t)
        cpu_seconds = min(cpu_seconds, time.process_time() - c)
    return best, result


rows = []
cpu_seconds = float("nan")


def row(task, package, how, seconds, work, unit):
    """A result: wall seconds, and the CPU seconds `timed` saw (steadier than wall time on a
    shared machine; for a row on several threads, the sum of their CPU time)."""
    rows.append((task, package, how, seconds, work / seconds, cpu_seconds, work / cpu_seconds, unit))
    print(
        f"  {task:<12} {package:<24} {how:<38} {seconds:9.3f} s {work / seconds:14,.0f} {unit}/s"
        f"   CPU {cpu_seconds:7.3f} s {work / cpu_seconds:14,.0f} {unit}/s",
        flush=True,
    )


# ---- 1. perft ----------------------------------------------------------------------------
def py_perft(fen, depth, board_of, moves_of, play, undo):
    """A Python recursion over a package's API; the last ply counts its moves."""

    def rec(board, d):
        moves = moves_of(board)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            play(board, m)
            total += rec(board, d - 1)
            undo(board)
        return total

    return rec(board_of(fen), depth)


def perft_against_chessmg(depth, rounds):
    """constmove.perft and chessmg.perft (both one thread) interleaved position by position
    for `rounds` rounds, so load from elsewhere falls on both alike. Rows: each package's
    best round (wall, and CPU as `timed` gives it); then the ratio per position (each side's
    best of the rounds) and overall, by wall and by CPU time. Returns the node count."""
    global cpu_seconds
    sides = {"constmove": lambda f: constmove.perft(f, depth)}
    if chessmg:
        sides["chessmg"] = lambda f: chessmg.perft(f, depth)
    best = {}  # (side, position index or None for the round's total) -> (wall, CPU)
    for _ in range(rounds):
        total = {side: [0.0, 0.0, 0] for side in sides}
        for i, fen in enumerate(WIKI):
            counts = set()
            for side, run in sides.items():
                t, c = time.perf_counter(), time.process_time()
                n = run(fen)
                t, c = time.perf_counter() - t, time.process_time() - c
                counts.add(n)
                total[side][0] += t
                total[side][1] += c
                total[side][2] += n
                w, u = best.get((side, i), (float("inf"), float("inf")))
                best[side, i] = (min(w, t), min(u, c))
            assert len(counts) == 1, ("perft counts differ", WIKI[i], counts)
        for side in sides:
            w, u = best.get((side, None), (float("inf"), float("inf")))
            best[side, None] = (min(w, total[side][0]), min(u, total[side][1]))
    nodes = total["constmove"][2]
    for side, how in [("constmove", f"perft depth {depth}, 1 thread"), ("chessmg", f"chessmg.perft depth {depth}")]:
        if side in sides:
            seconds, cpu_seconds = best[side, None]
            row("perft", "constmove" if side == "constmove" else "chessmg (C++)", how, seconds, nodes, "nodes")
    if chessmg:
        print(f"    constmove's speed over chessmg's native perft (each side's best of {rounds} interleaved rounds):")
        for i, fen in enumerate(WIKI + [None]):
            key = i if fen else None
            (cw, cc), (mw, mc) = best["constmove", key], best["chessmg", key]
            print(f"      {'best round' if fen is None else 'position ' + str(i + 1):<11} wall {mw / cw:6.2f}x   CPU {mc / cc:6.2f}x")
    return nodes


def bench_perft():
    depth = 4 if QUICK else 5
    nodes = perft_against_chessmg(depth, 5)
    s, nodes2 = timed(lambda: sum(constmove.perft(f, depth, threads=CORES) for f in WIKI), 3)
    row("perft", "constmove", f"perft depth {depth}, {CORES} threads", s, nodes2, "nodes")
    s, nodes3 = timed(lambda: sum(constmove.perft_many(WIKI, depth, threads=CORES)), 3)
    row("perft", "constmove", f"perft_many depth {depth}, {CORES} threads", s, nodes3, "nodes")
    assert nodes == nodes2 == nodes3
    shallow = 3
    want = sum(constmove.perft(f, shallow) for f in WIKI)
    recursions = []
    if chess:
        recursions.append(("python-chess", lambda f: py_perft(
            f, shallow, chess.Board, lambda b: list(b.legal_moves), lambda b, m: b.push(m), lambda b: b.pop())))
    if spooky:
        recursions.append(("spooky-chess (Rust)", lambda f: py_perft(
            f, shallow, lambda f: spooky.Game(8, 8, f, True), lambda g: g.legal_moves(),
            lambda g, m: g.make_move(m), lambda g: g.unmake_move())))
    if chessmg:
        recursions.append(("chessmg (C++)", lambda f: py_perft(
            f, shallow, chessmg.ChessPosition, lambda p: p.legal_moves(),
            lambda p, m: p.make_move(m), lambda p: p.undo_move())))
    for name, run in recursions:
        s, n = timed(lambda: sum(run(f) for f in WIKI))
        assert n == want, (name, n, want)
        row("perft", name, f"Python recursion, depth {shallow}", s, n, "nodes")


# ---- 2. random playouts ------------------------------------------------------------------
MAX_PLIES = 500


def bench_playouts():
    games = 100 if QUICK else 1000
    s, (fens, results, plies) = timed(lambda: constmove.random_playouts(games, max_plies=MAX_PLIES, threads=1), 3)
    row("playouts", "constmove", f"random_playouts({games}), 1 thread", s, games, "games")
    print(f"    (mean {sum(plies) / games:.0f} plies a game)")
    s, _ = timed(lambda: constmove.random_playouts(games, max_plies=MAX_PLIES, threads=CORES), 3)
    row("playouts", "constmove", f"random_playouts({games}), {CORES} threads", s, games, "games")

    rng = random.Random(1)

    def loop(n, new, moves_of, play, over):
        for _ in range(n):
            board, ply = new(), 0
            while ply < MAX_PLIES and not over(board):
                play(board, rng.choice(moves_of(board)))
                ply += 1

    loops = []
    if chess:
        loops.append(("python-chess", max(games // 10, 10), lambda: loop(
            max(games // 10, 10), chess.Board, lambda b: list(b.legal_moves), lambda b, m: b.push(m),
            lambda b: b.is_game_over())))
    if spooky:
        loops.append(("spooky-chess (Rust)", games, lambda: loop(
            games, spooky.Game.standard, lambda g: g.legal_moves(), lambda g, m: g.make_move_unchecked(m),
            lambda g: g.is_over())))
    # chessmg 0.6.0 is left out: its random games corrupt its heap and abort the process
    # ("corrupted double-linked list", without constmove loaded).
    if cozy:
        loops.append(("cozy-chess-py (Rust)", games, lambda: loop(
            games, cozy.Board, lambda b: b.generate_moves(), lambda b, m: b.play_unchecked(m),
            lambda b: b.status() != cozy.GameStatus.Ongoing)))
    if rust_chess:
        loops.append(("rust-chess (Rust)", games, lambda: loop(
            games, rust_chess.Board, lambda b: list(b.generate_legal_moves()),
            lambda b, m: b.make_move(m, False), lambda b: b.get_status() != rust_chess.BoardStatus.ONGOING)))
    for name, n, run in loops:
        try:
            s, _ = timed(run)
        except Exception as e:  # an API this script guessed wrong: report, go on
            print(f"  playouts {name}: skipped ({e!r})")
            continue
        row("playouts", name, f"Python loop, {n} games", s, n, "games")


# ---- 3. legal moves of many FENs ---------------------------------------------------------
def bench_legal_moves():
    count = 10_000 if QUICK else 100_000
    fens = []
    for seed, plies in enumerate(range(40, 81, 10)):
        fens += constmove.random_playouts(count // 5, max_plies=plies, seed=seed)[0]
    fens = [f for f in fens if constmove.Board(f).legal_moves] [:count]
    total = int(constmove.legal_move_counts(fens).sum())
    s, (moves, offsets) = timed(lambda: constmove.legal_moves(fens, threads=1), 3)
    assert len(moves) == total
    row("legal moves", "constmove", f"legal_moves({len(fens)} FENs), 1 thread", s, len(fens), "FENs")
    joined = "\n".join(fens).encode()
    s, (moves2, _) = timed(lambda: constmove.legal_moves(joined, threads=1), 3)
    assert (moves2 == moves).all()
    row("legal moves", "constmove", f"legal_moves(one bytes), 1 thread", s, len(fens), "FENs")
    s, _ = timed(lambda: constmove.legal_moves(fens, threads=CORES), 3)
    row("legal moves", "constmove", f"legal_moves({len(fens)} FENs), {CORES} threads", s, len(fens), "FENs")
    s, _ = timed(lambda: constmove.legal_move_counts(fens, threads=1), 3)
    row("legal moves", "constmove", f"legal_move_counts, 1 thread", s, len(fens), "FENs")
    if rust_chess:
        def batch():
            return sum(len(g) for g in rust_chess.BoardBatch.from_fens(fens).generate_legal_moves())
        s, n = timed(batch, 3)
        assert n == total, ("rust-chess", n, total)
        row("legal moves", "rust-chess (Rust)", "BoardBatch.from_fens + generate", s, len(fens), "FENs")
    loops = []
    if chess:
        loops.append(("python-chess", fens[: count // 10], lambda f: len(list(chess.Board(f).legal_moves))))
    if chessmg:
        loops.append(("chessmg (C++)", fens, lambda f: len(chessmg.ChessPosition(f).legal_moves())))
    if spooky:
        loops.append(("spooky-chess (Rust)", fens, lambda f: len(spooky.Game(8, 8, f, True).legal_moves())))
    def cozy_moves(f):
        return len(cozy.Board.from_fen(f).generate_moves())
    if cozy:
        loops.append(("cozy-chess-py (Rust)", fens, cozy_moves))
    for name, subset, one in loops:
        s, n = timed(lambda: sum(one(f) for f in subset), 3)
        want = int(constmove.legal_move_counts(subset).sum())
        assert n == want, (name, n, want)
        row("legal moves", name, f"Python loop, {len(subset)} FENs", s, len(subset), "FENs")
    # Head to head, interleaved: rows run a minute apart can see the host at different speeds,
    # so each pair alternates for five rounds and compares the best CPU seconds of each.
    pairs = []
    if cozy:
        pairs.append(("legal_moves, 1 thread", lambda: constmove.legal_moves(fens, threads=1),
                      "cozy-chess-py's loop", lambda: sum(cozy_moves(f) for f in fens)))
    if rust_chess:
        pairs.append(("legal_move_counts, 1 thread", lambda: constmove.legal_move_counts(fens, threads=1),
                      "rust-chess's counting batch", batch))
    for ours_name, ours, theirs_name, theirs in pairs:
        best = [float("inf"), float("inf")]
        for _ in range(5):
            for side, f in enumerate((ours, theirs)):
                c = time.process_time()
                f()
                best[side] = min(best[side], time.process_time() - c)
        print(f"  head to head: constmove {ours_name} {best[1] / best[0]:.2f}x {theirs_name} "
              f"(CPU {best[0]:.3f} s against {best[1]:.3f} s, best of 5 interleaved)", flush=True)


def versions():
    out = []
    for name in ["constmove", "chess", "chessmg", "spooky_chess", "cozy_chess_py", "rust_chess", "numpy"]:
        try:
            from importlib.metadata import version

            out.append(f"{name} {version(name.replace('_', '-'))}")
        except Exception:
            pass
    return ", ".join(out)


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


print(f"# {cpu()}, {CORES} cores, Python {platform.python_version()}, {platform.system()}")
print(f"# {versions()}")
for part, bench in [("perft", bench_perft), ("playouts", bench_playouts), ("legal", bench_legal_moves)]:
    if ONLY in (None, part):
        bench()

print("\n| task | package | how | seconds | rate | CPU seconds | rate by CPU time |")
print("|---|---|---|---:|---:|---:|---:|")
for task, package, how, seconds, rate, cpu, cpu_rate, unit in rows:
    print(f"| {task} | {package} | {how} | {seconds:.3f} | {rate:,.0f} {unit}/s | {cpu:.3f} | {cpu_rate:,.0f} {unit}/s |")
