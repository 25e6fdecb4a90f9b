#!/usr/bin/env python3
"""What lishogi's two readers of `info` lines make of an engine's output (issue 56).

usage: scripts/peers/lishogi-info-check.py ENGINE [--positions 96] [--ceval-runs 3]
           [--ceval-seconds 20] [--nodes 1250000]

- shoginet (lishogi's server analysis, `src/work/analysis.ts`): an analysis job of
  --positions positions (a self-play game of the engine's own, walked backwards, as
  shoginet walks a game), `go movetime 3000 depth 19 nodes N` each with shoginet's options;
  it keeps the last info line whose depth is at least the deepest so far. Counts the kept
  lines that carry a bound, and those whose first move is not the bestmove.
- ceval (lishogi's analysis board, `ui/ceval/src/protocol.ts`): --ceval-runs analyses with
  MultiPV 3 (`go depth 245`, stopped after --ceval-seconds), read by ceval's rules: a first
  line starts an evaluation, any other line is added to it, and it is shown when the
  highest multipv seen arrives. Counts the shown evaluations and the stale rows (rows beyond
  MultiPV, or a move twice).

Standard library only; the engine speaks USI on stdin/stdout.
"""
import argparse
import subprocess
import sys
import time


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError("the engine ended")

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def field(words, name):
    if name in words and words.index(name) + 1 < len(words):
        return words[words.index(name) + 1]
    return None


def depth_of(line):
    d = field(line.split(), "depth")
    return int(d) if d is not None else None


def shoginet_keeps(lines):
    kept = None
    for line in lines:
        if not line.startswith("info"):
            continue
        d, k = depth_of(line), depth_of(kept) if kept else None
        if d is None or k is None or d >= k:
            kept = line
    return kept


def ceval_shown(lines):
    shown, current, expected = [], None, 1
    for line in lines:
        w = line.split()
        if w[:1] == ["bestmove"]:
            if current:
                shown.append(current)
            break
        if w[:1] != ["info"]:
            continue
        multipv = int(field(w, "multipv") or 1)
        expected = max(expected, multipv)
        depth = int(field(w, "depth") or 0)
        mate = field(w, "score") == "mate"
        bound = "lowerbound" in w or "upperbound" in w
        if (depth < 6 and not mate) or field(w, "nodes") is None or field(w, "time") is None:
            continue
        if field(w, "score") is None or (bound and multipv == 1):
            continue
        first = field(w, "pv") or ""
        if multipv == 1:
            current = [first]
        elif current is not None:
            current.append(first)
        if multipv == expected and current is not None:
            shown.append(list(current))
    return shown


def self_play(engine, plies):
    engine.send("usinewgame")
    moves = []
    for _ in range(plies):
        engine.send("position startpos moves " + " ".join(moves))
        engine.send("go nodes 3000")
        best = engine.until("bestmove")[-1].split()[1]
        if best in ("resign", "win"):
            break
        moves.append(best)
    return moves


def shoginet_job(path, positions, nodes):
    e = Engine(path)
    for line in ["usi", "setoption name USI_Variant value chushogi"]:
        e.send(line)
    e.until("usiok")
    moves = self_play(e, positions - 1)
    for line in ["setoption name USI_AnalyseMode value true", "setoption name Skill_Level value 20",
                 "setoption name MultiPV value 1", "usinewgame"]:
        e.send(line)
    bounds = other = searched = 0
    started = time.time()
    for ply in range(len(moves), -1, -1):
        e.send("isready")
        e.until("readyok")
        e.send("position startpos moves " + " ".join(moves[:ply]))
        e.send(f"go movetime 3000 depth 19 nodes {nodes}")
        lines = e.until("bestmove")
        best = lines[-1].split()[1]
        kept = shoginet_keeps(lines) or ""
        searched += 1
        if "bound" in kept:
            bounds += 1
            print(f"  ply {ply}: kept a bound: {kept[:120]}")
        elif field(kept.split(), "pv") != best:
            other += 1
            print(f"  ply {ply}: kept {field(kept.split(), 'pv')}, bestmove {best}")
    e.close()
    print(f"shoginet: {searched} positions, {bounds} kept lines with a bound, {other} kept "
          f"lines not the bestmove's ({time.time() - started:.0f} s)")
    return bounds + other


def ceval_runs(path, runs, seconds):
    stale = total = 0
    for run, moves in enumerate(["", "7j6h 9a9b 7i7h", "8i8h 5d5e 7j8i 6c5d"][:runs]):
        e = Engine(path)
        for line in ["usi", "setoption name USI_Variant value chushogi",
                     "setoption name USI_AnalyseMode value true", "setoption name USI_Hash value 16",
                     "setoption name Threads value 2", "setoption name MultiPV value 3",
                     "usinewgame", "isready"]:
            e.send(line)
        e.until("readyok")
        e.send("position startpos moves " + moves)
        e.send("go depth 245")
        time.sleep(seconds)
        e.send("stop")
        shown = ceval_shown(e.until("bestmove"))
        bad = [rows for rows in shown if len(rows) != 3 or len(set(rows)) != len(rows)]
        print(f"  run {run + 1}: {len(shown)} evaluations shown, {len(bad)} with a stale row"
              + (f" (e.g. {bad[0]})" if bad else ""))
        stale += len(bad)
        total += len(shown)
        e.close()
    print(f"ceval: {runs} runs, {total} evaluations shown, {stale} with a stale row")
    return stale


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--positions", type=int, default=96)
    ap.add_argument("--nodes", type=int, default=1250000)
    ap.add_argument("--ceval-runs", type=int, default=3)
    ap.add_argument("--ceval-seconds", type=float, default=20)
    a = ap.parse_args()
    wrong = ceval_runs(a.engine, a.ceval_runs, a.ceval_seconds)
    wrong += shoginet_job(a.engine, a.positions, a.nodes)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
