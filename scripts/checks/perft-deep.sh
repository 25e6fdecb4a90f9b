#!/usr/bin/env bash
# The deep perft lines that CI skips (over 3M nodes), run on the release build, with time.
# usage: scripts/checks/perft-deep.sh [THREADS]      e.g. chu start position depth 5 = 109,394,035
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
threads=${1:-1}
cargo build --quiet --release --manifest-path "$root/Cargo.toml"
bin=$root/target/release/shishi
fail=0
for file in chushogi shoshogi; do
  # `read` would merge empty tab-separated fields (the moves column), so split with cut.
  while IFS= read -r line; do
    name=$(cut -f1 <<<"$line"); sfen=$(cut -f2 <<<"$line"); moves=$(cut -f3 <<<"$line")
    depth=$(cut -f4 <<<"$line"); nodes=$(cut -f5 <<<"$line")
    [ "$nodes" -le 3000000 ] && continue
    start=$(date +%s.%N)
    got=$("$bin" perft --variant "$file" --sfen "$sfen" --moves "$moves" --no-divide --threads "$threads" "$depth" 2>/dev/null | tail -1 | cut -d' ' -f2)
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    if [ "$got" = "$nodes" ]; then echo "ok   $file $name depth $depth: $nodes nodes in ${secs}s"; else echo "FAIL $file $name depth $depth: expected $nodes, got $got"; fail=1; fi
  done < <(grep -v '^#' "$root/tests/data/$file.tsv")
done
# Sho start position depth 5: Fairy-Stockfish's `go perft 5` for shoshogi (quoted in issue 2).
start=$(date +%s.%N)
got=$("$bin" perft --variant shoshogi --no-divide --threads "$threads" 5 2>/dev/null | tail -1 | cut -d' ' -f2)
secs=$(echo "$(date +%s.%N) - $start" | bc)
if [ "$got" = "11494746" ]; then echo "ok   shoshogi startpos depth 5: $got nodes in ${secs}s"; else echo "FAIL shoshogi startpos depth 5: expected 11494746, got $got"; fail=1; fi
exit $fail
