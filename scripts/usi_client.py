"""A USI engine process spoken to line by line: the one helper the scripts share.

    from usi_client import Engine, last_score
    engine = Engine("target/release/shishi", {"USI_Hash": 64})
    engine.send("position startpos")
    engine.send("go depth 6")
    lines = engine.until("bestmove")   # every line up to and including the first bestmove
    score = last_score(lines, mate_cp=30000)   # the search's last score, side to move

Standard library only. The scripts import it from their own folder.
"""

import subprocess


def last_score(lines, mate_cp):
    """The last `score` of a search's `info` lines (an `info string` is text, not a
    score), in centipawns for the side to move, or None if no line has one.

    A mate counts as `mate_cp` won or `-mate_cp` lost. `mate -N` and `mate 0` are lost
    (the side to move is mated, as Shishi and Stockfish print it at a game's end);
    `mate N`, `mate +` and `mate +0` won (Shishi's `+0`: the side that just moved lost by
    perpetual attack).
    """
    score = None
    for line in lines:
        words = line.split()
        if words[:1] != ["info"] or words[1:2] == ["string"] or "score" not in words:
            continue
        at = words.index("score")
        kind, value = (words[at + 1:at + 3] + ["", ""])[:2]
        if kind == "cp" and value.lstrip("+-").isdigit():
            score = int(value)
        elif kind == "mate" and (value in ("+", "-") or value.lstrip("+-").isdigit()):
            # USI lets an engine that does not know the distance say `mate +` or `mate -`.
            won = not value.startswith("-") and value != "0"
            score = mate_cp if won else -mate_cp
    return score


def last_mate_plies(lines):
    """The mate distance of a search's last `info depth` line, in plies (negative: the
    side to move is mated), or None if that line gives no mate distance.

    Only the last iteration counts: a mate an earlier depth saw and a deeper one refuted
    is no mate.
    """
    infos = [line.split() for line in lines if line.startswith("info depth")]
    if not infos or "mate" not in infos[-1]:
        return None
    words = infos[-1]
    value = (words[words.index("mate") + 1 :] + [""])[0]
    # `mate +` / `mate -` (distance unknown) give no distance.
    return int(value) if value.lstrip("+-").isdigit() else None


class EngineEnded(RuntimeError):
    """The engine closed its output while a line was awaited."""


class Engine:
    """A USI engine started with `usi`, the given options and `isready`."""

    def __init__(self, path, options=None):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("usi")
        self.until("usiok")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EngineEnded(f"the engine ended while waiting for '{prefix}'")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
