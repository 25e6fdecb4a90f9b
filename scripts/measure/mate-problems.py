#!/usr/bin/env python3
"""Makes mate problems from self-play records, each labelled by two independent methods.

    scripts/measure/mate-problems.py ENGINE RECORDS.jsonl... [--before 1,3,5,7,9] [--limit N]

For every game of the `shishi match` records that ended with a royal captured or a
resignation, the positions
1, 3, 5, ... plies before the end (the winner to move) are candidates. Each is labelled by
the proof-number solver (`go mate 10000`) and by the alpha-beta search (`go movetime 3000`,
whose `score mate N` is a mate it found); a problem is written only when both agree on the
mate length (`mate N`), or when the solver proves that no checking sequence wins and the
search finds no mate either (`nomate`). Output lines, for data/mate/problems.txt:

    chushogi|SFEN|mate 5|self-play FILE:LINE, 5 plies before the end

With --hard MS it makes problems the easy labelling above leaves out, for
data/mate/hard.txt: every --step-th position of each record (from ply 20) that the solver
cannot decide in 20 ms is given `go mate MS` (with --from-end N instead, every --step-th
of the positions within N plies of the game's end with the winner to move, where the
mating attacks are); a proof or disproof that
took at least --min-ms is written, a mate with its proof line in the source field (tests/mate.rs replays
it: legal, and the game ends with the attacker's win). These labels come from the solver
alone (at a long time), so they measure how it does with less time, not whether it is right.

With --construct N (and no records) it makes N attack positions instead: a gote king on one
of the first three ranks with one to three defenders beside it, two or three sente
attackers (lion, free king, dragons, rooks, golds) two to five squares away, sente's king
in a far corner (or none: a kingless attacker) and a gote pawn far away (so that the bare-king
rule does not end it at once); kept only when labelled, and only mates of 5 plies or more
and a share of the no-mates.

Standard library only.
"""

import argparse
import os
import json
import random
import sys
import time

# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine, last_mate_plies  # noqa: E402


def sfen_after(engine, initial_sfen, moves):
    """The SFEN after `moves` from `initial_sfen`, as the engine's `d` command prints it."""
    engine.send(f"position sfen {initial_sfen} moves {' '.join(moves)}")
    engine.send("d")
    return engine.until("sfen ")[-1][len("sfen "):]


def label(engine, position):
    engine.send(position)
    engine.send("go mate 10000")
    verdict = engine.until("checkmate")[-1].split()
    engine.send(position)
    engine.send("go movetime 3000")
    ab_mate = last_mate_plies(engine.until("bestmove"))
    if verdict[1] == "timeout":
        return None
    if verdict[1] == "nomate":
        return "nomate" if ab_mate is None or ab_mate < 0 else None
    plies = len(verdict) - 1
    return f"mate {plies}" if ab_mate == plies else None


