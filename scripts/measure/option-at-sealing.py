#!/usr/bin/env python3
"""What a search option changes where lost games were decided: at the engine's moves just
before each lost game was sealed, the move its search picks with and without the option, and
a deeper search's judgement of the two where they differ.

    scripts/measure/option-at-sealing.py RECORDS.jsonl SHISHI NAME=VALUE [--engine NAME]
        [--plies 20] [--sealed CP] [--judge-depth 7] [--baseline VALUE] [--nodes-per-ms K]

RECORDS is a `shishi match --jsonl` file (a match against HaChu, say), SHISHI a binary that
has the option (`Tune_qs_delta_bound=1`). For every game the engine lost (`--engine`,
default the first name that is not HaChu), sealed as `clock-profile.py` finds it (its own
evaluation at or below -CP from then on), each of its moves in the `--plies` plies up to
the sealing move is searched again to the depth the game's move reached (from the record's
comments; with `--nodes-per-ms`, to K nodes a millisecond the game's move took, so that an
option that makes each depth dearer is measured at the game's budget), one thread, 16 MB,
a fresh hash: once with the option at `--baseline` (default 0, which is off for every
`Tune_` switch) and once at VALUE. Where the two moves differ, each is searched to
`--judge-depth` on its own (`searchmoves`) at the baseline, and the one scoring more than
20 centipawns higher is counted the better. The replay is not the game: the game's search
had a hash full of the moves before, so its move may differ from both. It shows where an
option changes a decision, not whether it gains: moves of lost games lean to the better
under any change, and an option that won 8 of 9 here lost 51 Elo in its SPRT
(docs/tuning.md). Only an SPRT decides.
Prints one line per differing position and a summary; exit code 0, 1 for a record line
that is not JSON (named with its line number), 2 for a record it cannot open, a binary it
cannot start or an option not given as NAME=VALUE.
"""
import argparse
import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, str(HERE.parent))
from usi_client import Engine, last_score  # noqa: E402

_spec = importlib.util.spec_from_file_location("clock_profile", HERE / "clock-profile.py")
clock_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(clock_profile)

MATE = 30000


def search(engine, position, limit, option, value, searchmoves=None):
    """(best move, centipawns) of a fresh search to `limit` (`depth 4`, `nodes 9000`) with
    `option` at `value`."""
    engine.send(f"setoption name {option} value {value}")
    engine.send("usinewgame")
    engine.send("isready")
    engine.until("readyok")
    engine.send(position)
    engine.send(f"go {limit}" + (f" searchmoves {searchmoves}" if searchmoves else ""))
    lines = engine.until("bestmove")
    return lines[-1].split()[1], last_score(lines, MATE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records")
    ap.add_argument("shishi")
    ap.add_argument("option", help="NAME=VALUE, e.g. Tune_qs_delta_bound=1")
    ap.add_argument("--engine")
    ap.add_argument("--plies", type=int, default=20)
    ap.add_argument("--sealed", type=int, default=300)
    ap.add_argument("--judge-depth", type=int, default=7)
    ap.add_argument("--baseline", default="0")
    ap.add_argument("--nodes-per-ms", type=int)
    a = ap.parse_args()
    name, _, value = a.option.partition("=")
    if not value:
        print(f"{a.option}: give the option as NAME=VALUE", file=sys.stderr)
        return 2
    try:
        games = clock_profile.load(a.records)
        engine = Engine(a.shishi, {"Threads": 1, "Hash": 16})
    except OSError as e:
        print(f"{e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    me = clock_profile.followed_engine(games, a.engine)
    positions = differ = 0
    better = {"option": 0, "default": 0, "even": 0}
    gain = 0
    for g in games:
        if not clock_profile.lost(g, me):
            continue
        moves = clock_profile.moves_of(g, me)
        sealed = clock_profile.sealed_at(moves, a.sealed)
        if sealed is None:
            continue
        played = g["moves"].split()
        for ply, ms, _, depth in moves:
            if not sealed[0] - a.plies <= ply <= sealed[0]:
                continue
            position = f"position sfen {g['initialSfen']} moves {' '.join(played[:ply - 1])}"
            limit = (f"nodes {max(ms, 1) * a.nodes_per_ms}" if a.nodes_per_ms
                     else f"depth {depth}")
            plain, _ = search(engine, position, limit, name, a.baseline)
            with_option, _ = search(engine, position, limit, name, value)
            positions += 1
            if plain == with_option:
                continue
            differ += 1
            judge = f"depth {a.judge_depth}"
            _, plain_cp = search(engine, position, judge, name, a.baseline, plain)
            _, option_cp = search(engine, position, judge, name, a.baseline, with_option)
            gain += option_cp - plain_cp
            verdict = ("option" if option_cp > plain_cp + 20
                       else "default" if plain_cp > option_cp + 20 else "even")
            better[verdict] += 1
            print(f"game {g['game']} ply {ply} {limit}: without {plain} ({plain_cp:+}), "
                  f"with {with_option} ({option_cp:+}), played {played[ply - 1]}", flush=True)
    engine.close()
    print(f"{positions} positions of {me}'s lost games, {differ} with another move; depth "
          f"{a.judge_depth} judges the option's move better in {better['option']}, worse in "
          f"{better['default']}, within 20 cp in {better['even']}; sum of the differences "
          f"{gain:+} cp")
    return 0


if __name__ == "__main__":
    sys.exit(main())
