#!/usr/bin/env python3
"""A small fake of lishogi's bot API: enough of it for Lishogi-Bot to play one chu game.

`scripts/peers/lishogi-bot-check.sh` runs the real Lishogi-Bot against it. The server offers one
challenge on the event stream, starts the game when the bot accepts it, streams the game
(NDJSON, chunked, with empty keep-alive lines as lishogi sends them), takes the bot's moves by
POST, keeps both clocks (main time then byoyomi, lishogi's way) and plays the other side with a
scripted opponent: a second Shishi at a low `Skill_Level` and a fixed movetime. A Shishi process
in USI mode is the arbiter: it refuses an illegal move and names the rule that ends the game.

Standard library only. At the end it prints a report (moves, the bot's think times, the result)
and writes it as JSON with `--report`.

Endpoints (as Lishogi-Bot calls them): GET /api/account, GET /api/account/playing,
GET /api/stream/event, POST /api/challenge/{id}/accept|decline, GET /api/bot/game/stream/{id},
POST /api/bot/game/{id}/move/{move}, POST /api/bot/game/{id}/chat|abort|resign.
"""

import argparse
import json
import os
import re
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# usi_client.py is shared by the script folders: it lives in scripts/.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from usi_client import Engine  # noqa: E402

GAME_ID = "chuGame1"
CHALLENGE_ID = "chuChal1"
BOT_NAME = "ShishiBot"
OPPONENT_NAME = "Scripted"
KEEPALIVE_SECONDS = 5.0


class Arbiter:
    """Shishi as the rules: is a move list legal, and does it end the game?"""

    def __init__(self, engine):
        self.usi = Engine(engine, {"USI_Variant": "chushogi", "USI_Hash": 1})

    def judge(self, moves):
        """(None, None) while the game goes on; ("illegal", message) for a refused move list;
        ("over", (winner, reason)) at the end, winner "sente", "gote" or None for a draw."""
        self.usi.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.usi.send("go depth 1")
        lines = self.usi.until("bestmove")
        for line in lines:
            if line.startswith("info string error: position rejected"):
                return "illegal", line[len("info string error: ") :]
        reason = next(
            (m.group(1) for m in map(re.compile(r"info string the game is over \((.*)\)").match, lines) if m),
            None,
        )
        if reason is None:
            return None, None
        to_move = "sente" if len(moves) % 2 == 0 else "gote"
        other = "gote" if to_move == "sente" else "sente"
        score = next(l for l in lines if l.startswith("info depth 0 score"))
        winner = None if score.endswith("cp 0") else to_move if score.endswith("mate +0") else other
        return "over", (winner, reason)


