#!/usr/bin/env python3
"""How far the marks of `shishi analyse` agree with a search ten times deeper.

Usage: scripts/measure/verdict-agreement.py SHISHI GAMES.jsonl OUT_DIR [--nodes N] [--factor F]
                                     [--workers W] [--plies P] [--games K] [-- EXTRA...]

Analyses the first K games (JSON lines, as `shishi match --jsonl` writes them), cut to
their first P plies, twice: at N nodes a search (the default settings) and at F times as
many. Then, for each game and in all: the plies each run marks (inaccuracy or worse), the
plies both mark, the agreement (both / either), how many of the shallow marks the deep run
confirms (precision), how many of the deep marks the shallow run finds (recall), and the
decisive moves (a deep blunder) the shallow run finds; then the same with a tolerance: a
mark is confirmed when the other run's `chancesLost` is at least half the lowest threshold
(a move just under the line in one run and just over it in the other). Also the time of
each run.
EXTRA arguments go to both runs. Outputs are kept in OUT_DIR; a run whose output exists is
not made again (delete it to redo).
"""
import argparse
import json
import os
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shishi")
    ap.add_argument("games")
    ap.add_argument("out_dir")
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--plies", type=int, default=150)
    ap.add_argument("--games", dest="count", type=int, default=5)
    ap.add_argument("--inaccuracy", type=int, default=10,
                    help="the runs' --inaccuracy threshold (for the tolerance)")
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    cut = os.path.join(a.out_dir, "games.jsonl")
    with open(a.games, encoding="utf-8") as src, open(cut, "w", encoding="utf-8") as dst:
        n = 0
        for line in src:
            if n >= a.count:
                break
            record = json.loads(line)
            moves = record["moves"].split()
            if len(moves) < a.plies:
                continue
            record["moves"] = " ".join(moves[: a.plies])
            record["id"] = f"game{record.get('game', n)}"
            # A cut game has no result of its own.
            record.pop("result", None)
            dst.write(json.dumps(record) + "\n")
            n += 1
    runs = {}
    for name, nodes in (("shallow", a.nodes), ("deep", a.nodes * a.factor)):
        out = os.path.join(a.out_dir, f"{name}.jsonl")
        if not os.path.exists(out):
            start = time.time()
            subprocess.run(
                [a.shishi, "analyse", "--input", cut, "--nodes", str(nodes),
                 "--workers", str(a.workers), "--output", out + ".part"] + a.extra,
                check=True, stderr=subprocess.DEVNULL)
            os.rename(out + ".part", out)
            print(f"{name}: {nodes} nodes, {time.time() - start:.0f} s", flush=True)
        marks = {}
        for line in open(out, encoding="utf-8"):
            r = json.loads(line)
            if "ply" in r:
                marks[(r["id"], r["ply"])] = (r.get("judgement"), r.get("chancesLost") or 0)
        runs[name] = marks
    totals = [0, 0, 0, 0, 0]
    games = sorted({g for g, _ in runs["deep"]})
    print("game        shallow  deep  both  agreement  precision  recall  decisive found")
    for game in games + ["all"]:
        keys = [k for k in runs["deep"] if game in ("all", k[0])]
        s = {k for k in keys if runs["shallow"].get(k, (None, 0))[0]}
        d = {k for k in keys if runs["deep"][k][0]}
        decisive = {k for k in keys if runs["deep"][k][0] == "blunder"}
        found = decisive & s
        either = s | d
        both = s & d
        print(f"{game:<10} {len(s):>8} {len(d):>5} {len(both):>5} "
              f"{len(both) / max(1, len(either)):>10.0%} {len(both) / max(1, len(s)):>10.0%} "
              f"{len(both) / max(1, len(d)):>7.0%}  {len(found)}/{len(decisive)}")
    half = a.inaccuracy / 2
    keys = list(runs["deep"])
    s = [k for k in keys if runs["shallow"].get(k, (None, 0))[0]]
    d = [k for k in keys if runs["deep"][k][0]]
    confirmed = [k for k in s if runs["deep"][k][1] >= half]
    found = [k for k in d if runs["shallow"].get(k, (None, 0))[1] >= half]
    print(f"with tolerance: shallow marks confirmed {len(confirmed)}/{len(s)}, deep marks found "
          f"{len(found)}/{len(d)}, agreement "
          f"{(len(confirmed) + len(found)) / max(1, len(s) + len(d)):.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
