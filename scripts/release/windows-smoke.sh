#!/usr/bin/env bash
# Cross-builds shishi.exe for Windows (x86_64-pc-windows-gnu, mingw-w64) and runs it under
# wine: USI (`usi`, `go movetime`), XBoard (`protover 2`, `new`, `variant chu`, `go`) and a
# two-game `shishi match` of shishi.exe against itself. Fails if any answer is missing.
# The transcript goes to target/windows-smoke/transcript.txt.
# usage: scripts/release/windows-smoke.sh
# Needs: rustup target add x86_64-pc-windows-gnu; apt-get install gcc-mingw-w64-x86-64 wine64 wine
#
# Debian's wine 8 lacks bcryptprimitives.dll (Rust's std calls its ProcessPrng): a stand-in
# built from scripts/release/windows/ is put next to the test copy of the .exe. It is test
# scaffolding only; the release shishi.exe needs nothing beside it on Windows 10 and later.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/target/windows-smoke
mkdir -p "$out"
for tool in x86_64-w64-mingw32-gcc wine; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install gcc-mingw-w64-x86-64 wine64 wine)" >&2; exit 2; }
done
cargo build --release --quiet --target x86_64-pc-windows-gnu --manifest-path "$root/Cargo.toml"
cp "$root/target/x86_64-pc-windows-gnu/release/shishi.exe" "$out/"
x86_64-w64-mingw32-gcc -shared -O2 -o "$out/bcryptprimitives.dll" \
  "$root/scripts/release/windows/bcryptprimitives-stand-in.c" "$root/scripts/release/windows/bcryptprimitives-stand-in.def" -ladvapi32
cd "$out"
export WINEDEBUG=-all
transcript=$out/transcript.txt
: > "$transcript"
fail() { echo "windows smoke test failed: $1 (see $transcript)" >&2; exit 1; }

echo "== USI: usi, isready, position startpos, go movetime 500" >> "$transcript"
(printf 'usi\nisready\nposition startpos\ngo movetime 500\n'; sleep 4; echo quit) \
  | timeout 120 wine shishi.exe 2>/dev/null | tee -a "$transcript" > usi.out
grep -q '^usiok' usi.out || fail "no usiok"
grep -q '^bestmove [0-9]' usi.out || fail "no bestmove"

echo "== XBoard: xboard, protover 2, new, variant chu, st 1, go" >> "$transcript"
(printf 'xboard\nprotover 2\nnew\nvariant chu\nst 1\ngo\n'; sleep 5; echo quit) \
  | timeout 120 wine shishi.exe 2>/dev/null | tee -a "$transcript" > xboard.out
grep -q 'feature done=1' xboard.out || fail "no feature done=1"
grep -q '^move ' xboard.out || fail "no move"

echo "== shishi.exe match: itself, 2 games, 100 ms a move, 40 plies" >> "$transcript"
rm -f games.jsonl
timeout 600 wine shishi.exe match --engine cmd=shishi.exe,name=A --engine cmd=shishi.exe,name=B \
  --games 2 --movetime 100 --max-plies 40 --jsonl games.jsonl 2>&1 | tee -a "$transcript" > match.out
[ "$(wc -l < games.jsonl)" -eq 2 ] || fail "the match did not record 2 games"
grep -q 'forfeits' match.out || fail "no result table"
echo "windows smoke test passed: USI bestmove, XBoard move, 2 match games ($transcript)"
