#!/usr/bin/env python3
"""Times lishogi's analysis job (shoginet's exact sequence) on one chu game, one thread.

    scripts/measure/shoginet-analysis-cost.py ENGINE GAME [--plies N] [--movetime MS] [--depth D]
                                       [--nodes N] [--threads T]

GAME is a `shishi match` JSON-lines record file (the first game with at least --plies plies
is taken) or a text file with one line of USI moves from the chu start. The job is
shoginet's (src/work/analysis.ts): USI_Variant chushogi, USI_AnalyseMode true, Skill_Level 20,
MultiPV 1, usinewgame; then from the last ply back to ply 0: isready, `position sfen
<initial> moves <prefix>`, `go movetime T depth D nodes N`, keeping the deepest info line.
Defaults are shoginet's shipped server-config.json (movetime 1000, depth 20, nodes 1250000);
the settings clients.md measured on lishogi are --movetime 3000 --depth 19.

Prints the wall time of the whole job, the time per ply (median, max) and the depth and
nodes reached (median), and checks that every ply got a depth, a score and a pv.
Standard library only.
"""

import argparse
import os
import json
import statistics
import sys
import time

# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine  # noqa: E402

CHU_START = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1"


def load_game(path, plies):
    """The initial SFEN and the first `plies` moves of a long enough game in `path`."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("{"):
                record = json.loads(line)
                sfen, moves = record.get("initialSfen", CHU_START), record["moves"].split()
            else:
                sfen, moves = CHU_START, line.split()
            if len(moves) >= plies:
                return sfen, moves[:plies]
    sys.exit(f"{path}: no game of {plies} plies or more")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("game")
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=1_250_000)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    sfen, moves = load_game(args.game, args.plies)

    engine = Engine(args.engine)
    send, read_until = engine.send, engine.until
    for name, value in [("Threads", args.threads), ("USI_Hash", 256), ("USI_Variant", "chushogi"),
                        ("USI_AnalyseMode", "true"), ("Skill_Level", 20), ("MultiPV", 1)]:
        send(f"setoption name {name} value {value}")
    send("usinewgame")

    per_ply, depths, nodes, problems = [], [], [], []
    start = time.monotonic()
    for ply in range(len(moves), -1, -1):
        send("isready")
        read_until("readyok")
        prefix = " ".join(moves[:ply])
        send(f"position sfen {sfen}" + (f" moves {prefix}" if prefix else ""))
        began = time.monotonic()
        send(f"go movetime {args.movetime} depth {args.depth} nodes {args.nodes}")
        lines = read_until("bestmove")
        per_ply.append(time.monotonic() - began)
        infos = [l.split() for l in lines if l.startswith("info depth")]
        if not infos:
            problems.append(f"ply {ply}: no info line")
            continue
        last = infos[-1]
        fields = {last[i]: last[i + 1] for i in range(len(last) - 1)}
        depths.append(int(fields["depth"]))
        if "nodes" in fields:
            nodes.append(int(fields["nodes"]))
        finished = fields["depth"] == "0"
        if "score" not in fields or (not finished and "pv" not in fields):
            problems.append(f"ply {ply}: incomplete last info: {' '.join(last)}")
    total = time.monotonic() - start
    engine.close()

    print(f"analysis of {len(moves)} plies ({len(moves) + 1} positions), movetime {args.movetime} "
          f"depth {args.depth} nodes {args.nodes}, {args.threads} thread(s)")
    print(f"whole job: {total:.1f} s ({total / 60:.1f} min)")
    print(f"per ply: median {statistics.median(per_ply):.2f} s, max {max(per_ply):.2f} s")
    print(f"depth reached: median {statistics.median(depths)}, min {min(depths)}; "
          f"nodes: median {statistics.median(nodes):,.0f}")
    for p in problems:
        print("problem:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