class Game:
    """One game: moves, clocks, status, and what the report needs."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Condition()
        self.moves = []
        self.bot_color = args.bot_color
        self.main_ms = {"sente": args.base * 1000, "gote": args.base * 1000}
        self.byo_ms = args.byoyomi * 1000
        self.turn_started = None
        self.status = "created"
        self.winner = None
        self.reason = ""
        self.bot_think_ms = []
        self.refused = []
        self.chat = []
        self.version = 0
        self.accepted = False

    def side_to_move(self):
        return "sente" if len(self.moves) % 2 == 0 else "gote"

    def state(self):
        return {
            "type": "gameState",
            "moves": " ".join(self.moves),
            "btime": max(0, int(self.main_ms["sente"])),
            "wtime": max(0, int(self.main_ms["gote"])),
            "binc": 0,
            "winc": 0,
            "byo": self.byo_ms,
            "status": self.status,
            **({"winner": self.winner} if self.winner else {}),
        }

    def full(self):
        bot = {"id": BOT_NAME.lower(), "name": BOT_NAME, "title": "BOT", "rating": 1500}
        opponent = {"id": OPPONENT_NAME.lower(), "name": OPPONENT_NAME, "rating": 1500}
        sente, gote = (bot, opponent) if self.bot_color == "sente" else (opponent, bot)
        return {
            "type": "gameFull",
            "id": GAME_ID,
            "variant": {"key": "chushogi", "name": "Chushogi", "short": "Chu"},
            "clock": {"initial": self.args.base * 1000, "increment": 0, "byoyomi": self.byo_ms, "periods": 1},
            "speed": "rapid",
            "perf": {"name": "Chushogi"},
            "rated": False,
            "createdAt": int(time.time() * 1000),
            "sente": sente,
            "gote": gote,
            "initialSfen": "startpos",
            "state": self.state(),
        }

    def start(self):
        with self.lock:
            self.status = "started"
            self.turn_started = time.monotonic()
            self.version += 1
            self.lock.notify_all()

    def finish(self, winner, status, reason):
        """Ends the game (the lock is held)."""
        if self.status not in ("created", "started"):
            return
        self.status, self.winner, self.reason = status, winner, reason
        self.version += 1
        self.lock.notify_all()

    def spend_clock(self, side, elapsed_ms):
        """Charges a move's time; False when the side overstepped its clock."""
        main = self.main_ms[side]
        if main >= elapsed_ms:
            self.main_ms[side] = main - elapsed_ms
            return True
        over = elapsed_ms - max(main, 0)
        self.main_ms[side] = 0
        return over <= self.byo_ms + self.args.lag_ms

    def play(self, side, move, arbiter):
        """A move of `side`; returns an error message or None."""
        with self.lock:
            if self.status != "started":
                return "the game is not being played"
            if side != self.side_to_move():
                return "not your turn"
            elapsed = (time.monotonic() - self.turn_started) * 1000
            verdict, detail = arbiter.judge(self.moves + [move])
            if verdict == "illegal":
                self.refused.append({"ply": len(self.moves) + 1, "move": move, "why": detail})
                return f"illegal move {move}: {detail}"
            if side == self.bot_color:
                self.bot_think_ms.append(round(elapsed))
            on_time = self.spend_clock(side, elapsed)
            self.moves.append(move)
            self.turn_started = time.monotonic()
            self.version += 1
            self.lock.notify_all()
            if not on_time:
                other = "gote" if side == "sente" else "sente"
                self.finish(other, "outoftime", f"{side} overstepped its clock ({elapsed:.0f} ms)")
            elif verdict == "over":
                winner, reason = detail
                self.finish(winner, "draw" if winner is None else "mate", reason)
            elif len(self.moves) >= self.args.max_plies:
                self.finish(None, "draw", f"the fake server's {self.args.max_plies}-ply limit")
            return None

    def check_flag(self):
        """Ends the game when the side to move has run out of time while thinking."""
        with self.lock:
            if self.status != "started":
                return
            side = self.side_to_move()
            elapsed = (time.monotonic() - self.turn_started) * 1000
            allowed = max(self.main_ms[side], 0) + self.byo_ms + self.args.lag_ms
            if elapsed > allowed + 1000:
                other = "gote" if side == "sente" else "sente"
                self.finish(other, "outoftime", f"{side} did not move within its clock")


def opponent_loop(game, engine, level, movetime_ms, arbiter):
    """The scripted side: a Shishi at `level`, `movetime_ms` per move."""
    usi = Engine(engine, {"USI_Variant": "chushogi", "Skill_Level": level, "USI_Hash": 16})
    usi.send("usinewgame")
    opponent = "gote" if game.bot_color == "sente" else "sente"
    while True:
        with game.lock:
            while game.status in ("created", "started") and not (
                game.status == "started" and game.side_to_move() == opponent
            ):
                game.lock.wait(0.2)
                game.check_flag()
            if game.status not in ("created", "started"):
                break
            moves = list(game.moves)
        usi.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        usi.send(f"go movetime {movetime_ms}")
        best = usi.until("bestmove")[-1].split()[1]
        error = game.play(opponent, best, arbiter)
        if error:
            with game.lock:
                game.finish(game.bot_color, "resign", f"the scripted opponent failed: {error}")
            break
    usi.close()


