#!/usr/bin/env python3
"""Label training positions with a stronger engine's judgement, for `shishi tune fit`.

    scripts/measure/label.py ENGINE POSITIONS OUT [--option NAME=VALUE ...] [--depth N | --nodes N]
                     [--weight-of-result W] [--concurrency N] [--limit N]

POSITIONS holds training lines `RESULT VARIANT SFEN` (`shishi tune extract`). Each position
is searched by ENGINE (any USI engine; for Fairy-Stockfish in sho: `--option
USI_Variant=shoshogi`) to a fixed depth or node count, and its score turned into sente's
expected score by a logistic curve whose slope is fitted to the games' results (the
engine's own scale: printed with the errors on stderr). Each line of OUT is
`TARGET VARIANT SFEN` with TARGET = W * result + (1 - W) * expected score, so that a fit on
OUT follows the engine where the game's result says little about one position (W = 1:
the results alone; 0: the engine alone). OUT must not exist: nothing is overwritten.

A position the engine gives no score (no legal move, or an SFEN it refuses) is left out
and counted. Standard library only.
"""

import argparse
import math
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine, last_score  # noqa: E402

# A mate score stands for this many centipawns: far enough that the curve says won.
MATE_CP = 3000


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine", help="path of a USI engine")
    ap.add_argument("positions", help="training lines: RESULT VARIANT SFEN")
    ap.add_argument("out", help="file to write (must not exist)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a USI option for the engine (repeatable)")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, default=8,
                       help="search depth a position (default 8)")
    limit.add_argument("--nodes", type=int, help="nodes a position")
    ap.add_argument("--weight-of-result", type=float, default=0.5, metavar="W",
                    help="share of the game's result in the target, 0 to 1 (default 0.5)")
    ap.add_argument("--concurrency", type=int, default=1, help="engines at once")
    ap.add_argument("--limit", type=int, help="label only the first N positions")
    args = ap.parse_args()
    if not 0.0 <= args.weight_of_result <= 1.0:
        ap.error("--weight-of-result must be from 0 to 1")
    if args.concurrency < 1:
        ap.error("--concurrency must be 1 or more")
    if os.path.exists(args.out):
        ap.error(f"{args.out} exists; give a new file")
    for option in args.option:
        if "=" not in option:
            ap.error(f"--option {option}: expected NAME=VALUE")
    return args


def read_positions(path, limit):
    """(result, variant, sfen) of every training line; an error names the line."""
    positions = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(" ", 2)
            try:
                result = float(parts[0])
            except ValueError:
                result = math.nan
            if len(parts) < 3 or not 0.0 <= result <= 1.0:
                sys.exit(f"{path}:{number}: expected RESULT VARIANT SFEN, RESULT from 0 to 1")
            positions.append((result, parts[1], parts[2]))
            if limit is not None and len(positions) >= limit:
                break
    return positions


PROGRESS_EVERY = 5000
progress_lock = threading.Lock()
positions_done = 0


def report_progress(total):
    """Counts a labelled position; every PROGRESS_EVERY of them a line on stderr."""
    global positions_done
    with progress_lock:
        positions_done += 1
        if positions_done % PROGRESS_EVERY == 0:
            print(f"{positions_done} of {total} positions", file=sys.stderr, flush=True)


def label_part(args, part, scores):
    """Scores (sente's view) of the positions `part` (indices), by one engine process."""
    options = dict(option.split("=", 1) for option in args.option)
    engine = Engine(args.engine, options)
    go = f"go nodes {args.nodes}" if args.nodes else f"go depth {args.depth}"
    try:
        for index, (_, _, sfen) in part:
            engine.send(f"position sfen {sfen}")
            engine.send(go)
            score = last_score(engine.until("bestmove"), MATE_CP)
            if score is not None and sfen.split()[1] == "w":
                score = -score
            scores[index] = score
            report_progress(len(scores))
    finally:
        engine.close()


def expected(cp, slope):
    return 1.0 / (1.0 + 10.0 ** (-slope * cp / 400.0))


def mean_error(pairs, slope):
    return sum((r - expected(cp, slope)) ** 2 for r, cp in pairs) / len(pairs)


# The slopes searched: 0.01 makes every score near a coin toss, 10 makes 100 centipawns a
# near-certain win. A real engine on thousands of positions lands far inside (Fairy-Stockfish:
# 0.462 on 80,145 sho positions).
SLOPE_BOUNDS = (0.01, 10.0)


def fit_slope(pairs):
    """The slope of the logistic curve that best predicts the results from the scores
    (golden-section search: the error has one minimum in the slope)."""
    low, high = SLOPE_BOUNDS
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if mean_error(pairs, a) < mean_error(pairs, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def warn_if_slope_at_bound(slope):
    """A slope at a bound is no fit: the results follow the scores' sign perfectly (or not at
    all), as on a few positions of one game; its expected scores are then all near 0 and 1
    (or all near a half), not the engine's judgement."""
    low, high = SLOPE_BOUNDS
    if slope < low * 1.01 or slope > high * 0.99:
        print(f"warning: the slope stopped at its bound ({slope:.3f}, searched from {low} to "
              f"{high}): the scores predict these results perfectly or not at all, so the "
              "expected scores are not fitted; label more positions from more games",
              file=sys.stderr)


def main():
    args = parse_args()
    positions = read_positions(args.positions, args.limit)
    if not positions:
        sys.exit(f"{args.positions}: no training lines")
    scores = [None] * len(positions)
    indexed = list(enumerate(positions))
    parts = [indexed[i::args.concurrency] for i in range(args.concurrency)]
    failures = []

    def run(part):
        try:
            label_part(args, part, scores)
        except Exception as e:  # an engine that ends or cannot start: say so, write nothing
            failures.append(e)

    threads = [threading.Thread(target=run, args=(part,)) for part in parts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"{args.engine}: {failures[0]}")
    scored = [(p, s) for p, s in zip(positions, scores) if s is not None]
    if not scored:
        sys.exit("the engine gave no score to any position")
    pairs = [(result, cp) for (result, _, _), cp in scored]
    slope = fit_slope(pairs)
    warn_if_slope_at_bound(slope)
    w = args.weight_of_result
    with open(args.out, "x") as out:
        for (result, variant, sfen), cp in scored:
            target = w * result + (1 - w) * expected(cp, slope)
            out.write(f"{target:.4f} {variant} {sfen}\n")
    print(f"{len(scored)} positions labelled, {len(positions) - len(scored)} left out "
          f"(no score); slope {slope:.3f}; the engine's error against the results "
          f"{mean_error(pairs, slope):.5f}, a coin's {mean_error(pairs, 0.0):.5f}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
