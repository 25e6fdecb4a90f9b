#!/usr/bin/env bash
# Analyses the demo game (data/games/report-demo.kif) at the default settings with
# `--report`, and takes headless Chromium screenshots of its page at one move (a blunder,
# so the best-move arrow shows): at 1400 px to docs/analysis-report.png (or OUT), and at a
# phone's 420 px, with the best line's first move played out, to OUT with `-phone` before
# `.png`.
# usage: scripts/web/report-screenshot.sh [OUT.png] [PLY]
# (needs chromium and a CJK font: apt-get install chromium fonts-noto-cjk)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/docs/analysis-report.png}
phone=${out%.png}-phone.png
ply=${2:-98}
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install chromium)" >&2; exit 2; }
fc-list 2>/dev/null | grep -qi cjk || echo "warning: no CJK font (apt-get install fonts-noto-cjk): kanji will show as boxes" >&2
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/target/release/shishi" analyse --input "$root/data/games/report-demo.kif" \
  --report "$work/html" --output "$work/analysis.jsonl"
page=$(ls "$work"/html/*.html)
shot() {
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size="$1" --screenshot="$2" "file://$page#$3" 2>/dev/null
}
shot 1400,1000 "$out" "ply=$ply"
shot 420,900 "$phone" "ply=$ply&line"
echo "screenshots: $out $phone"
