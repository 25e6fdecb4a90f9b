#!/usr/bin/env python3
"""Scores an engine on a mate problem file (data/mate/problems.txt) over USI.

    scripts/measure/mate-score.py ENGINE PROBLEMS [--time MS | --nodes N] [--search [--clock]] [--option NAME=VALUE ...] [--only-mates]

Without --search each problem gets `go mate MS` (the proof-number solver): a problem counts
as solved when `checkmate <line>` has the labelled length (or is longer: counted apart, the
shortening pass ran out of time), disproved when `checkmate nomate` answers a `nomate`
problem, wrong when the answer contradicts the label (or is shorter), unknown on
`checkmate timeout`. With --search it gets `go movetime MS` (the alpha-beta search): solved
when the last info line says `score mate N` for a mate problem (N longer than the label is
counted apart, and so is N shorter: the search tries quiet moves, which labels proven with
checks only do not), unknown otherwise (the search cannot disprove). With --search --clock the search is a game move
instead, `go btime MS wtime MS binc MS/50 winc MS/50`, as a bot or a match plays (the mate
probe, `Tune_probe_mate_permille`, applies only there). --option sets an engine option
first (repeatable). Prints the counts, the solver's nodes per second and the longest mate
proven. With --nodes each problem gets `go mate infinite nodes N` instead: a node budget,
so that two binaries whose solvers build the same tree do the same work, and their nodes per
second over the whole run compare their speed alone. Standard library only.
"""

import argparse
import os
import statistics
import sys
import time

# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine, last_mate_plies  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("problems")
    parser.add_argument("--time", type=int, default=1000, help="ms per problem")
    parser.add_argument("--nodes", type=int, help="the solver's node budget per problem, instead of a time")
    parser.add_argument("--search", action="store_true", help="alpha-beta instead of the solver")
    parser.add_argument("--clock", action="store_true", help="with --search: a game clock of MS each, not movetime")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="an engine option")
    parser.add_argument("--only-mates", action="store_true", help="skip the no-mate problems")
    args = parser.parse_args()
    if args.clock and not args.search:
        parser.error("--clock needs --search")
    if args.nodes and args.search:
        parser.error("--nodes is for the solver, not --search")

    engine = Engine(args.engine)
    send, until = engine.send, engine.until
    for option in args.option:
        name, _, value = option.partition("=")
        send(f"setoption name {name} value {value}")
    counts = {"solved": 0, "longer": 0, "shorter": 0, "disproved": 0, "unknown": 0, "wrong": 0}
    rates, longest, variant = [], 0, None
    # The last report of each problem's solve: its nodes and milliseconds, summed.
    all_nodes = all_ms = 0
    started = time.monotonic()
    total = 0
    for n, line in enumerate(open(args.problems, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        var, sfen, label, _source = line.rstrip("\n").split("|")
        expected = None if label == "nomate" else int(label.split()[1])
        if expected is None and args.only_mates:
            continue
        total += 1
        if var != variant:
            send(f"setoption name USI_Variant value {var}")
            variant = var
        send("isready")
        until("readyok")
        send(f"position sfen {sfen}")
        if args.search:
            if args.clock:
                inc = args.time // 50
                send(f"go btime {args.time} wtime {args.time} binc {inc} winc {inc}")
            else:
                send(f"go movetime {args.time}")
            mate = last_mate_plies(until("bestmove"))
            if expected is not None and mate == expected:
                counts["solved"] += 1
                longest = max(longest, mate)
            elif expected is not None and mate is not None and mate > expected:
                counts["solved"] += 1
                counts["longer"] += 1
                longest = max(longest, mate)
            elif expected is not None and mate is not None and 0 < mate < expected:
                # A mate with a quiet move, shorter than a label proven with checks only.
                counts["solved"] += 1
                counts["shorter"] += 1
            elif expected is None and mate is not None and mate > 0:
                counts["wrong"] += 1
            else:
                counts["unknown"] += 1
            continue
        send(f"go mate infinite nodes {args.nodes}" if args.nodes else f"go mate {args.time}")
        lines = until("checkmate")
        answer = lines[-1].split()[1:]
        last = None
        for l in lines:
            f = l.split()
            if l.startswith("info") and "nodes" in f and "time" in f:
                ms, nodes = int(f[f.index("time") + 1]), int(f[f.index("nodes") + 1])
                last = (nodes, ms)
                if ms >= 200:
                    rates.append(nodes * 1000 // ms)
        if last:
            all_nodes, all_ms = all_nodes + last[0], all_ms + last[1]
        if answer == ["timeout"]:
            counts["unknown"] += 1
        elif answer == ["nomate"]:
            counts["disproved" if expected is None else "wrong"] += 1
        elif expected is not None and len(answer) == expected:
            counts["solved"] += 1
            longest = max(longest, len(answer))
        elif expected is not None and len(answer) > expected:
            # A proof, but the shortening pass ran out of time (a hard set's labels are the
            # shortest the solver found with much more time).
            counts["solved"] += 1
            counts["longer"] += 1
            longest = max(longest, len(answer))
        else:
            counts["wrong"] += 1
            print(f"line {n}: answered {' '.join(answer)}, labelled {label}", file=sys.stderr)
    send("quit")
    mates = sum(1 for l in open(args.problems) if "|mate " in l and not l.startswith("#"))
    what = "solver (go mate)"
    if args.search:
        what = "search (a game clock)" if args.clock else "search (go movetime)"
    options = f" with {', '.join(args.option)}" if args.option else ""
    budget = f"{args.nodes:,} nodes" if args.nodes else f"{args.time} ms"
    print(f"{what}{options}, {budget} a problem, {total} problems ({mates} mates, {total - mates} no-mates):")
    shorter = f", {counts['shorter']} shorter: a quiet mate" if args.search else ""
    print(f"  solved {counts['solved']}/{mates} ({counts['longer']} longer than labelled{shorter}), "
          f"disproved {counts['disproved']}/{total - mates}, unknown {counts['unknown']}, wrong {counts['wrong']}")
    print(f"  longest mate proven: {longest} plies; whole run {time.monotonic() - started:.1f} s")
    if rates:
        print(f"  solver nodes per second (info lines of searches over 200 ms): median {statistics.median(rates):,}")
    if all_ms:
        print(f"  solver nodes per second over the whole run: {all_nodes * 1000 // all_ms:,} "
              f"({all_nodes:,} nodes in {all_ms / 1000:.1f} s)")
    return 1 if counts["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
