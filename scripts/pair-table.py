#!/usr/bin/env python3
"""Per-pair results of a `shishi match` round robin, from its JSON-lines records.

    scripts/pair-table.py RECORDS.jsonl NAME1,NAME2,...   (names weakest first)

Prints a Markdown table, one row per pair, from the stronger-listed engine's side: games,
wins-draws-losses, score, and Elo with a 95% interval (Wilson's interval on the score, so
that 16-0 still gets a finite lower bound). Standard library only.
"""

import json
import math
import sys
from collections import defaultdict


def elo(score):
    if score <= 0:
        return float("-inf")
    if score >= 1:
        return float("inf")
    return -400 * math.log10(1 / score - 1)


def wilson(score, n, z=1.96):
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main():
    path, names = sys.argv[1], sys.argv[2].split(",")
    pairs = defaultdict(lambda: [0, 0, 0])  # (weaker, stronger) -> stronger's W, D, L
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        sente, gote = r["sente"], r["gote"]
        sente_score = {"1-0": 1.0, "0-1": 0.0}.get(r["result"], 0.5)
        weak, strong = sorted([sente, gote], key=names.index)
        score = sente_score if strong == sente else 1 - sente_score
        pairs[(weak, strong)][{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
    print("| pair | games | W-D-L | score | Elo [95%] |")
    print("|---|---|---|---|---|")
    order = sorted(pairs, key=lambda p: (names.index(p[1]) - names.index(p[0]), names.index(p[0])))
    for weak, strong in order:
        w, d, l = pairs[(weak, strong)]
        n = w + d + l
        s = (w + d / 2) / n
        lo, hi = wilson(s, n)
        fmt = lambda x: "+inf" if x == float("inf") else f"{x:+.0f}"
        print(f"| {strong} vs {weak} | {n} | {w}-{d}-{l} | {100 * s:.0f}% | {fmt(elo(s))} [{fmt(elo(lo))}, {fmt(elo(hi))}] |")


if __name__ == "__main__":
    main()
