#!/usr/bin/env python3
"""Serves a folder on localhost with the headers a page needs for WebAssembly threads
(cross-origin isolation: COOP same-origin, COEP require-corp). Standard library only.

    scripts/web/serve-web.py [DIR] [--port 8080] [--plain]   (DIR: target/web, from scripts/web/build-web.sh)

--plain leaves the isolation headers out, as an ordinary static host does: the engine then
runs its one-thread build.
"""
import argparse
import functools
import http.server
import os


class Isolated(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}
    isolate = True

    def end_headers(self):
        if self.isolate:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


class Plain(Isolated):
    isolate = False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "web")
    ap.add_argument("dir", nargs="?", default=root)
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--plain", action="store_true", help="no cross-origin isolation headers")
    a = ap.parse_args()
    handler = functools.partial(Plain if a.plain else Isolated, directory=a.dir)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), handler)
    print(f"serving {os.path.abspath(a.dir)} at http://127.0.0.1:{a.port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
