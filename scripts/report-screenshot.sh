#!/usr/bin/env bash
# Analyses the demo game (data/games/report-demo.kif) at the default settings with
# `--report`, and takes a headless Chromium screenshot of its page at one move (a blunder,
# so the best-move arrow shows) to docs/analysis-report.png (or OUT).
# usage: scripts/report-screenshot.sh [OUT.png] [PLY]      (needs chromium: apt-get install chromium)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/analysis-report.png}
ply=${2:-98}
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install chromium)" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/target/release/shishi" analyse --input "$root/data/games/report-demo.kif" \
  --report "$work/html" --output "$work/analysis.jsonl"
page=$(ls "$work"/html/*.html)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1500,1000 \
  --screenshot="$out" "file://$page#ply=$ply" 2>/dev/null
echo "screenshot: $out"
