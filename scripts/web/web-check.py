#!/usr/bin/env python3
"""The browser build in a real browser: lishogi's loader sequence, and the speed against
the native build.

    scripts/web/web-check.py [--speed [--ms MS]] [--no-build]

Builds target/web (scripts/web/build-web.sh) unless --no-build, installs playwright-core
(npm, no browser download) into target/web-tools, serves target/web on two free localhost
ports, one with the cross-origin isolation headers (the threads build runs) and one
without (a plain static host: the one-thread build runs), and in Debian's headless
Chromium, on each:
- runs web/test/lishogi-loader.html (lishogi's commands through the factory interface)
  and checks that the build expected runs and caps `Threads` as it should, that every
  bestmove is legal by the native engine (`shishi perft ... 1`) and that `stop`, `go
  movetime` and a `go` sent while `go infinite` runs (no `stop`) were answered; prints the
  stop latency and the answer times;
- plays a game on the play page (web/play) by clicking, each of its own moves one the page
  offers, against the engine at level -9 (1 s a move): a whole game on the isolated page, 30
  plies on the plain one; checks the game with the native engine (every move legal) and the
  move list (one item a move, numbered 1 to N: a lion's two steps in one); then
  pastes a lishogi KIF into the page and checks the moves it loaded; then plays 10 plies of
  sho on its 9 x 9 board and checks them likewise; and the study board: navigation and
  variations, the address, the engine panel, the promotion choice, the lion's two steps,
  dragging, the 420 px layout. Where Debian's firefox-esr is installed, the play page's
  checks run in headless Firefox too (puppeteer-core over WebDriver BiDi, installed into
  target/web-tools; scripts/web/browsers.js), 30 plies a build;
- runs web/test/hostile.html: issue 55's bursts replayed (a stop read ahead by the one-
  thread build, input over the threads build's 64 KiB ring, the play page's kifread of a
  653-ply game, a 2 MiB line), then a seeded fuzz of random bursts of USI commands with
  long lines (--fuzz-sessions sessions of --fuzz-bursts bursts, seed --fuzz-seed); every
  `go` must get one `bestmove`, in order, legal by the native engine in that go's position
  (`resign` only where the position was refused), every `isready` its `readyok`;
- with --speed: nodes per second from the chu start, `go movetime MS` (5000), of the
  threads build with one and two threads, of the one-thread build, and of the native
  build (USI) with one and two threads, one after the other, and their ratios.
Exits 1 on any failed check. Needs chromium (apt-get install chromium), node and npm.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHISHI = os.path.join(ROOT, "target", "release", "shishi")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def driver(url, timeout_ms=90000, width=0):
    tools = os.path.join(ROOT, "target", "web-tools")
    env = dict(os.environ, NODE_PATH=os.path.join(tools, "node_modules"))
    out = subprocess.run(["node", os.path.join(ROOT, "scripts", "web", "web-driver.js"), url,
                          str(timeout_ms), str(width)], capture_output=True, text=True, env=env,
                         timeout=timeout_ms / 1000 + 30)
    if out.returncode != 0:
        sys.exit(f"the browser run failed: {out.stderr.strip()}")
    if out.stderr.strip():
        print(out.stderr.strip(), file=sys.stderr)
    return json.loads(out.stdout)


def play_game(base, max_plies, screenshot, browser="chromium"):
    tools = os.path.join(ROOT, "target", "web-tools")
    env = dict(os.environ, NODE_PATH=os.path.join(tools, "node_modules"), SHISHI_BROWSER=browser)
    kif = os.path.join(ROOT, "tests", "data", "analyse", "lishogi-server.kif")
    out = subprocess.run(["node", os.path.join(ROOT, "scripts", "web", "web-play-test.js"), base, kif,
                          str(max_plies), os.path.join(ROOT, "target", "web", screenshot)],
                         capture_output=True, text=True, env=env, timeout=1200)
    if out.returncode != 0:
        sys.exit(f"the play page run failed ({browser}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def native_game_is_legal(moves, variant="chushogi"):
    """Whether the native engine plays every move of the game from the start."""
    out = subprocess.run([SHISHI, "perft", "--variant", variant, "--moves", " ".join(moves), "1"],
                         capture_output=True, text=True)
    return out.returncode == 0, out.stderr.strip().splitlines()[-1:] if out.returncode else ""


def legal_moves(sfen_and_moves):
    sfen, _, moves = sfen_and_moves.partition(" moves ")
    out = subprocess.run([SHISHI, "perft", "--sfen", sfen, "--moves", moves, "1"],
                         capture_output=True, text=True, check=True)
    return {line.split()[0] for line in out.stdout.splitlines() if not line.startswith("nodes")}


def native_nps(threads, ms):
    p = subprocess.Popen([SHISHI], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         stderr=subprocess.DEVNULL)
    commands = ["usi", "setoption name USI_Variant value chushogi",
                f"setoption name Threads value {threads}", "isready", "position startpos",
                f"go movetime {ms}"]
    p.stdin.write("\n".join(commands) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nps " in line:
            last = line
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=10)
    words = last.split()
    return int(words[words.index("nps") + 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--ms", type=int, default=5000)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--fuzz-seed", type=int, default=int(os.environ.get("GITHUB_RUN_NUMBER", "55")))
    ap.add_argument("--fuzz-sessions", type=int, default=3)
    ap.add_argument("--fuzz-bursts", type=int, default=8)
    ap.add_argument("--depth", type=int, default=0, metavar="SECONDS",
                    help="by hand: depth against time at lishogi's settings (threads 1, 2, 4; "
                         "16 MB hash) on the threads build, SECONDS a position")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="with --depth: an engine option sent after lishogi's (repeatable), "
                         "e.g. Tune_iir_min_depth=4")
    ap.add_argument("--only-hostile", action="store_true",
                    help="run only the hostile-input page (the fuzz by hand)")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run([os.path.join(ROOT, "scripts", "web", "build-web.sh")], check=True)
        subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                        os.path.join(ROOT, "Cargo.toml")], check=True)
    tools = os.path.join(ROOT, "target", "web-tools")
    if not os.path.isdir(os.path.join(tools, "node_modules", "playwright-core")):
        os.makedirs(tools, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--prefix", tools, "playwright-core@1"],
                       check=True)
    if firefox_available() and not os.path.isdir(os.path.join(tools, "node_modules", "puppeteer-core")):
        subprocess.run(["npm", "install", "--silent", "--prefix", tools, "puppeteer-core@24"],
                       check=True)
    servers = []
    try:
        bases = {}
        for mode, flags in (("threads", []), ("single", ["--plain"])):
            port = free_port()
            servers.append(subprocess.Popen(
                [sys.executable, os.path.join(ROOT, "scripts", "web", "serve-web.py"),
                 os.path.join(ROOT, "target", "web"), "--port", str(port)] + flags,
                stdout=subprocess.DEVNULL))
            bases[mode] = f"http://127.0.0.1:{port}"
        time.sleep(0.5)
        failures, checks = 0, 0
        if a.depth:
            measure_depth(bases["threads"], a.depth, a.set)
            return 0
        write_long_game()
        failed = check_report_width() + check_package()
        failures += failed
        checks += 2
        for mode, base in bases.items():
            if not a.only_hostile:
                failed, done = check_page(mode, base)
                failures += failed
                checks += done
            failed, done = check_hostile(mode, base, a.fuzz_seed, a.fuzz_sessions, a.fuzz_bursts)
            failures += failed
            checks += done
        if a.speed:
            measure_speed(bases, a.ms)
        print(f"browser: {checks - failures} passed, {failures} failed")
        return 1 if failures else 0
    finally:
        for server in servers:
            server.terminate()


def check_page(mode, base):
    """The loader test and a game on the play page under one build; (failures, checks)."""
    failures = 0
    r = driver(f"{base}/test/lishogi-loader.html")
    if not r.get("ok"):
        sys.exit(f"lishogi loader page ({mode}): {r.get('error')}")
    right_build = r.get("build") == mode
    failures += not right_build
    print(f"[{mode}] lishogi loader: the {r.get('build')} build runs"
          + ("" if right_build else f" (NOT the {mode} build)"))
    # The engine's thread cap: four a logical core (the page tells the module its cores),
    # one in the one-thread build.
    cap = 1 if mode == "single" else min(256, 4 * r["cores"])
    capped = (f"Threads 256: this machine has cores for {cap}; using {cap}" in r["threadsNotice"]
              if mode == "threads" else "runs on one thread" in r["threadsNotice"])
    failures += not capped
    print(f"[{mode}] lishogi loader: Threads 256 is cut to {cap} "
          + ("" if capped else f"NOT SO: {r['threadsNotice']!r}"))
    for step in r["steps"]:
        legal = legal_moves(step["sfen"])
        good = step["bestmove"] in legal
        failures += not good
        print(f"[{mode}] lishogi loader: bestmove {step['bestmove']} "
              f"{'legal' if good else 'NOT LEGAL'} in {step['sfen'][-40:]!r}"
              + (f", stop answered in {step['stopMs']:.0f} ms" if "stopMs" in step else "")
              + (f", movetime 1000 answered in {step['tookMs']:.0f} ms" if "tookMs" in step else "")
              + (f", go infinite ended by a new go (both answered in {step['replacedMs']:.0f} ms)"
                 if "replacedMs" in step else ""))
    ceval = r["ceval"]
    ceval_ok = ceval["shown"] > 0 and ceval["stale"] == 0
    failures += not ceval_ok
    print(f"[{mode}] lishogi loader: MultiPV 3 read by ceval's rules: {ceval['shown']} evaluations "
          f"shown, {ceval['stale']} with a stale or missing row" + ("" if ceval_ok else " WRONG"))
    failed, done = check_play(mode, base, "chromium", 400 if mode == "threads" else 30)
    failures += failed
    checks = 3 + len(r["steps"]) + done
    if firefox_available():
        failed, done = check_play(mode, base, "firefox", 30)
        failures += failed
        checks += done
    return failures, checks


def firefox_available():
    """Whether the page tests can run in Firefox too: Debian's firefox-esr and
    puppeteer-core (installed into target/web-tools when Firefox is there)."""
    return shutil.which("firefox-esr") is not None


def check_play(mode, base, browser, max_plies):
    """The play page under one build in one browser; (failures, checks)."""
    failures = 0
    shot = ("play.png" if mode == "threads" else "play-single.png") if browser == "chromium" \
        else f"play-{mode}-firefox.png"
    game = play_game(base, max_plies, shot, browser)
    mode = mode if browser == "chromium" else f"{mode}/firefox"
    legal, why = native_game_is_legal(game["moves"])
    failures += not legal
    print(f"[{mode}] play page: a game of {len(game['moves'])} plies clicked against the engine, "
          f"{'every move legal by the native engine' if legal else 'ILLEGAL: ' + str(why)}; "
          f"ended: {game['ended']}")
    numbered = game["listed"] == list(range(1, len(game["moves"]) + 1))
    failures += not numbered
    print(f"[{mode}] play page: the move list shows {len(game['listed'])} numbered moves"
          + ("" if numbered else f" (NOT 1 to {len(game['moves'])}: {game['listed'][:20]})"))
    expected = "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f"
    loaded = " ".join(game["loaded"]) == expected
    failures += not loaded
    print(f"[{mode}] play page: a lishogi KIF pasted and loaded, {len(game['loaded'])} moves "
          f"{'as in the file' if loaded else 'WRONG: ' + ' '.join(game['loaded'])}")
    nav = game["navigation"]
    ten = expected.split()
    checks = {
        "a loaded game opens at its start with all 10 moves listed and its result":
            nav["opened"]["ply"] == 0 and nav["opened"]["buttons"] == 10
            and "gote wins" in nav["opened"]["result"],
        "End goes to the last move, ← and ◀ back one each":
            nav["end"]["ply"] == 10 and nav["end"]["current"] is not None and nav["back"]["ply"] == 8,
        "a move from move 8 makes a variation and keeps the game":
            nav["varied"]["main"] == ten and nav["varied"]["line"] == 0
            and nav["varied"]["vars"] == [{"at": 8, "moves": [nav["other"]]}]
            and nav["varied"]["variations"] == 1,
        "a click in the list goes to that move, and the address says where":
            nav["clicked"]["line"] is None and nav["clicked"]["ply"] == 5 and "ply=5" in nav["clicked"]["hash"],
        "the variation made the main line, the old moves a variation":
            nav["promoted"]["main"] == ten[:8] + [nav["other"]]
            and nav["promoted"]["vars"] == [{"at": 8, "moves": ten[8:]}],
        "the address of move 1 opens move 1 of the same game":
            nav["reopened"]["ply"] == 1 and nav["reopened"]["main"] == ten[:8] + [nav["other"]],
    }
    touch = game["touch"]
    checks.update({
        "promotion asked in the page, naming the piece and what it becomes":
            "歩兵 → 金将" in touch["dialog"][1] and "歩兵" in touch["dialog"][2]
            and touch["promoted"] == ["6e6d+"],
        "the lion's second step explained, the piece it may take ringed, an igui played":
            "occupied" in touch["ringed"] and "Second step" in touch["hint"] and "igui" in touch["hint"]
            and touch["igui"] == ["6f6e6f"],
        "the engine panel: sente's view (☗), depth and speed, numbered moves":
            touch["panel"]["eval"].startswith("☗") and "depth" in touch["panel"]["stats"]
            and "nodes/s" in touch["panel"]["stats"] and (touch["panel"]["first"] or "").startswith("2."),
    })
    checks.update(review_checks(game["review"]))
    ph = game["phone"]
    checks.update({
        "at 420 px: the board as wide as the screen, one kanji a piece, board and status in "
        "view after Load":
            ph["board"]["left"] >= 0 and ph["wrap"]["right"] <= 420 and ph["board"]["width"] >= 360
            and ph["status"]["top"] >= -1 and ph["board"]["bottom"] <= 860
            and ph["pieceset"] == "one" and ph["kanji"] == "歩",
        "a move made by dragging the piece": ph["dragged"] == ["8i8h"],
    })
    for what, ok in checks.items():
        failures += not ok
        seen = ph if "px" in what else game["review"] if "review" in what else nav
        print(f"[{mode}] play page: {what}" + ("" if ok else f" WRONG: {seen}"))
    hostile = game["hostile"]
    pasted_ok = hostile["pasted"] == {"moves": ["7i7h"], "restarts": 0}
    failures += not pasted_ok
    print(f"[{mode}] play page: an SFEN pasted with 'quit' on its next line loads the position "
          "only, the engine runs on" + ("" if pasted_ok else f" WRONG: {hostile['pasted']}"))
    broken_ok = hostile["broken"]["moves"] == ["7i7h"] and "as it was" in hostile["broken"]["status"]
    failures += not broken_ok
    print(f"[{mode}] play page: a broken SFEN is refused, the position kept: "
          f"{hostile['broken']['status'][:90]!r}" + ("" if broken_ok else " WRONG"))
    again = hostile["restarted"]
    restart_ok = again["moves"] == ["7i7h"] and again["legal"] > 0 and "started again" in again["status"]
    failures += not restart_ok
    print(f"[{mode}] play page: an engine that ended is started again at the same position"
          + ("" if restart_ok else f" WRONG: {again}"))
    sho = game["sho"]
    sho_legal, why = native_game_is_legal(sho["moves"], "shoshogi")
    sho_ok = sho_legal and sho["squares"] == 81 and len(sho["moves"]) >= 10
    failures += not sho_ok
    print(f"[{mode}] play page: sho on a {sho['squares']}-square board, {len(sho['moves'])} plies "
          + ("every move legal by the native engine" if sho_ok else f"WRONG: {why}"))
    return failures, 7 + len(checks)


def review_checks(review):
    """The page's review of tests/data/analyse/game.kif against `shishi analyse` on the same
    file with its default search (the page's): the same result line for every ply, the marks
    in the move list and on the graph those of the results, the same figures and the same
    annotated KIF, byte for byte; then a review stopped after its first move."""
    kif = os.path.join(ROOT, "tests", "data", "analyse", "game.kif")
    with tempfile.TemporaryDirectory() as folder:
        out = subprocess.run([SHISHI, "analyse", "--input", kif, "--kif", folder],
                             capture_output=True, text=True, check=True).stdout
        with open(os.path.join(folder, "game.kif"), encoding="utf-8") as f:
            annotated = f.read()
    lines = [json.loads(l) for l in out.splitlines()]
    no_id = lambda d: {k: v for k, v in d.items() if k != "id"}
    plies = [no_id(l) for l in lines if "ply" in l]
    summary = next(no_id(l) for l in lines if "summary" in l)
    glyph = {None: "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    marks = {str(p["ply"]): glyph[p["judgement"]] for p in plies}
    stopped = review["stopped"]
    return {
        "a review gives every ply's result line as `shishi analyse` does on the same game":
            [no_id(l) for l in review["lines"]] == plies and len(plies) == 4,
        "the review's marks in the move list are the results' (?! ? ??), with lishogi's words":
            review["marks"] == marks and any(marks.values())
            and all("(" in t for t in review["markTitles"]),
        "the review's graph: a point for each ply at the engine's winning chances":
            review["graph"] == [[0, 0]] + [[i + 1, c] for i, c in enumerate(review["chances"])]
            and all(c is not None for c in review["chances"]),
        "the review's figures and annotated KIF are those of `shishi analyse`":
            no_id(review["summary"]["line"]) == summary and "\n".join(review["kif"]) + "\n" == annotated
            and "Accuracy" in review["sides"],
        "a click on the graph and on a critical moment goes to that move":
            review["graphClick"]["ply"] == 2 and review["graphClick"]["said"].startswith("2.")
            and review["criticalClick"] == review["critical"][0],
        "a review stopped after its first move says so and frees the board":
            review["busy"] and stopped["summary"]["stopped"] and 1 <= stopped["summary"]["analysed"] < 10
            and stopped["status"].startswith("Review stopped") and stopped["after"]["ply"] == 10
            and stopped["after"]["legal"] > 0,
    }


def check_package():
    """The browser package as a site vendors it: `npm pack` of target/web/pkg gives a tarball
    whose package.json names its version and license and whose files are the engine's, with
    the LICENSE and the CHANGELOG (issue 56, item 4)."""
    pkg = os.path.join(ROOT, "target", "web", "pkg")
    out = subprocess.run(["npm", "pack", "--dry-run", "--json"], cwd=pkg, capture_output=True,
                         text=True, check=True)
    packed = json.loads(out.stdout)[0]
    files = sorted(f["path"] for f in packed["files"])
    manifest = json.load(open(os.path.join(pkg, "package.json")))
    want = ["CHANGELOG.md", "LICENSE", "README.md", "package.json", "shishi-single.wasm",
            "shishi.js", "shishi.wasm", "shishi.worker.js"]
    version = re_version()
    good = (files == want and manifest.get("license") == "MIT"
            and manifest.get("version") == version == packed.get("version"))
    print(f"package: npm pack gives {packed.get('filename')} with {', '.join(files)}; "
          f"license {manifest.get('license')}, version {manifest.get('version')}"
          + ("" if good else f" WRONG (want {want}, MIT, {version})"))
    return 0 if good else 1


def re_version():
    """The crate's version (Cargo.toml), which the package carries."""
    for line in open(os.path.join(ROOT, "Cargo.toml")):
        if line.startswith("version = "):
            return line.split('"')[1]
    return None


def check_report_width():
    """An analysis report of a game whose player has a 300-letter name and one absurd move
    time (issue 55, case 10: the page was 7,952 px wide at 420 px) fits a phone's 420 px."""
    folder = os.path.join(ROOT, "target", "web", "test", "report")
    os.makedirs(folder, exist_ok=True)
    game = {"id": "wide", "variant": "chushogi", "moves": "7i7h 7d7e 7h7g 6d6e 8i8h 5d5e",
            "sente": "x" * 300, "gote": "bob",
            "timesMs": [1000, 2000, 18446744073709551615, 1500, 3000, 2500]}
    source = os.path.join(folder, "wide.jsonl")
    with open(source, "w") as f:
        f.write(json.dumps(game) + "\n")
    page = os.path.join(folder, "wide.html")
    if os.path.exists(page):
        os.remove(page)
    subprocess.run([SHISHI, "analyse", "--input", source, "--nodes", "2000", "--report", folder,
                    "--output", os.path.join(folder, "wide.analysis.jsonl")],
                   capture_output=True, check=True)
    width = driver("file://" + page, 30000, 420)["scrollWidth"]
    good = width <= 420
    print(f"report: a 300-letter name and an absurd move time at 420 px: the page is {width} px "
          f"wide" + ("" if good else " WRONG (wider than the screen)"))
    return 0 if good else 1


def write_long_game():
    """The KIF of the 653-ply game of the round-trip set, as the native engine writes it with
    a comment after each move, for the hostile page's kifread."""
    games = [json.loads(line) for line in open(os.path.join(ROOT, "tests", "data", "kif",
                                                            "roundtrip-games.jsonl"))]
    game = max(games, key=lambda g: len(g["moves"].split()))
    start = f"sfen {game['initialSfen']}" if game.get("initialSfen") else "startpos"
    out = subprocess.run([SHISHI], input=f"position {start} moves {game['moves']}\nkif\nquit\n",
                         capture_output=True, text=True, check=True).stdout
    kif = []
    for line in out.splitlines():
        if line.startswith("kif "):
            kif.append(line[4:])
            # A comment after every move, as an annotated game has: the encoded text is
            # then about 140 KB, over the threads build's 64 KiB input ring.
            if line[4:].lstrip()[:1].isdigit():
                kif.append("*この手の評価値と読み筋（テスト用の注釈）")
    with open(os.path.join(ROOT, "target", "web", "test", "long-game.kif"), "w") as f:
        f.write("\n".join(kif) + "\n")


def answers_are_right(session):
    """Whether every go of a hostile session got its one bestmove, legal in its position,
    and every isready its readyok; the first thing wrong, if not."""
    if not session["settled"]:
        return False, f"did not settle: {len(session['gos'])} go, {len(session['bestmoves'])} " \
                      f"bestmove, {session['readyok']}/{session['isready']} readyok; last lines " \
                      f"{session['lines'][-6:]}"
    if len(session["bestmoves"]) != len(session["gos"]) or session["readyok"] != session["isready"]:
        return False, f"{len(session['gos'])} go but {len(session['bestmoves'])} bestmove, " \
                      f"{session['isready']} isready but {session['readyok']} readyok"
    for i, (position, move) in enumerate(zip(session["gos"], session["bestmoves"])):
        if position is None:
            if move != "resign":
                return False, f"go {i + 1} had no position but got bestmove {move}"
        elif move not in legal_moves_cached(position[len("sfen "):]):
            return False, f"go {i + 1}: bestmove {move} is not legal in {position[-60:]!r}"
    return True, ""


_legal = {}


def legal_moves_cached(sfen_and_moves):
    if sfen_and_moves not in _legal:
        _legal[sfen_and_moves] = legal_moves(sfen_and_moves)
    return _legal[sfen_and_moves]


def check_hostile(mode, base, seed, sessions, bursts):
    """Issue 55's bursts and the fuzz under one build; (failures, checks)."""
    url = f"{base}/test/hostile.html?cases=1&fuzz={seed}&sessions={sessions}&bursts={bursts}"
    r = driver(url, timeout_ms=600000)
    if not r.get("ok"):
        sys.exit(f"hostile page ({mode}): {r.get('error')}")
    failures = 0
    for case in r["cases"]:
        good, why = answers_are_right(case)
        name = case["name"]
        if name.startswith("kifread"):
            extra = case["kifMoves"] == 653 and case["unknown"] == 0
            why = why or f"{case['kifMoves']} moves read, {case['unknown']} unknown command"
            detail = f"{case['kifMoves']} moves read from {case['encodedBytes']} bytes"
        elif name.startswith("3000"):
            extra = case["unknown"] == 0
            why = why or f"{case['unknown']} lines answered 'unknown command'"
            detail = "no line lost"
        elif name.startswith("a 2 MiB"):
            extra = case["overlong"] == 1
            why = why or f"{case['overlong']} over-long lines reported"
            detail = "skipped as one line"
        else:
            extra, detail = True, ""
        good = good and extra
        failures += not good
        print(f"[{mode}] hostile: {name}: {len(case['gos'])} go, {len(case['bestmoves'])} "
              f"bestmove{', ' + detail if detail else ''}" + ("" if good else f" WRONG: {why}"))
    lines = gos = 0
    for i, session in enumerate(r["sessions"]):
        good, why = answers_are_right(session)
        failures += not good
        lines += session["sent"]
        gos += len(session["gos"])
        if not good:
            print(f"[{mode}] fuzz session {i} (seed {seed}) WRONG: {why}")
    print(f"[{mode}] fuzz (seed {seed}): {len(r['sessions'])} sessions, {lines} lines sent, "
          f"{gos} bestmoves checked against their own go")
    return failures, len(r["cases"]) + len(r["sessions"])


def deepest_depth(depths):
    """`16 at 9.0 s`: the deepest depth of one position's {depth: {"ms": ...}}."""
    if not depths:
        return "none"
    depth = max(depths, key=int)
    return f"{depth} at {depths[depth]['ms'] / 1000:.1f} s"


def measure_depth(base, seconds, settings):
    """When each depth arrives at lishogi's settings (web/test/depth.html), and `settings`
    (NAME=VALUE options after them): per thread count, the median over the positions of the
    time of each depth's first exact line (a position short of a depth counting as later
    than any that reached it), and each position's deepest depth."""
    import math
    import statistics
    import urllib.parse
    print(f"depth against time, threads build, lishogi's settings"
          f"{' and ' + ', '.join(settings) if settings else ''}, {seconds} s a position "
          f"(median over 3 positions, a position short of a depth counting as later "
          f"than all; ms):")
    extra = "&set=" + urllib.parse.quote(",".join(settings)) if settings else ""
    table, deepest = {}, []
    for threads in (1, 2, 4):
        r = driver(f"{base}/test/depth.html?threads={threads}&seconds={seconds}{extra}",
                   timeout_ms=(seconds * 3 + 60) * 1000)
        if not r.get("ok"):
            sys.exit(f"depth page: {r.get('error')}")
        table[threads] = {}
        for depth in range(6, 30):
            # A position that did not reach the depth in time counts as later than any that
            # did: the median is a time once more than half of the positions reached it.
            median = statistics.median_high(p["depths"][str(depth)]["ms"]
                                            if str(depth) in p["depths"] else math.inf
                                            for p in r["positions"])
            if median < math.inf:
                table[threads][depth] = median
        deepest.append(f"{threads} thread(s): " + ", ".join(
            deepest_depth(p["depths"]) for p in r["positions"]))
    depths = sorted({d for t in table.values() for d in t})
    print("| depth | " + " | ".join(f"{t} thread(s)" for t in table) + " |")
    print("|---|" + "---|" * len(table))
    for d in depths:
        print(f"| {d} | " + " | ".join(f"{table[t][d] / 1000:.1f} s" if d in table[t] else "-"
                                       for t in table) + " |")
    print("deepest depth of each position, and when it came:")
    for line in deepest:
        print("  " + line)


def measure_speed(bases, ms):
    print(f"speed, chu start, go movetime {ms}:")
    native = {threads: native_nps(threads, ms) for threads in (1, 2)}
    for mode, threads in (("threads", 1), ("threads", 2), ("single", 1)):
        web = driver(f"{bases[mode]}/test/speed.html?threads={threads}&ms={ms}")["nps"]
        print(f"  {mode} build, {threads} thread(s): native {native[threads]} nps, "
              f"wasm {web} nps, native / wasm {native[threads] / max(1, web):.2f}")


if __name__ == "__main__":
    sys.exit(main())
