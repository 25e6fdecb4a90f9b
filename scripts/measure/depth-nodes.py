#!/usr/bin/env python3
"""Nodes and time to each depth of the native engine at lishogi's browser settings.

One thread, 16 MB hash, analyse mode, on the positions of web/test/depth.html (read from it:
the chu start and two of lishogi's test game); for each depth every position reached, the
nodes of its first exact line in each position and the median time. One thread makes the
nodes exact, so two settings of the search compare node for node on a busy machine too (the
times need a quiet one). Search constants are given as Tune_NAME=VALUE options.

usage: scripts/measure/depth-nodes.py SHISHI DEPTH [OPTION=VALUE ...]
   e.g. scripts/measure/depth-nodes.py target/release/shishi 14 Tune_futility_max_depth=8
"""
import json
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from usi_client import Engine  # noqa: E402

EXACT_LINE = re.compile(r"info depth (\d+) .*nodes (\d+) .*time (\d+)")


def depth_page_positions():
    """The USI move lists from the start that web/test/depth.html searches."""
    with open(os.path.join(ROOT, "web", "test", "depth.html")) as page:
        found = re.search(r"const POSITIONS = (\[[^\]]*\]);", page.read())
    if not found:
        sys.exit("web/test/depth.html: no `const POSITIONS = [...]` to read")
    return json.loads(found[1].replace("'", '"'))


def depths_of(shishi, depth, options, moves):
    """{depth: (nodes, ms)} of the first exact line at each depth of one search."""
    settings = {"USI_Variant": "chushogi", "USI_AnalyseMode": "true", "USI_Hash": 16,
                "Threads": 1}
    settings.update(option.split("=", 1) for option in options)
    engine = Engine(shishi, settings)
    engine.send("usinewgame")
    engine.send("position startpos" + (" moves " + moves if moves else ""))
    engine.send(f"go depth {depth}")
    found = {}
    for line in engine.until("bestmove"):
        m = EXACT_LINE.match(line)
        if m and "bound" not in line and int(m[1]) not in found:
            found[int(m[1])] = (int(m[2]), int(m[3]))
    engine.close()
    return found


def main():
    if len(sys.argv) < 3 or not sys.argv[2].isdigit():
        sys.exit(__doc__.split("\n\n")[-1].strip())
    shishi, depth, options = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    runs = [depths_of(shishi, depth, options, moves) for moves in depth_page_positions()]
    print("depth | nodes in each position | median time")
    for d in range(1, depth + 1):
        if all(d in run for run in runs):
            nodes = " ".join(f"{run[d][0]:>9}" for run in runs)
            ms = statistics.median(run[d][1] for run in runs)
            print(f"{d:>5} | {nodes} | {ms / 1000:.2f} s")


if __name__ == "__main__":
    main()
