#!/usr/bin/env python3
"""The code's shape, measured from the source: the import graph between the top-level
modules of `src/` (from the `use crate::` lines and `crate::module::` paths) with any
circle in it, and the longest functions.

    scripts/code-shape.py [--top N]

Prints the circles between modules (none is the goal: one module below the other) and the
N longest functions (default 12) as `lines  file:line  name`. Exits 1 when there is a
circle, so that it can stand in a check.
"""

import argparse
import pathlib
import re
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
CRATE_PATH = re.compile(r"\bcrate::([a-z_]+)")
FN_START = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+([a-z_0-9]+)")


def top_module(path: pathlib.Path) -> str:
    """The top-level module a file belongs to (`src/search/pool.rs` -> `search`)."""
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".rs") if len(rel.parts) > 1 else rel.stem


def strip_tests(text: str) -> str:
    """The file without its `#[cfg(test)]` module (tests may use anything)."""
    cut = text.find("#[cfg(test)]\nmod tests")
    return text if cut < 0 else text[:cut]


def import_graph() -> dict:
    graph: dict = {}
    for path in SRC.rglob("*.rs"):
        here = top_module(path)
        if here in ("main", "lib"):
            continue
        for line in strip_tests(path.read_text()).splitlines():
            if line.lstrip().startswith("//"):
                continue
            for target in CRATE_PATH.findall(line):
                if target != here:
                    graph.setdefault(here, set()).add(target)
    return graph


def circles(graph: dict) -> list:
    """Every pair of modules that reach each other (the strongly connected groups)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def functions():
    """(lines, file, line number, name) of every function body outside test modules."""
    found = []
    for path in sorted(SRC.rglob("*.rs")):
        lines = strip_tests(path.read_text()).splitlines()
        i = 0
        while i < len(lines):
            m = FN_START.match(lines[i])
            if not m:
                i += 1
                continue
            depth, opened, j = 0, False, i
            while j < len(lines):
                code = lines[j].split("//")[0]
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if opened and depth <= 0:
                    break
                if not opened and code.rstrip().endswith(";"):
                    break  # a declaration without a body (trait method)
                j += 1
            if opened:
                found.append((j - i + 1, path.relative_to(SRC.parent), i + 1, m.group(1)))
            i += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    groups = circles(import_graph())
    if groups:
        for group in groups:
            print("import circle: " + " <-> ".join(group))
    else:
        print("import circles between modules: none")
    print(f"longest functions (lines, outside tests):")
    for lines, path, line, name in sorted(functions(), reverse=True)[: args.top]:
        print(f"  {lines:4}  {path}:{line}  {name}")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
