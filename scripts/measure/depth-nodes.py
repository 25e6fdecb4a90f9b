#!/usr/bin/env python3
"""Nodes and time to each depth of the native engine at lishogi's browser settings.

One thread, 16 MB hash, analyse mode, on the three positions of web/test/depth.html (the chu
start and two of lishogi's test game); for each depth every position reached, the nodes of
its first exact line in each position and the median time. One thread makes the nodes
exact, so two settings of the search compare node for node on a busy machine too (the
times need a quiet one). Search constants are given as Tune_NAME=VALUE options.

usage: scripts/measure/depth-nodes.py SHISHI DEPTH [OPTION=VALUE ...]
   e.g. scripts/measure/depth-nodes.py target/release/shishi 14 Tune_futility_max_depth=8
"""
import re
import statistics
import subprocess
import sys

# The positions of web/test/depth.html: USI moves from the start.
POSITIONS = ["", "8i8h 5d5e 7j8i 6c5d", "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f"]
EXACT_LINE = re.compile(r"info depth (\d+) .*nodes (\d+) .*time (\d+)")


def depths_of(shishi, depth, options, moves):
    """{depth: (nodes, ms)} of the first exact line at each depth of one search."""
    commands = ["usi", "setoption name USI_Variant value chushogi",
                "setoption name USI_AnalyseMode value true", "setoption name USI_Hash value 16",
                "setoption name Threads value 1"]
    for option in options:
        name, _, value = option.partition("=")
        commands.append(f"setoption name {name} value {value}")
    commands += ["usinewgame", "isready",
                 "position startpos" + (" moves " + moves if moves else ""), f"go depth {depth}"]
    engine = subprocess.Popen([shishi], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    engine.stdin.write("\n".join(commands) + "\n")
    engine.stdin.flush()
    found = {}
    for line in engine.stdout:
        m = EXACT_LINE.match(line)
        if m and "bound" not in line and int(m[1]) not in found:
            found[int(m[1])] = (int(m[2]), int(m[3]))
        if line.startswith("bestmove"):
            break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait(timeout=10)
    return found


def main():
    if len(sys.argv) < 3 or not sys.argv[2].isdigit():
        sys.exit(__doc__.split("\n\n")[-1].strip())
    shishi, depth, options = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    runs = [depths_of(shishi, depth, options, moves) for moves in POSITIONS]
    print("depth | nodes in each position | median time")
    for d in range(1, depth + 1):
        if all(d in run for run in runs):
            nodes = " ".join(f"{run[d][0]:>9}" for run in runs)
            ms = statistics.median(run[d][1] for run in runs)
            print(f"{d:>5} | {nodes} | {ms / 1000:.2f} s")


if __name__ == "__main__":
    main()
