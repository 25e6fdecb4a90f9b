#!/usr/bin/env python3
"""SPSA tuning of the search constants by self-play (run by hand: hours of CPU).

Each iteration perturbs every tuned constant by +c or -c at random (one sign vector for
all), plays game pairs (one opening, colours swapped) between the engine with theta + c*delta
and the engine with theta - c*delta through `shishi match`, and moves theta along delta by
the result. The schedule is the usual one (Spall; as fishtest uses it): c_k = c / k^0.101,
a_k = a / (A + k)^0.602 with A a tenth of the iterations, c and a chosen so that the last
iteration perturbs by c_end and steps by r_end * c_end^2 per game point.

The constants, their defaults and ranges come from `ENGINE tune search-params`; the engine
takes them as `setoption name Tune_NAME value N`. Results go to OUT_DIR (a new folder):
the run's settings in settings.json, one line per iteration in spsa.log, the final values
in result.txt (NAME VALUE), to be written into src/search/params.rs and kept only if an
SPRT against the defaults passes. A run outlives a session: `--resume` carries on the run
in OUT_DIR after its last logged iteration, with the settings and random draws it began
with (a game pair cut short is played again).

  scripts/measure/spsa.py ENGINE OUT_DIR [--iterations 2000] [--pairs 1] [--concurrency 2]
                  [--tc 1+0.02 | --nodes N] [--params name,name,...] [--seed 1]
                  [--variant chushogi|shoshogi]
  scripts/measure/spsa.py ENGINE OUT_DIR --resume

--variant tunes the constants for one variant: its games, its opening book (unless
--openings names another) and its own values as the start (`tune search-params
--variant`); the result goes to that variant's search_values (src/variant/<variant>.rs).
"""
import argparse
import json
import os
import random
import subprocess
import sys


