#!/bin/bash
# An SPRT of Shishi with some Tune options against Shishi without them, both from one
# binary: chu self-play, [0, 10] Elo (or BOUNDS), alpha = beta = 0.05, openings from the
# book (each twice, colours swapped). Stops when the SPRT decides, or after GAMES games.
#
#   scripts/measure/sprt-option.sh NAME TC OPTIONS [OUT_DIR] [-- EXTRA MATCH ARGUMENTS]
#
#   NAME     the tested side's name in the record (`iir4after`)
#   TC       the clock of both sides (`2+0.02`, `8+0.08`)
#   OPTIONS  the tested side's options, comma-separated as --engine takes them
#            (`option.Tune_iir_min_depth=4,option.Tune_iir_after_pruning=1`)
#   OUT_DIR  where NAME-TC.jsonl (the record) and NAME-TC.out (each game and the running
#            result, appended) go (default .runs/sprt, which git ignores)
# Environment: SHISHI (default target/release/shishi), CONCURRENCY (games at a time,
# default 1; 2 on two otherwise idle cores), GAMES (the most games, default 3000; raise it
# to carry an undecided SPRT on), BOUNDS (the SPRT's Elo bounds, default `elo0=0,elo1=10`:
# "gains"; `elo0=-10,elo1=0` asks "loses nothing", for a change meant to act only where
# the clock is longer), CARRY (`W-L-D`: games of an earlier run of this same test whose
# record is gone, counted with this record's; `--sprt ...,carry=`).
# A record already in OUT_DIR is resumed (`--resume`): an SPRT of the short clock may take
# a session, one of the longer clock several. Resume only with a binary that plays as the
# one that began it (the same `shishi bench` count).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: scripts/measure/sprt-option.sh NAME TC OPTIONS [OUT_DIR] [-- MATCH ARGUMENTS]"
name=${1:?$usage} tc=${2:?$usage} options=${3:?$usage}
shift 3
out=$root/.runs/sprt
if [ $# -gt 0 ] && [ "$1" != "--" ]; then out=$1; shift; fi
[ "${1:-}" = "--" ] && shift
shishi=${SHISHI:-$root/target/release/shishi}
[ -x "$shishi" ] || (cd "$root" && cargo build --release)
mkdir -p "$out"
record="$out/$name-$tc.jsonl"
resume=()
[ -s "$record" ] && resume=(--resume)
echo "$name against main at $tc: $record" >&2
"$shishi" match --engine "cmd=$shishi,name=$name,$options" --engine "cmd=$shishi,name=main" \
  --tc "$tc" --games "${GAMES:-3000}" --openings "$root/data/openings/chushogi.txt" --repeat \
  --sprt "${BOUNDS:-elo0=0,elo1=10},alpha=0.05,beta=0.05${CARRY:+,carry=$CARRY}" \
  --concurrency "${CONCURRENCY:-1}" --jsonl "$record" "${resume[@]}" "$@" \
  >> "$out/$name-$tc.out" 2>&1
tail -n 3 "$out/$name-$tc.out" >&2
