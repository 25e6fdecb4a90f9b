#!/usr/bin/env python3
"""Where a match's games spent their clocks: per stretch of plies, each engine's median time
and depth a move, and for each game one engine lost, the ply where its fate was sealed.

    scripts/measure/clock-profile.py RECORDS.jsonl [--engine NAME] [--bucket PLIES] [--sealed CP]

RECORDS is a `shishi match --jsonl` file. Its `comments` give each engine's evaluation after
its move (`+0.35/12`: its own view, depth 12; `mate 5/9`), `timesMs` the time of each move.
`--engine` names the engine to follow (default: the first game's sente that is not HaChu).
A game counts as sealed at the first of its moves after which this engine's own evaluation
stayed at or below -CP (default 300) to the end, or, if it never did, at its last move.
Prints plain text; exit code 0, or 2 for a file it cannot read.
"""
import argparse
import json
import re
import statistics
import sys

SCORE = re.compile(r"^(?:([+-]?\d+\.\d+)|mate (-?\d+))/(\d+)")


def score_and_depth(comment):
    """(centipawns, depth) of a comment such as `+0.35/12` or `mate -4/7`; None for `book`."""
    m = SCORE.match(comment or "")
    if not m:
        return None
    if m.group(1) is not None:
        cp = round(float(m.group(1)) * 100)
    else:
        cp = 30000 if int(m.group(2)) > 0 else -30000
    return cp, int(m.group(3))


def load(path):
    games = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                games.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{number}: not a JSON record ({e})")
    return games


def moves_of(game, engine):
    """[(ply, ms, cp, depth)] of `engine`'s moves in `game` (ply from 1), book moves left out."""
    first = 0 if game["sente"] == engine else 1
    out = []
    for i in range(first, len(game["timesMs"]), 2):
        sd = score_and_depth(game["comments"][i] if i < len(game["comments"]) else None)
        if sd:
            out.append((i + 1, game["timesMs"][i], sd[0], sd[1]))
    return out


def lost(game, engine):
    return (game["result"] == "0-1" and game["sente"] == engine) or (
        game["result"] == "1-0" and game["gote"] == engine
    )


def engine_names(games):
    """Every engine that played in `games`, sorted."""
    return sorted({g["sente"] for g in games} | {g["gote"] for g in games})


def followed_engine(games, asked=None):
    """The engine to follow: `asked`, else the first name of the games that is not HaChu."""
    names = engine_names(games)
    return asked or next((n for n in names if "hachu" not in n.lower()), names[0])


def sealed_at(moves, cp):
    """The first move from which the evaluation stays at or below -cp to the end."""
    at = moves[-1] if moves else None
    for m in reversed(moves):
        if m[2] > -cp:
            break
        at = m
    return at


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records")
    ap.add_argument("--engine")
    ap.add_argument("--bucket", type=int, default=50)
    ap.add_argument("--sealed", type=int, default=300)
    a = ap.parse_args()
    try:
        games = load(a.records)
    except OSError as e:
        print(f"{a.records}: {e.strerror}", file=sys.stderr)
        return 2
    if not games:
        print("no games", file=sys.stderr)
        return 2
    engines = engine_names(games)
    engine = followed_engine(games, a.engine)
    print(f"{len(games)} games; median ms and depth a move by plies played (n: moves)")
    print(f"{'plies':>9}" + "".join(f" | {e[:14]:>14} ms depth     n" for e in engines))
    top = max(len(g["timesMs"]) for g in games)
    for lo in range(0, top, a.bucket):
        row = f"{lo + 1:>4}-{lo + a.bucket:<4}"
        for e in engines:
            ms, depth = [], []
            for g in games:
                for ply, t, _, d in moves_of(g, e):
                    if lo < ply <= lo + a.bucket:
                        ms.append(t)
                        depth.append(d)
            if ms:
                row += f" | {statistics.median(ms):>17.0f} {statistics.median(depth):>5.1f} {len(ms):>5}"
            else:
                row += f" | {'-':>17} {'-':>5} {0:>5}"
        print(row)
    losses = [g for g in games if lost(g, engine)]
    print(f"\n{engine}: {len(losses)} games lost; where each was sealed "
          f"(its evaluation at or below -{a.sealed} from then on)")
    for g in losses:
        moves = moves_of(g, engine)
        s = sealed_at(moves, a.sealed)
        if s is None:
            print(f"game {g['game']}: no move of {engine}")
            continue
        ply, t, cp, d = s
        before = [m for m in moves if m[0] <= ply]
        last10 = before[-10:]
        clock = sum(m[1] for m in moves if m[0] < ply)
        print(
            f"game {g['game']}: {g['reason']}, {len(g['timesMs'])} plies; sealed at ply {ply} "
            f"({cp:+} cp, depth {d}, {t} ms); the 10 moves before: median "
            f"{statistics.median(m[1] for m in last10):.0f} ms, depth "
            f"{statistics.median(m[3] for m in last10):.1f}; {clock} ms spent before it"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
