#!/usr/bin/env bash
# Writes the first N games of a records file (JSON lines: `shishi match --jsonl`, or
# lishogi's export form) as KIF with `shishi analyse --nodes 1 --kif`, then reads every
# KIF back with lishogi's rules library (shogiops' KIF move parser) and compares each move
# with the record: prints the games that do not read back whole and
# `kif round trip: G games, M of N moves read back exactly`.
# usage: scripts/checks/kif-roundtrip.sh RECORDS.jsonl [N]      (default N: 60)
# shogiops installs once under target/oracle (npm registry), as for oracle-diff.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
records=${1:?usage: scripts/checks/kif-roundtrip.sh RECORDS.jsonl [N]}
count=${2:-60}
oracle=$root/target/oracle
mkdir -p "$oracle"
if [ ! -d "$oracle/node_modules/shogiops" ]; then
  (cd "$oracle" && npm install --silent --no-audit --no-fund shogiops@0.18.0 >&2)
fi
cp "$root/scripts/checks/oracle/kif_roundtrip.mjs" "$oracle/"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n "$count" "$records" > "$work/records.jsonl"
"$root/target/release/shishi" analyse --input "$work/records.jsonl" --nodes 1 \
  --kif "$work/kif" --output "$work/analysis.jsonl" 2>/dev/null
(cd "$oracle" && node kif_roundtrip.mjs "$work/records.jsonl" "$work/kif")
