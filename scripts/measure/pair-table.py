#!/usr/bin/env python3
"""Per-pair results of a `shishi match` round robin, from its JSON-lines records.

    scripts/measure/pair-table.py RECORDS.jsonl NAME1,NAME2,...   (names weakest first)

Prints two Markdown tables: the crosstable (each row engine's score against each column
engine, and its games, its score over all its games, and a rating fitted to all the games:
Bradley-Terry's maximum likelihood, a draw counted as half a win, in Elo from the
last-named engine), then one row per pair, from the stronger-listed engine's side: games,
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


def ratings(pairs, players):
    """Elo of each player, the last one at 0, that makes the results likeliest
    (Bradley-Terry, fitted by Hunter's minorisation-maximisation iteration; a draw is half a
    win to each side). None when a player has no points or no losses: its rating is then
    unbounded."""
    points = defaultdict(float)
    games = defaultdict(int)  # (a, b) -> games between them, both orders
    for (weak, strong), (w, d, l) in pairs.items():
        points[strong] += w + d / 2
        points[weak] += l + d / 2
        games[(weak, strong)] = games[(strong, weak)] = w + d + l
    total = {p: sum(n for (a, _), n in games.items() if a == p) for p in players}
    if any(points[p] <= 0 or points[p] >= total[p] for p in players):
        return None
    strength = {p: 1.0 for p in players}
    for _ in range(10_000):
        new = {}
        for p in players:
            denominator = sum(n / (strength[p] + strength[q]) for (a, q), n in games.items() if a == p)
            new[p] = points[p] / denominator
        anchor = new[players[-1]]
        new = {p: v / anchor for p, v in new.items()}
        converged = max(abs(math.log(new[p] / strength[p])) for p in players) < 1e-10
        strength = new
        if converged:
            break
    return {p: 400 * math.log10(strength[p]) for p in players}


def print_crosstable(pairs, names):
    """Row engine's score against each column engine, as 'percent (games)'; '-' where the two
    never met. Then the row engine's score over all its games, and its fitted rating."""
    played = [n for n in names if any(n in pair for pair in pairs)]
    fitted = ratings(pairs, played)
    print("| | " + " | ".join(played) + f" | all | Elo (from {played[-1]}) |")
    print("|---" * (len(played) + 3) + "|")
    for row in played:
        cells, points, games = [], 0.0, 0
        for column in played:
            if column == row:
                cells.append("")
                continue
            weak, strong = sorted([row, column], key=names.index)
            w, d, l = pairs.get((weak, strong), (0, 0, 0))
            n = w + d + l
            if n == 0:
                cells.append("-")
                continue
            row_points = w + d / 2 if row == strong else l + d / 2
            points, games = points + row_points, games + n
            cells.append(f"{100 * row_points / n:.0f}% ({n})")
        total = f"{100 * points / games:.0f}% ({games})" if games else "-"
        rating = f"{fitted[row]:+.0f}" if fitted else "-"
        print(f"| {row} | " + " | ".join(cells) + f" | {total} | {rating} |")


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
    print_crosstable(pairs, names)
    print()
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
