#!/usr/bin/env bash
# Checks the 287 depth-1 chu fixtures from lishogi's own test suites (shogiops, scalashogi).
# They are GPL project data, so they stay in ../shared and are read from there.
# usage: scripts/checks/check-fixtures.sh [PATH-TO-SHARED]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${1:-${SHISHI_SHARED:-$root/../shared}}
file=$shared/data/perft/chushogi-fixtures-d1.tsv
[ -f "$file" ] || { echo "fixtures not found: $file" >&2; exit 2; }
cargo build --quiet --release --manifest-path "$root/Cargo.toml"
bin=$root/target/release/shishi
pass=0; fail=0
while IFS=$'\t' read -r source sfen depth nodes; do
  got=$("$bin" perft --sfen "$sfen" --no-divide "$depth" 2>/dev/null | tail -1 | cut -d' ' -f2)
  if [ "$got" = "$nodes" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL ($source) $sfen: expected $nodes, got $got"; fi
done < <(grep -v '^#' "$file")
echo "fixtures: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge 287 ]
