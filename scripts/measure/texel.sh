#!/usr/bin/env bash
# Texel tuning of the evaluation, every step (run by hand; hours of CPU for a real run):
#   1. self-play games at a fast clock with the opening book (shishi match --jsonl);
#   2. training lines from them (shishi tune extract: quiet positions and game results);
#   3. the fit (shishi tune fit), which prints the tuned tables (a variant's EVAL in src/variant/).
# Paste the printed block over the variant's constant (it keeps its comment line), then
# keep it only if an SPRT against the previous engine passes.
#
# Usage: scripts/measure/texel.sh OUT_DIR [GAMES] [TC] [EXTRA_RECORDS...]
#   OUT_DIR        a new folder for the games, positions and result (never overwritten)
#   GAMES          self-play games to play first (default 1000; 0 to use EXTRA_RECORDS only)
#   TC             their clock (default 1+0.02)
#   EXTRA_RECORDS  more `shishi match --jsonl` files to learn from
# VARIANT=shoshogi in the environment tunes sho shogi (default chushogi): its games, its
# opening book, its tables. CONCURRENCY=N plays N games at once (default: one per core).
set -euo pipefail
out=${1:?usage: scripts/measure/texel.sh OUT_DIR [GAMES] [TC] [EXTRA_RECORDS...]}
games=${2:-1000}
variant=${VARIANT:-chushogi}
case "$variant" in
    chushogi | shoshogi) ;;
    *) echo "texel.sh: VARIANT must be chushogi or shoshogi, not $variant" >&2; exit 2 ;;
esac
tc=${3:-1+0.02}
shift $(( $# < 3 ? $# : 3 ))
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -e "$out" ]; then
    echo "texel.sh: $out exists; give a new folder" >&2
    exit 2
fi
mkdir -p "$out"
cargo build --release --manifest-path "$root/Cargo.toml" >&2
engine="$out/shishi"
cp "$root/target/release/shishi" "$engine"
records=("$@")
if [ "$games" -gt 0 ]; then
    cores=${CONCURRENCY:-$(nproc)}
    "$engine" match --variant "$variant" --engine "cmd=$engine,name=a" --engine "cmd=$engine,name=b" \
        --games "$games" --concurrency "$cores" --tc "$tc" \
        --openings "$root/data/openings/$variant.txt" --repeat \
        --jsonl "$out/games.jsonl" > "$out/match.txt" 2> "$out/match.log"
    records+=("$out/games.jsonl")
fi
"$engine" tune extract "${records[@]}" > "$out/positions.txt"
"$engine" tune fit "$out/positions.txt" > "$out/tuned.rs" 2> "$out/fit.log"
cat "$out/fit.log" >&2
echo "tuned tables: $out/tuned.rs" >&2
