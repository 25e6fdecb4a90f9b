"""A USI engine process spoken to line by line: the one helper the scripts share.

    from usi_client import Engine
    engine = Engine("target/release/shishi", {"USI_Hash": 64})
    engine.send("position startpos")
    lines = engine.until("bestmove")   # every line up to and including the first bestmove

Standard library only. The scripts import it from their own folder.
"""

import subprocess


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
