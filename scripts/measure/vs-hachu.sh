#!/bin/bash
# Shishi against HaChu at time odds, the measure of issue 59: Shishi at a quarter and at an
# eighth of HaChu's time, sudden death and Fischer, colours alternating, openings from the
# book (each twice, colours swapped), lishogi's rules as arbiter. One match after another
# on one core each: run it on a quiet machine (a build beside it changes the result).
#
#   scripts/measure/vs-hachu.sh OUT_DIR [GAMES] [SHISHI] [HACHU] [-- EXTRA --engine OPTIONS]
#
# OUT_DIR gets a JSON-lines record and the standard output of each match:
#   quarter-sd     Shishi 5 s      against HaChu 20 s        (sudden death)
#   quarter-inc    Shishi 2.5+0.05 against HaChu 10+0.2      (Fischer)
#   eighth-sd      Shishi 2.5 s    against HaChu 20 s        (sudden death)
#   equal          Shishi 10 s     against HaChu 10 s        (sudden death)
# and `clock-profile.txt` for each (scripts/measure/clock-profile.py: time and depth by
# ply, and where each lost game was sealed). Extra Shishi options (e.g.
# option.Tune_NAME=VALUE) follow `--`, comma-separated as --engine takes them.
# A match already recorded in OUT_DIR is resumed (`--resume`), not played again.
# MATCHES in the environment plays only the matches it names, in its order
# (e.g. MATCHES="eighth-sd equal"); by default all four, in the order above.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: scripts/measure/vs-hachu.sh OUT_DIR [GAMES] [SHISHI] [HACHU] [-- OPTIONS]}
games=${2:-32}
shishi=${3:-$root/target/release/shishi}
hachu=${4:-/usr/games/hachu}
extra=""
if [ "${5:-}" = "--" ]; then extra=",${6:?options after --}"; fi
mkdir -p "$out"
[ -x "$shishi" ] || (cd "$root" && cargo build --release)
[ -x "$hachu" ] || { echo "no HaChu at $hachu (apt-get install hachu)" >&2; exit 1; }

play() { # NAME SHISHI_TC HACHU_TC
  local name=$1 ours=$2 theirs=$3 resume=()
  [ -s "$out/$name.jsonl" ] && resume=(--resume)
  echo "$name: Shishi $ours against HaChu $theirs, $games games" >&2
  "$shishi" match \
    --engine "cmd=$shishi,name=Shishi,option.Threads=1,option.AvoidRepetition=true,tc=$ours$extra" \
    --engine "cmd=$hachu,proto=cecp,name=HaChu,tc=$theirs" \
    --tc "$theirs" --games "$games" --openings "$root/data/openings/chushogi.txt" --repeat \
    --jsonl "$out/$name.jsonl" "${resume[@]}" > "$out/$name.out" || true
  tail -n 4 "$out/$name.out" >&2
  python3 "$root/scripts/measure/clock-profile.py" "$out/$name.jsonl" --engine Shishi \
    > "$out/$name-clock-profile.txt"
}

declare -A clocks=(
  [quarter-sd]="5+0 20+0"
  [quarter-inc]="2.5+0.05 10+0.2"
  [eighth-sd]="2.5+0 20+0"
  [equal]="10+0 10+0"
)
all_matches="quarter-sd quarter-inc eighth-sd equal"
matches=${MATCHES:-$all_matches}
# Every name checked before the first game: a misspelt one is not found an hour later.
for name in $matches; do
  if [ -z "${clocks[$name]:-}" ]; then
    echo "no match $name (the matches: $all_matches)" >&2
    exit 2
  fi
done
for name in $matches; do
  # shellcheck disable=SC2086  # the two clocks, split on purpose
  play "$name" ${clocks[$name]}
done
