#!/usr/bin/env bash
# The Skill_Level round robin: levels 0, 5, 10, 15 and 20 at a fixed movetime, then the
# per-pair table (scripts/pair-table.py). Each level should score 65% or more against the
# one below it.
#
#   scripts/skill-levels.sh [GAMES_PER_PAIR=16] [MOVETIME_MS=250] [CONCURRENCY=2]
set -euo pipefail
GAMES=${1:-16}
MOVETIME=${2:-250}
CONCURRENCY=${3:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
ENGINE="$ROOT/target/release/shishi"
OUT=$(mktemp /tmp/skill-levels.XXXXXX.jsonl)
ENGINES=()
for level in 0 5 10 15 20; do
    ENGINES+=(--engine "cmd=$ENGINE,name=L$level,option.Skill_Level=$level,option.ResignWhenLost=true")
done
"$ENGINE" match "${ENGINES[@]}" --games "$GAMES" --concurrency "$CONCURRENCY" \
    --movetime "$MOVETIME" --openings "$ROOT/data/openings/chushogi.txt" --repeat --jsonl "$OUT"
echo "records: $OUT"
python3 "$ROOT/scripts/pair-table.py" "$OUT" L0,L5,L10,L15,L20
