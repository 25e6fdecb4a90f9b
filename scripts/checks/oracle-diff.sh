#!/usr/bin/env bash
# Differential test of our move generator against the reference rules libraries.
# Plays GAMES random games per variant (captures, lion double moves and promotions favoured)
# and at every position compares our perft-mode move list with lishogi's shogiops (chu) and
# Fairy-Stockfish's pyffish (sho). Any difference prints the SFEN and the differing moves.
#
# usage: scripts/checks/oracle-diff.sh [GAMES] [SEED] [MAX_PLIES]     (defaults: 200 1 400)
# The oracles install once under target/oracle (npm registry and PyPI).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHISHI_SHARED:-$root/../shared}
games=${1:-200}
seed=${2:-1}
max_plies=${3:-400}
oracle=$root/target/oracle
mkdir -p "$oracle"

if [ ! -d "$oracle/node_modules/shogiops" ]; then
  (cd "$oracle" && npm install --silent --no-audit --no-fund shogiops@0.18.0 >&2)
fi
if [ ! -x "$oracle/venv/bin/python" ] || ! "$oracle/venv/bin/python" -c 'import pyffish' 2>/dev/null; then
  python3 -m venv "$oracle/venv"
  "$oracle/venv/bin/pip" install --quiet pyffish==0.0.90 >&2
fi
# Node resolves `shogiops` from the script's own folder, so the driver runs from there.
cp "$root/scripts/checks/oracle/chu_lists.mjs" "$oracle/"

cargo build --quiet --release --example random_positions --manifest-path "$root/Cargo.toml"
gen=$root/target/release/examples/random_positions

status=0
"$gen" chushogi "$games" "$seed" "$max_plies" | node "$oracle/chu_lists.mjs" || status=1
"$gen" shoshogi "$games" "$seed" "$max_plies" \
  | SHISHI_SHARED_ORACLE="$shared/oracle" "$oracle/venv/bin/python" "$root/scripts/checks/oracle/sho_lists.py" || status=1
exit $status
