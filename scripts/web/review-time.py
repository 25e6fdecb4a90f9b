#!/usr/bin/env python3
"""A game's review in the play page against `shishi analyse` on the same machine: the
seconds each takes on the same KIF at the default search (200000 nodes a position, one
thread), the page in headless Chromium under both builds (threads and one-thread), and
whether their figures agree. Run by hand on a quiet machine after scripts/web/build-web.sh
and cargo build --release (see README, "In the browser").

usage: scripts/web/review-time.py KIF [--shot docs/web-review-1400.png]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHISHI = os.path.join(ROOT, "target", "release", "shishi")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kif")
    ap.add_argument("--shot", help="a screenshot of the threads build's page at 1400 px")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        start = time.monotonic()
        out = subprocess.run([SHISHI, "analyse", "--input", a.kif, "--output",
                              os.path.join(folder, "r.jsonl")], capture_output=True, text=True)
        cli_seconds = time.monotonic() - start
        if out.returncode != 0:
            sys.exit(f"shishi analyse failed: {out.stderr.strip()}")
        with open(os.path.join(folder, "r.jsonl"), encoding="utf-8") as f:
            lines = [json.loads(l) for l in f]
    summary = next(l["summary"] for l in lines if "summary" in l)
    plies = sum(1 for l in lines if "ply" in l)
    print(f"shishi analyse: {plies} plies in {cli_seconds:.1f} s")
    env = dict(os.environ, NODE_PATH=os.path.join(ROOT, "target", "web-tools", "node_modules"))
    for mode, flags in (("threads", []), ("single", ["--plain"])):
        port = free_port()
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts", "web", "serve-web.py"),
                                   os.path.join(ROOT, "target", "web"), "--port", str(port)] + flags,
                                  stdout=subprocess.DEVNULL)
        try:
            time.sleep(0.5)
            shot = [a.shot, "1400"] if a.shot and mode == "threads" else []
            run = subprocess.run(["node", os.path.join(ROOT, "scripts", "web", "review-page.js"),
                                  f"http://127.0.0.1:{port}", a.kif] + shot,
                                 capture_output=True, text=True, env=env, timeout=3600)
        finally:
            server.terminate()
        if run.returncode != 0:
            sys.exit(f"the page's review failed ({mode}): {run.stderr.strip()}")
        page = json.loads(run.stdout)
        sente, gote = summary["sente"], summary["gote"]
        agree = (f"{sente['accuracy']:.1f}%" in page["sides"] and f"{gote['accuracy']:.1f}%" in page["sides"])
        print(f"page ({mode} build): {page['plies']} plies in {page['seconds']:.1f} s "
              f"({page['seconds'] / cli_seconds:.2f} times the command line); accuracy "
              f"{'as' if agree else 'NOT as'} the command line's ({sente['accuracy']}%, {gote['accuracy']}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