def constructed(rng, kingless):
    """A random chu attack position as an SFEN (see --construct)."""
    board = [[None] * 12 for _ in range(12)]  # board[rank][file index 0 = file 12]

    def free(r, f):
        return 0 <= r < 12 and 0 <= f < 12 and board[r][f] is None

    kr, kf = rng.randrange(3), rng.randrange(12)
    board[kr][kf] = "k"
    for piece in rng.sample(["g", "s", "c", "p", "p", "e"], rng.randint(1, 3)):
        spots = [(kr + dr, kf + df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if free(kr + dr, kf + df)]
        if spots:
            r, f = rng.choice(spots)
            board[r][f] = piece
    for piece in rng.sample(["N", "Q", "D", "D", "R", "G", "G", "H"], rng.randint(2, 3)):
        for _ in range(50):
            r, f = kr + rng.randint(2, 5), kf + rng.randint(-3, 3)
            if free(r, f):
                board[r][f] = piece
                break
    if not kingless:
        for r, f in [(11, 0), (11, 11), (10, 0), (10, 11)]:
            if free(r, f) and abs(f - kf) > 4:
                board[r][f] = "K"
                break
    for r, f in [(8, 0), (8, 11), (7, 0), (7, 11)]:
        if free(r, f) and abs(f - kf) > 3:
            board[r][f] = "p"
            break
    rows = []
    for rank in board:
        row, empty = "", 0
        for cell in rank:
            if cell is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += cell
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " b - 1"


def construct(engine, count, seed):
    rng = random.Random(seed)
    made = nomates = 0
    while made < count:
        kingless = rng.random() < 0.2
        sfen = constructed(rng, kingless)
        result = label(engine, f"position sfen {sfen}")
        if result is None or (result.startswith("mate") and int(result.split()[1]) < 5):
            continue
        if result == "nomate":
            if nomates * 4 >= made:
                continue
            nomates += 1
        what = "kingless attacker" if "K" not in sfen.split()[0] else "attack"
        print(f"chushogi|{sfen}|{result}|constructed ({what}, seed {seed})", flush=True)
        made += 1


def hard(engine, paths, step, long_ms, min_ms, limit, from_end):
    """Problems that take the solver between `min_ms` and `long_ms` (see --hard)."""
    made = 0
    seen = set()
    # Near the end only the winner's turns are taken: an even step keeps to them.
    even_step = step + step % 2
    for path in paths:
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            record = json.loads(line)
            moves = record["moves"].split()
            if from_end is None:
                plies = range(20, len(moves), step)
            else:
                # The winner made the last move: it is to move an odd number of plies before
                # the end.
                plies = [len(moves) - d for d in range(from_end - (1 - from_end % 2), 0, -even_step)]
            for k in plies:
                sfen = sfen_after(engine, record["initialSfen"], moves[:k])
                if sfen in seen:
                    continue
                seen.add(sfen)
                engine.send(f"position sfen {sfen}")
                engine.send("go mate 20")
                if engine.until("checkmate")[-1] != "checkmate timeout":
                    continue
                engine.send(f"position sfen {sfen}")
                started = time.monotonic()
                engine.send(f"go mate {long_ms}")
                answer = engine.until("checkmate")[-1].split()[1:]
                ms = int((time.monotonic() - started) * 1000)
                if answer == ["timeout"] or ms < min_ms:
                    continue
                game = f"{path.rsplit('/', 1)[-1]}:{n} ply {k}"
                if answer == ["nomate"]:
                    label_text, proof = "nomate", ""
                else:
                    label_text, proof = f"mate {len(answer)}", ": " + " ".join(answer)
                variant = record.get("variant", "chushogi")
                print(f"{variant}|{sfen}|{label_text}|self-play {game}, solver {ms} ms{proof}", flush=True)
                made += 1
                if made >= limit:
                    return


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("records", nargs="*")
    parser.add_argument("--construct", type=int, default=0, help="make this many attack positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="1,3,5,7,9")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--hard", type=int, default=0, help="label hard problems with go mate MS")
    parser.add_argument("--step", type=int, default=4, help="with --hard: every STEP-th position")
    parser.add_argument("--min-ms", type=int, default=500, help="with --hard: the shortest solving time kept")
    parser.add_argument("--from-end", type=int, help="with --hard: only positions within this many plies of the end")
    args = parser.parse_args()
    before = [int(b) for b in args.before.split(",")]
    engine = Engine(args.engine)
    if args.hard:
        hard(engine, args.records, args.step, args.hard, args.min_ms, args.limit, args.from_end)
        return 0
    if args.construct:
        construct(engine, args.construct, args.seed)
        return 0
    made = 0
    seen = set()
    for path in args.records:
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            record = json.loads(line)
            # The winner made the last move of a game that ended with a royal captured, or
            # with the loser's resignation (Shishi resigns when it sees a mate against it).
            reason = record.get("reason", "")
            if reason != "royal captured" and not reason.endswith("resigned"):
                continue
            moves = record["moves"].split()
            for k in before:
                if k > len(moves):
                    continue
                prefix = moves[: len(moves) - k]
                sfen = sfen_after(engine, record["initialSfen"], prefix)
                position = f"position sfen {sfen}"
                if sfen in seen:
                    continue
                seen.add(sfen)
                result = label(engine, position)
                if result is None:
                    continue
                game = f"{path.rsplit('/', 1)[-1]}:{n}"
                print(f"{record.get('variant', 'chushogi')}|{sfen}|{result}|self-play {game}, {k} plies before the end", flush=True)
                made += 1
                if made >= args.limit:
                    return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