def search_params(engine, variant):
    """(name, default, min, max) of every constant the engine lists for `variant`."""
    out = subprocess.run([engine, "tune", "search-params", "--variant", variant], check=True,
                         capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        name, default, lo, hi = line.split()
        rows.append((name, int(default), int(lo), int(hi)))
    return rows


def openings(path):
    with open(path, encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def play(engine, plus, minus, opening, args, work):
    """Game points of `plus` minus those of `minus` over args.pairs pairs."""
    book = os.path.join(work, "opening.txt")
    record = os.path.join(work, "games.jsonl")
    with open(book, "w", encoding="utf-8") as f:
        f.write(opening + "\n")
    if os.path.exists(record):
        os.remove(record)

    def spec(name, values):
        options = "".join(f",option.Tune_{n}={v}" for n, v in values.items())
        return f"cmd={engine},name={name}{options}"

    limit = ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]
    subprocess.run([engine, "match", "--variant", args.variant, "--engine", spec("plus", plus), "--engine",
                    spec("minus", minus), "--games", str(2 * args.pairs), "--concurrency",
                    str(args.concurrency), *limit, "--openings", book, "--repeat",
                    "--jsonl", record], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    score = 0.0
    with open(record, encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            plus_side = 0 if g["sente"] == "plus" else 1
            if g["result"] == "1/2-1/2":
                continue
            winner = 0 if g["result"] == "1-0" else 1
            score += 1.0 if winner == plus_side else -1.0
    return score


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("engine")
    p.add_argument("out_dir")
    p.add_argument("--resume", action="store_true",
                   help="carry on the run in OUT_DIR with its own settings (settings.json)")
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--tc", default="1+0.02")
    p.add_argument("--nodes", type=int, default=0,
                   help="fixed nodes per move instead of --tc (results then do not depend "
                        "on the machine's load)")
    p.add_argument("--params", default="", help="comma-separated names (default: all)")
    p.add_argument("--r-end", type=float, default=0.002)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", default="chushogi", choices=["chushogi", "shoshogi"])
    p.add_argument("--openings", help="opening book (default: the variant's, data/openings/)")
    args = p.parse_args()
    if args.openings is None:
        args.openings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
                                     "openings", f"{args.variant}.txt")
    return args


# The settings that define a run: a resumed run takes them from OUT_DIR/settings.json, so
# that it continues the same schedule with the same random draws.
RUN_SETTINGS = ("iterations", "pairs", "concurrency", "tc", "nodes", "r_end", "seed", "variant")


def start(args, engine):
    """A new run: OUT_DIR must not exist; returns (settings, rows)."""
    if os.path.exists(args.out_dir):
        sys.exit(f"spsa.py: {args.out_dir} exists; give a new folder (or --resume)")
    rows = search_params(engine, args.variant)
    wanted = [n for n in args.params.split(",") if n]
    unknown = set(wanted) - {r[0] for r in rows}
    if unknown:
        sys.exit(f"spsa.py: unknown parameters {sorted(unknown)}")
    rows = [r for r in rows if not wanted or r[0] in wanted]
    settings = {key: getattr(args, key) for key in RUN_SETTINGS}
    settings["openings"] = openings(args.openings)
    settings["params"] = [list(r) for r in rows]
    os.makedirs(args.out_dir)
    with open(os.path.join(args.out_dir, "settings.json"), "w", encoding="utf-8") as f:
        json.dump(settings, f, indent=1)
        f.write("\n")
    return settings, rows


def resume(args, engine):
    """Reads OUT_DIR's settings and log; returns (settings, rows, done, theta)."""
    path = os.path.join(args.out_dir, "settings.json")
    if not os.path.exists(path):
        sys.exit(f"spsa.py: {path} is missing: not a run this script can resume")
    with open(path, encoding="utf-8") as f:
        settings = json.load(f)
    settings.setdefault("variant", "chushogi")  # a run begun before --variant existed
    rows = [tuple(r) for r in settings["params"]]
    listed = {r[0]: r for r in search_params(engine, settings["variant"])}
    for name, default, lo, hi in rows:
        if name not in listed or listed[name][2:] != (lo, hi):
            sys.exit(f"spsa.py: the engine's parameter {name} is not the run's "
                     f"(default {default}, range {lo}..{hi})")
    done, theta = 0, {name: float(default) for name, default, _, _ in rows}
    log = os.path.join(args.out_dir, "spsa.log")
    if os.path.exists(log):
        with open(log, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                try:
                    entry = json.loads(line)
                    if entry["iteration"] != done + 1 or set(entry["theta"]) != set(theta):
                        raise ValueError("not the next iteration of this run")
                except (ValueError, KeyError, TypeError) as e:
                    sys.exit(f"spsa.py: {log} line {number}: {e}; nothing was changed")
                done, theta = entry["iteration"], {k: float(v) for k, v in entry["theta"].items()}
    return settings, rows, done, theta


def draw(rng, names, book):
    """One iteration's random draws: a sign per constant, then an opening."""
    delta = {name: rng.choice((-1, 1)) for name in names}
    return delta, rng.choice(book)


def main():
    args = parse_args()
    engine = os.path.abspath(args.engine)
    if args.resume:
        settings, rows, done, theta = resume(args, engine)
    else:
        (settings, rows), done = start(args, engine), 0
        theta = {name: float(default) for name, default, _, _ in rows}
    for key in RUN_SETTINGS:
        setattr(args, key, settings[key])
    book = settings["openings"]
    rng = random.Random(args.seed)
    for _ in range(done):
        draw(rng, theta, book)
    n = args.iterations
    big_a = 0.1 * n
    bounds = {name: (lo, hi) for name, _, lo, hi in rows}
    c_end = {name: max(1.0, (hi - lo) / 20.0) for name, _, lo, hi in rows}
    c0 = {name: c_end[name] * n ** 0.101 for name in theta}
    a0 = {name: args.r_end * c_end[name] ** 2 * (big_a + n) ** 0.602 for name in theta}
    log = open(os.path.join(args.out_dir, "spsa.log"), "a", encoding="utf-8")
    for k in range(done + 1, n + 1):
        delta, opening = draw(rng, theta, book)
        plus, minus = {}, {}
        for name, value in theta.items():
            lo, hi = bounds[name]
            c = c0[name] / k ** 0.101
            plus[name] = int(round(min(hi, max(lo, value + c * delta[name]))))
            minus[name] = int(round(min(hi, max(lo, value - c * delta[name]))))
        result = play(engine, plus, minus, opening, args, args.out_dir)
        for name in theta:
            lo, hi = bounds[name]
            c = c0[name] / k ** 0.101
            a = a0[name] / (big_a + k) ** 0.602
            theta[name] = min(hi, max(lo, theta[name] + a / c * result * delta[name]))
        log.write(json.dumps({"iteration": k, "result": result,
                              "theta": {n_: round(v, 4) for n_, v in theta.items()}}) + "\n")
        log.flush()
    with open(os.path.join(args.out_dir, "result.txt"), "w", encoding="utf-8") as f:
        for name, value in theta.items():
            f.write(f"{name} {int(round(value))}\n")
    print(open(os.path.join(args.out_dir, "result.txt"), encoding="utf-8").read(), end="")


if __name__ == "__main__":
    main()
