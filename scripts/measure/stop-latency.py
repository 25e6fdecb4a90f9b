#!/usr/bin/env python3
"""Measures USI stop latency: `go infinite`, wait a random time, `stop`, time until `bestmove`.

usage: scripts/measure/stop-latency.py [RUNS] [THREADS...]      (default: 20 runs, threads 1 2)
Prints the median and the maximum per thread count. Needs a release build.
"""
import os
import random
import statistics
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.join(root, "target", "release", "shishi")
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
thread_counts = [int(t) for t in sys.argv[2:]] or [1, 2]
random.seed(1)

for threads in thread_counts:
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            if line.startswith(prefix):
                return line

    send(f"setoption name Threads value {threads}")
    send("isready")
    wait_for("readyok")
    latencies = []
    for run in range(runs):
        send("position startpos moves 8i8h 5d5e" if run % 2 else "position startpos")
        send("go infinite")
        time.sleep(random.uniform(0.2, 1.5))
        asked = time.perf_counter()
        send("stop")
        wait_for("bestmove")
        latencies.append((time.perf_counter() - asked) * 1000)
    send("quit")
    engine.wait()
    print(f"threads {threads}: {runs} stops, median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms")
