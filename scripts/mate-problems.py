#!/usr/bin/env python3
"""Makes mate problems from self-play records, each labelled by two independent methods.

    scripts/mate-problems.py ENGINE RECORDS.jsonl... [--before 1,3,5,7,9] [--limit N]

For every game of the `shishi match` records that ended with a royal captured or a
resignation, the positions
1, 3, 5, ... plies before the end (the winner to move) are candidates. Each is labelled by
the proof-number solver (`go mate 10000`) and by the alpha-beta search (`go movetime 3000`,
whose `score mate N` is a mate it found); a problem is written only when both agree on the
mate length (`mate N`), or when the solver proves that no checking sequence wins and the
search finds no mate either (`nomate`). Output lines, for data/mate/problems.txt:

    chushogi|SFEN|mate 5|self-play FILE:LINE, 5 plies before the end

Standard library only.
"""

import argparse
import json
import subprocess
import sys


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.until("usiok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines


def label(engine, position):
    engine.send(position)
    engine.send("go mate 10000")
    verdict = engine.until("checkmate")[-1].split()
    engine.send(position)
    engine.send("go movetime 3000")
    infos = [l for l in engine.until("bestmove") if l.startswith("info depth")]
    ab_mate = None
    if infos:
        fields = infos[-1].split()
        if "mate" in fields:
            ab_mate = int(fields[fields.index("mate") + 1])
    if verdict[1] == "timeout":
        return None
    if verdict[1] == "nomate":
        return "nomate" if ab_mate is None or ab_mate < 0 else None
    plies = len(verdict) - 1
    return f"mate {plies}" if ab_mate == plies else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("records", nargs="+")
    parser.add_argument("--before", default="1,3,5,7,9")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    before = [int(b) for b in args.before.split(",")]
    engine = Engine(args.engine)
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
                engine.send(f"position sfen {record['initialSfen']} moves {' '.join(prefix)}")
                engine.send("d")
                sfen = engine.until("sfen ")[-1][len("sfen "):]
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
