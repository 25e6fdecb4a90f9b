#!/usr/bin/env bash
# Runs the real Lishogi-Bot (TheYoBots/Lishogi-Bot, a checkout you have) with Shishi as its
# engine against a fake lishogi on localhost (scripts/peers/fake_lishogi.py): one whole chu game at
# 60 s + 5 s byoyomi against a scripted opponent. Prints the moves, the bot's think times and
# the result; exits non-zero on a refused move, a time loss or no result.
#
#   scripts/peers/lishogi-bot-check.sh PATH_TO_LISHOGI_BOT [extra fake_lishogi.py options]
#
# The engine runs with its default options (what a user who skips the guide gets);
# MOVE_OVERHEAD=300 (say) adds Move_Overhead to the bot's usi_options, BUSY=1 keeps one core
# busy with another process during the game (a busy machine), ENGINE=PATH plays another
# build (default: this checkout's, built first).
#
# It installs the bot's requirements into a virtual environment under $WORK (default: a new
# temporary folder), writes the bot's config.yml there (never into the checkout), and keeps
# the bot's log, the report (report.json) and the engine's stderr there.
set -euo pipefail

if [[ $# -lt 1 || ! -f "$1/lishogi-bot.py" ]]; then
    echo "usage: $0 PATH_TO_LISHOGI_BOT [fake_lishogi.py options]" >&2
    echo "       (PATH_TO_LISHOGI_BOT: a checkout of TheYoBots/Lishogi-Bot, with lishogi-bot.py)" >&2
    exit 2
fi
BOT_DIR=$(cd "$1" && pwd)
shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-$(mktemp -d /tmp/lishogi-bot-check.XXXXXX)}
mkdir -p "$WORK"
echo "work folder: $WORK"

if [[ -z "${ENGINE:-}" ]]; then
    cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
    ENGINE="$ROOT/target/release/shishi"
fi

if [[ ! -x "$WORK/venv/bin/python" ]]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet -r "$BOT_DIR/requirements.txt"
fi

TOKEN="fake-token-$RANDOM$RANDOM"
PORT_FILE="$WORK/port"
rm -f "$PORT_FILE"
python3 "$ROOT/scripts/peers/fake_lishogi.py" --engine "$ENGINE" --token "$TOKEN" \
    --port-file "$PORT_FILE" --report "$WORK/report.json" "$@" &
SERVER=$!
for _ in $(seq 100); do [[ -f "$PORT_FILE" ]] && break; sleep 0.1; done
[[ -f "$PORT_FILE" ]] || { echo "the fake server did not start" >&2; kill $SERVER; exit 1; }
PORT=$(cat "$PORT_FILE")

# The config.yml lines protocol-docs/lishogi.md recommends (Move_Overhead only if asked).
cat > "$WORK/config.yml" <<YAML
token: "$TOKEN"
url: "http://127.0.0.1:$PORT/"
engine:
  dir: "$(dirname "$ENGINE")/"
  name: "$(basename "$ENGINE")"
  protocol: "usi"
  ponder: false
  usi_options:
    Threads: 1
    USI_Hash: 64
${MOVE_OVERHEAD:+    Move_Overhead: $MOVE_OVERHEAD}
  silence_stderr: false
abort_time: 30
move_overhead: 1000
challenge:
  concurrency: 1
  sort_by: "first"
  accept_bot: true
  variants:
    - chushogi
  time_controls:
    - blitz
    - rapid
    - classical
  modes:
    - casual
    - rated
greeting:
  hello: "Hi, I'm {me}."
  goodbye: "Good game!"
YAML

LOAD=""
if [[ -n "${BUSY:-}" ]]; then
    python3 -c "while True: pass" &
    LOAD=$!
fi

# The bot runs in its own process group: it starts several processes, and it has no
# one-game mode, so it is stopped once the server has a result.
(cd "$BOT_DIR" && exec setsid "$WORK/venv/bin/python" lishogi-bot.py --config "$WORK/config.yml" \
    -l "$WORK/bot.log" > "$WORK/bot.out" 2>&1) &
BOT=$!
status=0
wait $SERVER || status=$?
kill -INT -- -"$BOT" 2>/dev/null || true
sleep 2
kill -TERM -- -"$BOT" 2>/dev/null || true
wait $BOT 2>/dev/null || true
[[ -z "$LOAD" ]] || kill "$LOAD"

echo "bot log: $WORK/bot.log; report: $WORK/report.json"
if grep -q -i "traceback\|exception" "$WORK/bot.log"; then
    echo "the bot logged an exception:" >&2
    grep -i -m5 -A3 "traceback\|exception" "$WORK/bot.log" >&2
    status=1
fi
exit $status
