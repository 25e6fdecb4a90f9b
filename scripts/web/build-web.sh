#!/usr/bin/env bash
# Builds Shishi for the browser: the engine for wasm32-wasip1-threads (the same engine
# session and search as the native build, its threads as Web Workers; shishi.wasm) and for
# wasm32-wasip1 (one thread, for pages that are not cross-origin isolated;
# shishi-single.wasm), and the package folder target/web/pkg (both, shishi.js,
# shishi.worker.js, package.json, README.md), with the page and its tests beside it in
# target/web. Installs the Rust targets it needs.
# usage: scripts/web/build-web.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rustup target add wasm32-wasip1-threads wasm32-wasip1 >/dev/null 2>&1 || true
# The module takes up to 4 GiB of memory (hash tables), the most wasm32 addresses; no debug
# information (the package is what a browser downloads).
RUSTFLAGS="-C link-arg=--max-memory=4294967296" \
CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" \
  --target wasm32-wasip1-threads --bin shishi
# One thread: the search runs on the module's own stack, which needs the room a search
# thread has elsewhere (8 MB).
RUSTFLAGS="-C link-arg=--max-memory=4294967296 -C link-arg=-zstack-size=8388608" \
CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" \
  --target wasm32-wasip1 --bin shishi
out=$root/target/web
rm -rf "$out"
mkdir -p "$out/pkg"
cp "$root/target/wasm32-wasip1-threads/release/shishi.wasm" "$out/pkg/"
cp "$root/target/wasm32-wasip1/release/shishi.wasm" "$out/pkg/shishi-single.wasm"
cp "$root/web/engine/shishi.js" "$root/web/engine/shishi.worker.js" "$root/web/engine/README.md" \
  "$root/LICENSE" "$root/CHANGELOG.md" "$out/pkg/"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)
sed "s/@VERSION@/$version/" "$root/web/engine/package.json" > "$out/pkg/package.json"
cp -r "$root/web/test" "$out/test"
[ -d "$root/web/play" ] && cp -r "$root/web/play" "$out/play"
echo "built $out/pkg ($(du -h "$out/pkg/shishi.wasm" | cut -f1) shishi.wasm, $(du -h "$out/pkg/shishi-single.wasm" | cut -f1) shishi-single.wasm)"
