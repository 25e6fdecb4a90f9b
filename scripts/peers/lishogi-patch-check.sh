#!/usr/bin/env bash
# Checks protocol-docs/lishogi-chushogi.patch with lishogi's own code, by hand (CI has no
# network; it keeps its imitation of the loader, web/test/lishogi-loader.html).
#
# usage: scripts/peers/lishogi-patch-check.sh LISHOGI_CHECKOUT
#
# LISHOGI_CHECKOUT is a clone of the public WandererXII/lishogi repository (the patch is made
# against acb3b12). Nothing is written into it: the script copies the files the patch touches
# and lishogi's ceval sources into a temporary folder, applies the patch there, and bundles
# lishogi's own ui/ceval/src/worker.ts and protocol.ts with esbuild (npm; `common/assets` and
# `common/common`, lishogi's page helpers, get two-line stand-ins; shogiops comes from npm,
# 0.18.0). The bundle, Shishi's package (target/web/pkg, built if missing) under
# vendors/shishi-chushogi/ as the patch vendors it, and a test page are served on localhost
# with lishogi's analysis-page headers (COOP same-origin, COEP credentialless, lishogi's CSP
# with 'unsafe-eval'), and headless Chromium drives chu analyses through lishogi's worker and
# protocol: evaluations arrive, the auto-stop fires at the patch's depth target, MultiPV 3
# shows three rows, threat mode works. Prints what happened; exits 1 on a failed check.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lishogi=$(cd "${1:?usage: scripts/peers/lishogi-patch-check.sh LISHOGI_CHECKOUT}" && pwd)
patch=$root/protocol-docs/lishogi-chushogi.patch
tools=$root/target/web-tools
work=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

# The patched sources, in a copy.
mkdir -p "$work/src"
for path in ui/ceval ui/shogi/src/engine-name.ts ui/@build/vendor/src/main.ts ui/@build/vendor/package.json; do
  mkdir -p "$work/src/$(dirname "$path")"
  cp -r "$lishogi/$path" "$work/src/$path"
done
(cd "$work/src" && git apply --check "$patch" && git apply "$patch")
echo "patch applied to a copy of $lishogi ($(git -C "$lishogi" rev-parse --short HEAD))"
target=$(sed -n 's/^const SHISHI_DEPTH = \([0-9]*\);/\1/p' "$work/src/ui/ceval/src/ctrl.ts")
extra=$(sed -n 's/.*return SHISHI_DEPTH + Math.min(extraDepth, \([0-9]*\));/\1/p' "$work/src/ui/ceval/src/ctrl.ts")

# esbuild, playwright-core and shogiops from npm.
if [ ! -d "$tools/node_modules/esbuild" ] || [ ! -d "$tools/node_modules/shogiops" ] || [ ! -d "$tools/node_modules/playwright-core" ]; then
  # shogiops: lishogi asks for ^0.21; 0.18.0 is the newest the npm registry serves here, and
  # ceval only takes its SFEN and USI helpers (fairy.ts).
  npm install --silent --prefix "$tools" esbuild shogiops@0.18.0 playwright-core@1
fi
[ -f "$root/target/web/pkg/shishi.wasm" ] || "$root/scripts/web/build-web.sh"

# The site: lishogi's ceval bundled, Shishi vendored where the patch puts it, the page.
site=$work/site
mkdir -p "$site/vendors/shishi-chushogi" "$work/shims/common"
cp "$root/target/web/pkg/shishi.js" "$root/target/web/pkg/shishi.worker.js" "$root/target/web/pkg/shishi.wasm" \
  "$site/vendors/shishi-chushogi/"
cp "$root/scripts/peers/lishogi-patch/analysis.html" "$root/scripts/peers/lishogi-patch/analysis.js" "$site/"
cat > "$work/shims/common/assets.ts" <<'TS'
export const assetUrl = (path: string, _opts?: unknown): string => '/' + path;
export const loadScript = (url: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url; s.onload = () => resolve(); s.onerror = reject;
    document.head.appendChild(s);
  });
TS
cat > "$work/shims/common/common.ts" <<'TS'
export const defined = <T>(v: T | undefined): v is T => v !== undefined;
TS
cat > "$work/entry.ts" <<'TS'
import { ThreadedWasmWorker } from './src/ui/ceval/src/worker';
(window as any).LishogiCeval = { ThreadedWasmWorker };
TS
NODE_PATH=$tools/node_modules "$tools/node_modules/.bin/esbuild" "$work/entry.ts" --bundle --format=iife \
  --alias:common/assets="$work/shims/common/assets.ts" --alias:common/common="$work/shims/common/common.ts" \
  --outfile="$site/ceval.js" --log-level=warning --tsconfig-raw={}
echo "bundled lishogi's ui/ceval/src/worker.ts and protocol.ts ($(wc -c < "$site/ceval.js") bytes)"

# lishogi's analysis-page headers.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$site" "$port" <<'PY' &
import http.server, sys, functools
CSP = ("default-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
       "frame-src 'self'; worker-src 'self' blob:; img-src data: *; script-src 'unsafe-eval' 'self'; "
       "base-uri 'none';")
class H(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "credentialless")
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()
    def log_message(self, *a): pass
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])),
                                functools.partial(H, directory=sys.argv[1])).serve_forever()
PY
server=$!
sleep 1
NODE_PATH=$tools/node_modules node "$root/scripts/web/web-driver.js" \
  "http://127.0.0.1:$port/analysis.html?target=$target&extra=$extra" 600000 > "$work/result.json"
python3 - "$work/result.json" "$target" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
target = int(sys.argv[2])
if not r.get("ok"):
    sys.exit(f"the page failed: {r.get('error')}")
failed = 0
for case in r["cases"]:
    print(f"{case['name']}: {case['evaluations']} evaluations, deepest {case['deepest']}, "
          f"max depth {case['maxDepth']}, rows {sorted(set(case['rows']))}, "
          + (f"auto-stop at {case['stoppedMs'] / 1000:.1f} s" if case["stoppedMs"] else "NO auto-stop"))
    good = (case["evaluations"] > 0 and case["stoppedMs"] and case["deepest"] >= case["maxDepth"]
            and set(case["rows"]) == {case["multiPv"]})
    failed += not good
    if not good:
        print("  WRONG")
print(f"lishogi's ceval with the patch: {len(r['cases']) - failed} passed, {failed} failed "
      f"(target depth {target} + extra)")
sys.exit(1 if failed else 0)
PY
