#!/usr/bin/env python3
"""Clock games on a busy machine: does any engine lose on time, and how close does it come?

usage: scripts/measure/clock-under-load.py SHISHI OUT_DIR [--games N] [--tc BASE+INC] [--load K]
           [--variant shoshogi] [--opponent ENGINE_SPEC] [--margin MS]

Starts K busy processes (default: one per core, so that both cores of this machine are
taken), then plays `shishi match` games at a Fischer clock (default 10+0.1, sho, the
opening book, colours swapped) between SHISHI and itself, or the --opponent (a `--engine`
spec, e.g. Fairy-Stockfish with `option.USI_Variant=shoshogi`). The runner's time margin
is --margin ms (default 0: a move after the flag loses). OUT_DIR (new) keeps the games.

Prints per engine the moves played, the forfeits on time, and what was left on the clock
when each move arrived: the least, and the least as a share of the clock before the move.
Exits 1 when a game was lost on time. Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from overrun import busy_processes  # noqa: E402  (the same load as overrun.py's)


def parse_tc(text):
    base, inc = text.split("+")
    return int(float(base) * 1000), int(float(inc) * 1000)


def margins(record, tc):
    """(engine name, ms left when the move arrived, clock before the move) per move."""
    base, inc = tc
    names = [record["sente"], record["gote"]]
    clock = [base, base]
    first_side = 1 if record["initialSfen"].split()[1:2] == ["w"] else 0
    out = []
    for ply, (elapsed, comment) in enumerate(zip(record["timesMs"], record["comments"])):
        if comment == "book":
            continue  # the opening's moves are played by the runner, off the clock
        side = (first_side + ply) % 2
        before = clock[side]
        out.append((names[side], before - elapsed, before))
        clock[side] = before - elapsed + inc
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shishi")
    parser.add_argument("out_dir")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--load", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--variant", default="shoshogi")
    parser.add_argument("--opponent")
    parser.add_argument("--margin", type=int, default=0)
    args = parser.parse_args()
    if os.path.exists(args.out_dir):
        sys.exit(f"clock-under-load.py: {args.out_dir} exists; give a new folder")
    os.makedirs(args.out_dir)
    shishi = os.path.abspath(args.shishi)
    opponent = args.opponent or f"cmd={shishi},name=shishi-b"
    records = os.path.join(args.out_dir, "games.jsonl")
    command = [
        shishi, "match", "--variant", args.variant,
        "--engine", f"cmd={shishi},name=shishi", "--engine", opponent,
        "--games", str(args.games), "--tc", args.tc, "--repeat",
        "--openings", os.path.join(ROOT, "data", "openings", f"{args.variant}.txt"),
        "--timemargin", str(args.margin), "--jsonl", records,
    ]
    load = busy_processes(args.load)
    started = time.monotonic()
    try:
        with open(os.path.join(args.out_dir, "match.txt"), "w") as out:
            subprocess.run(command, stdout=out, stderr=subprocess.DEVNULL, check=False)
    finally:
        for p in load:
            p.kill()
    tc = parse_tc(args.tc)
    per_engine = {}
    on_time = {}
    with open(records) as f:
        for line in f:
            record = json.loads(line)
            if record.get("forfeit") and "time" in record.get("reason", ""):
                loser = record["sente"] if record["result"] == "0-1" else record["gote"]
                on_time[loser] = on_time.get(loser, 0) + 1
            for name, left, before in margins(record, tc):
                per_engine.setdefault(name, []).append((left, before))
    print(f"{args.games} games at {args.tc} ({args.variant}) beside {args.load} busy processes, "
          f"{time.monotonic() - started:.0f} s, runner margin {args.margin} ms")
    for name, moves in sorted(per_engine.items()):
        least = min(left for left, _ in moves)
        share = min(left / before for left, before in moves if before > 0)
        print(f"  {name}: {len(moves)} moves, {on_time.get(name, 0)} lost on time, "
              f"least left on the clock {least} ms, least share left {share:.0%}")
    sys.exit(1 if on_time else 0)


if __name__ == "__main__":
    main()