class Handler(BaseHTTPRequestHandler):
    """lishogi's bot API, the part Lishogi-Bot uses."""

    protocol_version = "HTTP/1.1"
    server_version = "fake-lishogi/1"

    def log_message(self, fmt, *args):
        if self.server.args.verbose:
            sys.stderr.write("fake-lishogi: " + (fmt % args) + "\n")

    def authorised(self):
        if self.headers.get("Authorization") == f"Bearer {self.server.args.token}":
            return True
        self.send_json({"error": "No such token"}, 401)
        return False

    def send_json(self, body, status=200):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def stream_line(self, body):
        """One NDJSON line as one chunk (None: an empty keep-alive line)."""
        data = (json.dumps(body) if body is not None else "").encode() + b"\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def end_stream(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def do_GET(self):
        if not self.authorised():
            return
        game = self.server.game
        path = self.path.split("?")[0]
        if path == "/api/account":
            self.send_json({"id": BOT_NAME.lower(), "username": BOT_NAME, "title": "BOT"})
        elif path == "/api/account/playing":
            with game.lock:
                playing = game.status == "started"
                mine = playing and game.side_to_move() == game.bot_color
            now = [{"gameId": GAME_ID, "perf": "chushogi", "isMyTurn": mine}] if playing else []
            self.send_json({"nowPlaying": now})
        elif path == "/api/stream/event":
            self.event_stream(game)
        elif path == f"/api/bot/game/stream/{GAME_ID}":
            self.game_stream(game)
        else:
            self.send_json({"error": "Not found"}, 404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if not self.authorised():
            return
        game = self.server.game
        path = self.path.split("?")[0]
        if path == f"/api/challenge/{CHALLENGE_ID}/accept":
            with game.lock:
                game.accepted = True
                game.lock.notify_all()
            game.start()
            self.send_json({"ok": True})
        elif path == f"/api/challenge/{CHALLENGE_ID}/decline":
            with game.lock:
                game.finish(None, "aborted", "the bot declined the challenge")
            self.send_json({"ok": True})
        elif path.startswith(f"/api/bot/game/{GAME_ID}/move/"):
            move = path.rsplit("/", 1)[1]
            error = game.play(game.bot_color, move, self.server.arbiter)
            self.send_json({"error": error}, 400) if error else self.send_json({"ok": True})
        elif path == f"/api/bot/game/{GAME_ID}/chat":
            game.chat.append(time.strftime("%H:%M:%S"))
            self.send_json({"ok": True})
        elif path in (f"/api/bot/game/{GAME_ID}/abort", f"/api/bot/game/{GAME_ID}/resign"):
            with game.lock:
                other = "gote" if game.bot_color == "sente" else "sente"
                game.finish(other, "resign" if path.endswith("resign") else "aborted", "the bot " + path.rsplit("/", 1)[1] + "ed")
            self.send_json({"ok": True})
        else:
            self.send_json({"error": "Not found"}, 404)

    def event_stream(self, game):
        """The challenge, then gameStart once accepted, gameFinish at the end."""
        self.start_stream()
        challenge = {
            "type": "challenge",
            "challenge": {
                "id": CHALLENGE_ID,
                "rated": False,
                "variant": {"key": "chushogi", "name": "Chushogi"},
                "perf": {"name": "Chushogi"},
                "speed": "rapid",
                "timeControl": {"type": "clock", "limit": game.args.base, "increment": 0, "byoyomi": game.args.byoyomi},
                "challenger": {"id": OPPONENT_NAME.lower(), "name": OPPONENT_NAME, "rating": 1500},
            },
        }
        try:
            announced = finished = False
            with game.lock:
                offered = game.accepted or game.status != "created"
            if not offered:
                self.stream_line(challenge)
            while not finished:
                with game.lock:
                    game.lock.wait(KEEPALIVE_SECONDS)
                    started = game.status != "created"
                    over = game.status not in ("created", "started")
                if started and not announced:
                    self.stream_line({"type": "gameStart", "game": {"id": GAME_ID}})
                    announced = True
                if over:
                    self.stream_line({"type": "gameFinish", "game": {"id": GAME_ID}})
                    finished = True
                else:
                    self.stream_line(None)
            self.end_stream()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def game_stream(self, game):
        """gameFull, then a gameState for every change and keep-alive lines between them."""
        self.start_stream()
        try:
            with game.lock:
                self.stream_line(game.full())
                seen = game.version
            while True:
                with game.lock:
                    if game.version == seen:
                        game.lock.wait(KEEPALIVE_SECONDS)
                    changed = game.version != seen
                    seen = game.version
                    state = game.state()
                self.stream_line(state if changed else None)
                if state["status"] not in ("created", "started"):
                    break
            self.end_stream()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    """Quiet about clients that hang up (the bot drops its streams when it stops)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, BrokenPipeError)):
            super().handle_error(request, client_address)


def report(game):
    think = game.bot_think_ms
    return {
        "result": {"winner": game.winner, "status": game.status, "reason": game.reason},
        "bot": {"name": BOT_NAME, "color": game.bot_color},
        "plies": len(game.moves),
        "bot_moves": len(think),
        "bot_think_ms": {
            "median": statistics.median(think) if think else None,
            "max": max(think) if think else None,
            "total": sum(think),
            "all": think,
        },
        "clock_left_ms": {side: int(ms) for side, ms in game.main_ms.items()},
        "refused_moves": game.refused,
        "chat_messages": len(game.chat),
        "moves": " ".join(game.moves),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="the shishi binary (arbiter and scripted opponent)")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--port-file", help="write the port here once listening")
    parser.add_argument("--token", default="fake-token")
    parser.add_argument("--base", type=int, default=60, help="main time, seconds")
    parser.add_argument("--byoyomi", type=int, default=5, help="byoyomi, seconds")
    parser.add_argument("--lag-ms", type=int, default=0, help="grace on each byoyomi period")
    parser.add_argument("--bot-color", choices=["sente", "gote"], default="sente")
    parser.add_argument("--opponent-level", type=int, default=8)
    parser.add_argument("--opponent-movetime", type=int, default=300, help="ms")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--timeout", type=int, default=3600, help="give up after this many seconds")
    parser.add_argument("--report", help="write the report as JSON here")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    game = Game(args)
    server = Server(("127.0.0.1", args.port), Handler)
    server.args, server.game = args, game
    server.arbiter = Arbiter(args.engine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(port))
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"fake lishogi on http://127.0.0.1:{port}/ (bot {BOT_NAME} plays {args.bot_color})", flush=True)

    opponent = threading.Thread(
        target=opponent_loop,
        args=(game, args.engine, args.opponent_level, args.opponent_movetime, server.arbiter),
        daemon=True,
    )
    opponent.start()
    deadline = time.monotonic() + args.timeout
    last_ply = -1
    with game.lock:
        while game.status in ("created", "started") and time.monotonic() < deadline:
            game.lock.wait(1.0)
            game.check_flag()
            if len(game.moves) // 20 != last_ply // 20 and game.moves:
                last_ply = len(game.moves)
                print(f"  ply {last_ply}, clocks {game.state()['btime']} / {game.state()['wtime']} ms", flush=True)
        if game.status in ("created", "started"):
            game.finish(None, "aborted", f"no result within {args.timeout} s")
    time.sleep(3)  # let the bot read the final state and say goodbye
    summary = report(game)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(summary, f, indent=1)
    think = summary["bot_think_ms"]
    result = summary["result"]
    print(f"result: {result['status']}, winner {result['winner']} ({result['reason']})")
    print(f"plies: {summary['plies']}; bot moves: {summary['bot_moves']}; refused bot moves: {len(game.refused)}")
    print(f"bot think time: median {think['median']} ms, max {think['max']} ms, total {think['total'] / 1000:.1f} s")
    print(f"main time left: sente {summary['clock_left_ms']['sente']} ms, gote {summary['clock_left_ms']['gote']} ms")
    print(f"chat messages from the bot: {summary['chat_messages']}")
    bot_lost_on_time = result["status"] == "outoftime" and result["winner"] != game.bot_color
    return 1 if game.refused or bot_lost_on_time or result["status"] == "aborted" else 0


if __name__ == "__main__":
    sys.exit(main())
