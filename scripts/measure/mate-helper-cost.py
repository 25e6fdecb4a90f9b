#!/usr/bin/env python3
"""How long the mate solver holds the analysis mate helper's thread in ordinary positions.

    scripts/measure/mate-helper-cost.py ENGINE RECORDS.jsonl [--games N] [--plies 60,150,250] [--cap MS]

Takes the positions at the given plies of the first N games of `shishi match` records and
times `go mate CAP` (the helper's solver, checks only) on each: the verdicts, and the median,
90th percentile and largest time to a verdict (or the cap, 10 s as in the helper). Standard
library only.
"""

import argparse
import os
import sys
import json
import statistics
import time

# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("records")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", default="60,150,250")
    parser.add_argument("--cap", type=int, default=10_000, help="ms")
    args = parser.parse_args()
    plies = [int(p) for p in args.plies.split(",")]
    engine = Engine(args.engine)
    times, verdicts = [], {}
    with open(args.records, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()][: args.games]
    for record in records:
        moves = record["moves"].split()
        engine.send(f"setoption name USI_Variant value {record['variant']}")
        for ply in plies:
            if ply >= len(moves) - 2:
                continue
            engine.send(f"position sfen {record['initialSfen']} moves {' '.join(moves[:ply])}")
            started = time.monotonic()
            engine.send(f"go mate {args.cap}")
            answer = engine.until("checkmate")[-1].split()[1]
            times.append(time.monotonic() - started)
            kind = answer if answer in ("nomate", "timeout") else "mate"
            verdicts[kind] = verdicts.get(kind, 0) + 1
    engine.send("quit")
    times.sort()
    n = len(times)
    print(f"{n} positions (plies {args.plies} of {len(records)} games): verdicts {verdicts}")
    print(f"time to a verdict: median {statistics.median(times) * 1000:.0f} ms, "
          f"90th percentile {times[int(n * 0.9)] * 1000:.0f} ms, largest {times[-1] * 1000:.0f} ms; "
          f"at the cap {sum(t * 1000 >= args.cap - 100 for t in times)}")


if __name__ == "__main__":
    main()
