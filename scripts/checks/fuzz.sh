#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS each (default 60) and reports executions and
# findings per target. Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`). Crashes land in fuzz/artifacts/TARGET/; each one found
# becomes a regression test in tests/ (see protocol-docs/usi.md, "Fuzzing").
#   scripts/checks/fuzz.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/../../fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(sfen usi_moves usi_session xboard_session records)
fi
command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 2; }
cargo +nightly fuzz build -O >/dev/null 2>&1 || cargo +nightly fuzz build -O || exit 2
status=0
printf '%-16s %12s %10s %s\n' target executions exec/s findings
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="target/fuzz-$t.log"
  # Seeds (fuzz/seeds/TARGET: the states a random start rarely reaches) and a dictionary
  # of the protocol's words (fuzz/dict/TARGET.dict), where the target has them.
  seeds=()
  [ -d "seeds/$t" ] && seeds=("seeds/$t")
  dict=()
  [ -f "dict/$t.dict" ] && dict=("-dict=dict/$t.dict")
  # -rss_limit_mb: a session holds a search worker and its table; 2 GB is libFuzzer's default.
  cargo +nightly fuzz run -O "$t" "corpus/$t" "${seeds[@]}" -- -max_total_time="$seconds" \
    -rss_limit_mb=4096 -timeout=30 -print_final_stats=1 "${dict[@]}" >"$log" 2>&1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "artifacts/$t" -type f | wc -l)
  printf '%-16s %12s %10s %s\n' "$t" "${runs:-?}" "${rate:-?}" "$found"
  [ "$found" -eq 0 ] || status=1
done
exit $status
