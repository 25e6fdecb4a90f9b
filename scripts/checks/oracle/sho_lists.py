"""Reads `GAME<TAB>SFEN<TAB>MOVES` lines (our moves, sorted) on stdin and compares each list
with Fairy-Stockfish's shoshogi (pyffish). Prints every difference and a summary line.
Uses the USI<->FSF conversion of ../shared/oracle/perft_ffish.py (imported, not copied)."""
import os
import sys

sys.path.insert(0, os.environ.get("SHISHI_SHARED_ORACLE", os.path.join(os.path.dirname(__file__), "../../../../shared/oracle")))
import perft_ffish  # noqa: E402

positions = mismatches = 0
games = set()
for line in sys.stdin:
    if not line.strip():
        continue
    game, sfen, *rest = line.rstrip("\n").split("\t")
    ours = rest[0].split() if rest else []
    games.add(game)
    positions += 1
    oracle = perft_ffish.Oracle("shoshogi", sfen, usi=True)
    theirs = sorted(oracle.name(m) for m in oracle.legal([]))
    if sorted(ours) != theirs:
        mismatches += 1
        a, b = set(ours), set(theirs)
        print(f"MISMATCH game {game}: {sfen}\n  only ours: {' '.join(sorted(a - b))}\n  only pyffish: {' '.join(sorted(b - a))}")
print(f"shoshogi: {len(games)} games, {positions} positions, {mismatches} mismatches")
sys.exit(1 if mismatches else 0)
