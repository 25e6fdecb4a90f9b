#!/usr/bin/env bash
# Real XBoard under Xvfb plays a short match in `variant chu`: shishi (XBoard protocol)
# against HaChu. Saves XBoard's PGN, its debug log and a screenshot of the board, and fails
# if a game ends by an illegal move, a forfeit or a crash.
#
# usage: scripts/peers/xboard-smoke.sh [GAMES] [TIME_CONTROL] [OUT_DIR]
#        (defaults: 2 games, 0:40 = 40 s per side per game, target/xboard-smoke)
#        OPPONENT=shishi: Shishi plays itself ("Shishi" against "Shishi-2"; HaChu is then
#        not needed): its games run to 130-200 moves a side, so the clock plan is tested over a whole long game
#        (against HaChu they end sooner); a loss on time by either fails.
# Needs: xboard, xvfb, hachu, imagemagick (apt-get install xboard xvfb hachu imagemagick).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
games=${1:-2}
tc=${2:-0:40}
out=${3:-$root/target/xboard-smoke}
mkdir -p "$out"
rm -f "$out"/match.pgn "$out"/xboard.debug "$out"/board.png

tools=(/usr/games/xboard Xvfb import)
[ "${OPPONENT:-hachu}" = shishi ] || tools+=(/usr/games/hachu)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install xboard xvfb hachu imagemagick)" >&2; exit 2; }
done
cargo build --quiet --release --manifest-path "$root/Cargo.toml"
shishi=$root/target/release/shishi
if [ "${OPPONENT:-hachu}" = shishi ]; then
  second=("$shishi xboard" Shishi-2)
else
  second=(/usr/games/hachu HaChu)
fi

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x1100x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=$display

# Two machines in match mode; XBoard's own legality test is off (chu's lion rules are the
# engines' business, as WinBoard's chu guide advises).
/usr/games/xboard -variant chu \
  -fcp "$shishi xboard" -fd "$out" -fn Shishi \
  -scp "${second[0]}" -sd "$out" -sn "${second[1]}" \
  -mg "$games" -tc "$tc" -inc 0 -xponder -xexit -xlegal -autoCallFlag true \
  -sgf "$out/match.pgn" -debug -nameOfDebugFile "$out/xboard.debug" -size Medium \
  >"$out/xboard.out" 2>&1 &
xb=$!

# Screenshot of the board 25 s into the last game, while it is under way: the PGN holds a
# game only once it has ended, so the last game starts when games - 1 results are there
# (at once for a single game; waiting for the file then took the shot after XBoard quit).
shot_taken=0
last_game_since=""
deadline=$((SECONDS + games * 2 * 60 + 120))
while kill -0 $xb 2>/dev/null; do
  finished=0
  [ -f "$out/match.pgn" ] && finished=$(grep -c '^\[Result' "$out/match.pgn" || true)
  if [ -z "$last_game_since" ] && [ "$finished" -ge $((games - 1)) ]; then
    last_game_since=$SECONDS
  fi
  if [ $shot_taken -eq 0 ] && [ -n "$last_game_since" ] && [ $((SECONDS - last_game_since)) -ge 25 ]; then
    import -window root "$out/board.png" && shot_taken=1
  fi
  if [ $SECONDS -gt $deadline ]; then
    echo "XBoard did not finish the match in time" >&2
    import -window root "$out/board.png" || true
    kill $xb
    exit 1
  fi
  sleep 1
done
[ $shot_taken -eq 1 ] || import -window root "$out/board.png" 2>/dev/null || true

echo "== results"
grep -E '^\[(White|Black|Result|Termination)' "$out/match.pgn" || true
grep -E '\{[^}]*\} *(1-0|0-1|1/2-1/2|\*)' -o "$out/match.pgn" || true
# Each game's length and the least either engine had left on its clock (from the `time`
# commands XBoard sent, in centiseconds): how close the clock plan came to the flag.
python3 - "$out/match.pgn" "$out/xboard.debug" <<'PY'
import re, sys
pgn, debug = open(sys.argv[1]).read(), open(sys.argv[2], errors="replace").read()
plies = []
for game in pgn.split("[Event")[1:]:
    body = re.sub(r"\{[^}]*\}", "", game.split("\n\n", 1)[-1])
    plies.append(sum(1 for t in body.split()
                     if not re.fullmatch(r"\d+\.|1-0|0-1|1/2-1/2|\*", t)))
least, new_game = [], True
for line in debug.splitlines():
    m = re.match(r"\d+ >(first|second) ?: (new|time (\d+))", line)
    if m and m[2] == "new":
        new_game = True  # XBoard may send `new` more than once before a game
    elif m and m[3]:
        if new_game:
            least.append({})
            new_game = False
        least[-1][m[1]] = min(least[-1].get(m[1], 1 << 30), int(m[3]))
for i, n in enumerate(plies):
    left = least[i] if i < len(least) else {}
    print(f"game {i + 1}: {n} plies; least on the clock: "
          + ", ".join(f"{who} {cs / 100:.2f} s" for who, cs in sorted(left.items())))
PY
played=$(grep -c '^\[Result "[01]' "$out/match.pgn" || true)
echo "games with a result: $played of $games; PGN $out/match.pgn; screenshot $out/board.png"
fail=0
# Any move an engine or XBoard called illegal (HaChu also calls a repeated position illegal).
if grep -E '<(first |second): Illegal move' "$out/xboard.debug" | head -5 | grep .; then
  echo "FAIL: an engine rejected a move" >&2
  fail=1
fi
if grep -iE 'illegal|repeats earlier|crash|exit|disconnect|forfeit' "$out/match.pgn"; then
  echo "FAIL: a game ended by an illegal move, a crash or a forfeit" >&2
  fail=1
fi
# A loss on time counts against us only when Shishi (or Shishi-2) is the one who ran out.
while IFS= read -r game; do
  case "$game" in
    *'White "Shishi'*'Black wins on time'*|*'Black "Shishi'*'White wins on time'*)
      echo "FAIL: Shishi lost on time" >&2
      fail=1 ;;
  esac
done < <(awk '/^\[Event/{if (g) print g; g=""} {g = g " " $0} END{print g}' "$out/match.pgn")
[ "$played" -ge 1 ] || fail=1
exit $fail
