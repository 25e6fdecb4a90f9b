#!/usr/bin/env python3
"""The code's shape, measured from the source: the import graph between the top-level
modules of `src/` (from `crate::module` paths) and between the files of each module (from
`super::sibling` and `crate::module::sibling` paths), with any circle in either, and the
longest functions.

    scripts/code-shape.py [--top N]

Prints the circles (none is the goal: one module, one file below the other) and the N
longest functions (default 12) as `lines  file:line  name`. Exits 1 when there is a circle,
so that it stands in CI. The source is read through a small tokeniser: what is inside
strings, raw strings, character literals and comments is blanked first, so that a `'{'` or
a path in a doc comment counts for nothing; `async`, `const` and `unsafe` functions count.
"""

import argparse
import pathlib
import re
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
CRATE_PATH = re.compile(r"\bcrate::([a-z_]+)")
FN_START = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"(?:extern\s+\"[^\"]*\"\s+)?fn\s+([a-z_0-9]+)")
SUPER_PATH = re.compile(r"\bsuper::(\{[^}]*\}|[a-z_0-9]+)")


def blank(text: str) -> str:
    """`text` with the inside of every string, raw string, character literal and comment
    replaced by spaces (line ends kept), so that braces and paths are only code's."""
    out, i, n = [], 0, len(text)
    keep = lambda s: "".join(c if c == "\n" else " " for c in s)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(keep(text[i:end]))
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(keep(text[i:j]))
            i = j
        elif (c == "r" or text.startswith("br", i)) and re.match(r"b?r#*\"", text[i:i + 260]) \
                and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r"b?r(#*)\"", text[i:])
            close = '"' + m.group(1)
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append(text[i:i + m.end()] + keep(text[i + m.end():end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + keep(text[i + 1:j]) + '"')
            i = j + 1
        elif c == "'":
            # A character literal ('{', '\n', '\u{7b}'), or a lifetime ('a) left as it is.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                out.append("'" + " " * (m.end() - 2) + "'")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources():
    """(path, code) of every source file: blanked, without its test module."""
    return [(path, blank(strip_tests(path.read_text()))) for path in sorted(SRC.rglob("*.rs"))]


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
    for path, code in sources():
        here = top_module(path)
        if here in ("main", "lib") or path.parent.name == "commands":
            continue
        for target in CRATE_PATH.findall(code):
            if target != here:
                graph.setdefault(here, set()).add(target)
    return graph


def file_graphs() -> dict:
    """For each module folder, the graph between its files (not `mod.rs`, the parent): an
    edge where a file names a sibling as `super::sibling` or `crate::module::sibling`."""
    graphs: dict = {}
    for path, code in sources():
        rel = path.relative_to(SRC)
        if len(rel.parts) < 2 or path.name == "mod.rs":
            continue
        folder = path.parent
        siblings = {p.stem for p in folder.glob("*.rs") if p.name != "mod.rs"} | {
            p.name for p in folder.iterdir() if p.is_dir()}
        here = path.stem
        names = set()
        for group in SUPER_PATH.findall(code):
            names |= set(re.findall(r"[a-z_0-9]+", group)) if group.startswith("{") else {group}
        prefix = "crate::" + "::".join(rel.parts[:-1]) + "::"
        names |= set(re.findall(re.escape(prefix) + r"([a-z_0-9]+)", code))
        for name in names & siblings - {here}:
            graphs.setdefault(str(folder.relative_to(SRC.parent)), {}).setdefault(
                here, set()).add(name)
    return graphs


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
    for path, code in sources():
        lines = code.splitlines()
        i = 0
        while i < len(lines):
            m = FN_START.match(lines[i])
            if not m:
                i += 1
                continue
            depth, opened, j = 0, False, i
            while j < len(lines):
                line = lines[j]
                depth += line.count("{") - line.count("}")
                opened = opened or "{" in line
                if opened and depth <= 0:
                    break
                if not opened and line.rstrip().endswith(";"):
                    break  # a declaration without a body (trait method)
                j += 1
            if opened:
                found.append((j - i + 1, path.relative_to(SRC.parent), i + 1, m.group(1)))
            i += 1
    return found


def self_test() -> None:
    """The tokeniser and the circle finder on cases that once went wrong."""
    code = blank("fn f() {\n    let c = '{';\n    let s = \"{ crate::x }\";\n"
                 "    let r = r#\"}\"#; // { crate::y\n    /* { */ g::<'a>();\n}\n")
    assert code.count("{") == code.count("}") == 1, code
    assert "crate::" not in code and "'a" in code, code
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": {"c"}}) == []
    assert FN_START.match("    pub(crate) async fn run(") and FN_START.match("const fn k()")
    print("code-shape: 5 passed, 0 failed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--self-test", action="store_true",
                        help="check the tokeniser and the circle finder first")
    args = parser.parse_args()
    if args.self_test:
        self_test()
    groups = circles(import_graph())
    if groups:
        for group in groups:
            print("import circle: " + " <-> ".join(group))
    else:
        print("import circles between modules: none")
    file_groups = [(folder, g) for folder, graph in sorted(file_graphs().items())
                   for g in circles(graph)]
    for folder, group in file_groups:
        print(f"import circle in {folder}/: " + " <-> ".join(f"{f}.rs" for f in group))
    if not file_groups:
        print("import circles between the files of a module: none")
    groups += file_groups
    print(f"longest functions (lines, outside tests):")
    for lines, path, line, name in sorted(functions(), reverse=True)[: args.top]:
        print(f"  {lines:4}  {path}:{line}  {name}")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
