#!/usr/bin/env bash
# Real XBoard under Xvfb with Shishi as first engine: opens Engine > Engine #1 Settings
# (the dialog XBoard builds from Shishi's `feature option` lines), sets Skill Level to 5,
# presses OK, and checks in XBoard's debug log that `option Skill Level=5` went out and got
# no Error. Saves the dialog's screenshot to docs/xboard-engine-options.png (or OUT).
# usage: scripts/peers/xboard-options-shot.sh [OUT.png]
# Needs: xboard, xvfb, xdotool, imagemagick (apt-get install xboard xvfb xdotool imagemagick).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/docs/xboard-engine-options.png}
for tool in /usr/games/xboard Xvfb xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done
cargo build --quiet --release --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
display=:$((80 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb ${xb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
export DISPLAY=$display
/usr/games/xboard -variant chu -fcp "$root/target/release/shishi xboard" -fd "$work" -fn Shishi \
  -xlegal -size Medium -debug -nameOfDebugFile "$work/debug" >/dev/null 2>&1 &
xb=$!
sleep 6
# Engine menu, then "Engine #1 Settings..." (XBoard's Medium layout at 0,0).
xdotool mousemove 270 13 click 1; sleep 1
xdotool mousemove 335 117 click 1; sleep 1.5
import -window root "$work/dialog.png"
convert "$work/dialog.png" -crop 560x640+0+0 "$out"
# Skill Level := 5, then OK.
xdotool mousemove 150 41 click --repeat 3 1
xdotool key ctrl+a BackSpace BackSpace BackSpace
xdotool type 5
xdotool mousemove 50 152 click 1; sleep 1.5
grep 'feature option' "$work/debug" | sed 's/^[0-9]* //'
grep -q '>first : option Skill Level=5' "$work/debug" || { echo "XBoard sent no option Skill Level=5" >&2; exit 1; }
if grep -q '<first : Error' "$work/debug"; then grep '<first : Error' "$work/debug" >&2; exit 1; fi
echo "XBoard sent: option Skill Level=5 (no Error); screenshot: $out"
