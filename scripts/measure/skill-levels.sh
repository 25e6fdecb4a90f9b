#!/usr/bin/env bash
# The Skill_Level ladder as a round robin: each published step (levels -9, -5, -1, 3, 7,
# 11, 15, 19 and full strength 20) plays the step below it GAMES games, and every other
# pair of levels plays OTHER_PAIRS games (the steps are what the ladder promises, so they get
# the most games), at MOVETIME ms a move with the opening book and colours swapped; then the
# crosstable and the per-pair table (scripts/measure/pair-table.py). Each step should score 60-80%
# against the one below; the tables go into protocol-docs/lishogi.md.
#
#   scripts/measure/skill-levels.sh [GAMES_PER_STEP=16] [MOVETIME_MS=250] [CONCURRENCY=2] [OUT_DIR] [OTHER_PAIRS=8]
#
# OTHER_PAIRS=0 measures the steps only.
#
# SHISHI=PATH plays that binary instead of building this checkout's (a copy keeps a long
# run safe from a rebuild in between).
#
# The records go to OUT_DIR (one JSON-lines file per step; run again with the same OUT_DIR
# to continue an interrupted run, or with more games to add to it).
set -euo pipefail
GAMES=${1:-16}
MOVETIME=${2:-250}
CONCURRENCY=${3:-2}
OUT_DIR=${4:-$(mktemp -d /tmp/skill-levels.XXXXXX)}
OTHER_PAIRS=${5:-8}
mkdir -p "$OUT_DIR"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [[ -n "${SHISHI:-}" ]]; then
    ENGINE=$(realpath "$SHISHI")
else
    cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
    ENGINE="$ROOT/target/release/shishi"
fi
LEVELS=(-9 -5 -1 3 7 11 15 19 20)
engine() {
    echo "cmd=$ENGINE,name=L$1,option.Skill_Level=$1,option.ResignWhenLost=true"
}
# play WEAK STRONG GAMES: one pair's games, added to its record file.
play() {
    "$ENGINE" match --engine "$(engine "$1")" --engine "$(engine "$2")" \
        --games "$3" --concurrency "$CONCURRENCY" --movetime "$MOVETIME" \
        --openings "$ROOT/data/openings/chushogi.txt" --repeat \
        --jsonl "$OUT_DIR/L$1-L$2.jsonl" --resume > /dev/null
}
for ((i = 1; i < ${#LEVELS[@]}; i++)); do
    play "${LEVELS[i - 1]}" "${LEVELS[i]}" "$GAMES"
done
if ((OTHER_PAIRS > 0)); then
    for ((gap = 2; gap < ${#LEVELS[@]}; gap++)); do
        for ((i = gap; i < ${#LEVELS[@]}; i++)); do
            play "${LEVELS[i - gap]}" "${LEVELS[i]}" "$OTHER_PAIRS"
        done
    done
fi
cat "$OUT_DIR"/L*-L*.jsonl > "$OUT_DIR/all.jsonl"
echo "records: $OUT_DIR"
NAMES=$(printf 'L%s,' "${LEVELS[@]}")
python3 "$ROOT/scripts/measure/pair-table.py" "$OUT_DIR/all.jsonl" "${NAMES%,}"
