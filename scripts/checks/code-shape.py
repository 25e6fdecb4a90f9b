#!/usr/bin/env python3
"""The code's shape, measured from the source: the import graph between the top-level
modules of `src/` checked against the layer list of `docs/architecture.md`, the import
graph between the files of each module, any circle in either, and the longest functions.

    scripts/checks/code-shape.py [--top N] [--self-test]

The layers are the table under `## Layers` in `docs/architecture.md` (its only list): a
module may import only modules of the layers before its own. An import that runs up a
layer or across one, a module that is not in the table, and any circle (between modules,
or between the files of a module) is printed and makes the exit code 1, so that it stands
in CI. Then come the N longest functions (default 12) as `lines  file:line  name`.

Imports are followed as the compiler resolves them: `crate::module` paths and `use
crate::{a, b}` groups between modules; between the files of a module, `super::sibling` and
`crate::module::sibling` paths, and also a name the parent `mod.rs` brings in from a
sibling (`pub use sibling::Name`, `use sibling::*`) when a file names it as `super::Name`,
`crate::module::Name` or through `use super::*`. The source is read through a small
tokeniser: what is inside strings, raw strings, character literals and comments is blanked
first, so that a `'{'` or a path in a doc comment counts for nothing; test modules are left
out (tests may use anything); `async`, `const` and `unsafe` functions count.
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SRC = ROOT / "src"
MAP = ROOT / "docs" / "architecture.md"
CRATE_PATH = re.compile(r"\bcrate::([a-z_0-9]+)")
FN_START = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    r"(?:extern\s+\"[^\"]*\"\s+)?fn\s+([a-z_0-9]+)")
USE_STATEMENT = re.compile(r"(?<![\w:])(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")
# A file's own items (at the start of a line: not the methods of its `impl` blocks).
PUB_ITEM = re.compile(
    r"^pub(?:\([^)]*\))?\s+(?:(?:unsafe|const|async)\s+)*"
    r"(?:fn|struct|enum|const|static|type|trait|mod)\s+(\w+)", re.MULTILINE)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


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


def sources() -> dict:
    """`{path under src/: code}` of every source file: blanked, without its test module."""
    return {str(path.relative_to(SRC)): blank(strip_tests(path.read_text()))
            for path in sorted(SRC.rglob("*.rs"))}


def strip_tests(text: str) -> str:
    """The file without its `#[cfg(test)]` module (tests may use anything)."""
    cut = text.find("#[cfg(test)]\nmod tests")
    return text if cut < 0 else text[:cut]


def use_leaves(tree: str, prefix=()) -> list:
    """The leaves of a `use` tree as (path, name): `a::{b, c::D as E, *}` gives
    (['a', 'b'], 'b'), (['a', 'c', 'D'], 'E') and (['a', '*'], '*')."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree.strip()))
    brace = tree.find("{")
    if brace < 0:
        *head, last = [part for part in tree.split("::") if part]
        name, _, alias = last.partition("@")
        if name == "self":
            return [(list(prefix) + head, alias or (head or list(prefix))[-1])]
        return [(list(prefix) + head + [name], alias or name)]
    head = [part for part in tree[:brace].split("::") if part]
    inner = tree[brace + 1:tree.rindex("}")]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner + ","):
        depth += (c == "{") - (c == "}")
        if c == "," and depth == 0:
            if inner[start:i]:
                parts.append(inner[start:i])
            start = i + 1
    return [leaf for part in parts for leaf in use_leaves(part, tuple(prefix) + tuple(head))]


def uses(code: str) -> list:
    """Every leaf (path, name) of the file's `use` statements."""
    return [leaf for m in USE_STATEMENT.finditer(code) for leaf in use_leaves(m.group(1))]


def module_names(files: dict) -> set:
    """The crate's top-level modules (not `main` and `lib`)."""
    return {rel.split("/")[0].removesuffix(".rs") for rel in files} - {"main", "lib"}


def import_graph(files: dict) -> dict:
    """Module -> the modules it names: `crate::module` paths and `use crate::{...}` groups.
    The binary (`main.rs`, `commands/`) is left out: it may use anything."""
    modules, graph = module_names(files), {}
    for rel, code in files.items():
        here = rel.split("/")[0].removesuffix(".rs")
        if here in ("main", "lib", "commands"):
            continue
        targets = set(CRATE_PATH.findall(code))
        targets |= {path[1] for path, _ in uses(code) if len(path) > 1 and path[0] == "crate"}
        for target in targets & modules - {here}:
            graph.setdefault(here, set()).add(target)
    return graph


def public_names(code: str) -> set:
    """The names a file makes public: its own `pub` items (not its methods) and its `pub
    use` leaves."""
    names = set(PUB_ITEM.findall(code))
    for m in USE_STATEMENT.finditer(code):
        if m.group(0).startswith("pub"):
            names |= {name for _, name in use_leaves(m.group(1)) if name != "*"}
    return names


def file_graphs(files: dict) -> dict:
    """For each module folder, the graph between its files (`mod.rs`, the parent, is no
    node): an edge where a file names a sibling (`super::sibling`,
    `crate::module::sibling`), or a name that `mod.rs` brings in from a sibling (by name or
    by a glob) as `super::Name`, `crate::module::Name` or through `use super::*`."""
    graphs: dict = {}
    for parent in sorted(rel for rel in files if rel.endswith("/mod.rs")):
        folder = parent.removesuffix("/mod.rs")
        children = {rel: code for rel, code in files.items()
                    if rel.startswith(folder + "/") and rel != parent}
        siblings = {rel[len(folder) + 1:].split("/")[0].removesuffix(".rs") for rel in children}
        own = {name: next((code for rel, code in children.items()
                           if rel in (f"{folder}/{name}.rs", f"{folder}/{name}/mod.rs")), "")
               for name in siblings}
        # What the parent brings in from its children, by name: `Name -> sibling`.
        brought: dict = {}
        for path, name in uses(files[parent]):
            path = path[1:] if path[:1] == ["self"] else path
            if len(path) > 1 and path[0] in siblings:
                if name == "*":
                    brought.update({n: path[0] for n in public_names(own[path[0]])})
                else:
                    brought[name] = path[0]
        crate_prefix = ["crate"] + folder.split("/")
        for rel, code in children.items():
            if rel.count("/") != folder.count("/") + 1:
                continue  # a file of a folder below: that folder's own graph
            here = rel[len(folder) + 1:].removesuffix(".rs").removesuffix("/mod")
            named = set()
            for path, name in uses(code):
                if path[:1] == ["super"]:
                    rest = path[1:]
                elif path[:len(crate_prefix)] == crate_prefix:
                    rest = path[len(crate_prefix):]
                else:
                    continue
                if rest == ["*"]:
                    named |= set(IDENTIFIER.findall(code)) & brought.keys()
                elif rest:
                    named.add(rest[0])
            named |= set(re.findall(r"\bsuper::(\w+)", code))
            named |= set(re.findall(re.escape("::".join(crate_prefix)) + r"::(\w+)", code))
            targets = {brought.get(name, name) for name in named} & siblings - {here}
            for target in targets:
                graphs.setdefault(folder, {}).setdefault(here, set()).add(target)
    return graphs


def layers(text: str) -> dict:
    """`{module: layer number}` from the table under `## Layers` in the architecture map:
    rows `| N | \`module\`, \`module\` | what they are |`."""
    section = text.split("\n## Layers", 1)
    if len(section) < 2:
        return {}
    found = {}
    for line in section[1].split("\n## ", 1)[0].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            for name in re.findall(r"`([a-z_0-9]+)`", cells[1]):
                found[name] = int(cells[0])
    return found


def layer_problems(graph: dict, layer_of: dict, modules: set) -> list:
    """What breaks the layer list: a module it does not place, a name it places that is
    no module, and every import of a module of the same or a later layer."""
    problems = [f"module {m} is not in the layer table of docs/architecture.md"
                for m in sorted(modules - layer_of.keys())]
    problems += [f"the layer table names {m}, which is no module of src/"
                 for m in sorted(layer_of.keys() - modules)]
    for here in sorted(graph):
        for there in sorted(graph[here]):
            if here in layer_of and there in layer_of and layer_of[there] >= layer_of[here]:
                problems.append(f"{here} (layer {layer_of[here]}) imports {there} "
                                f"(layer {layer_of[there]}): only earlier layers may be imported")
    return problems


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


def functions(files: dict) -> list:
    """(lines, file, line number, name) of every function body outside test modules."""
    found = []
    for rel, code in files.items():
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
                found.append((j - i + 1, f"src/{rel}", i + 1, m.group(1)))
            i += 1
    return found


# The four circles that the first version of this check could not see (issue 57), each
# hidden as it was in the code: behind a name the parent `mod.rs` brings in by a glob, a
# `use super::*` in a file, a `pub use` that renames, and a `super::{...}` group.
HIDDEN_CIRCLES = {
    "analyse": {
        "analyse/mod.rs": "mod output; pub mod report; use output::*;",
        "analyse/output.rs": "use super::report;\npub fn after_move_view() {}",
        "analyse/report.rs": "fn f() { super::after_move_view(); }",
    },
    "mate": {
        "mate/mod.rs": "mod dfpn; mod proof_numbers; use dfpn::*; use proof_numbers::*;",
        "mate/dfpn.rs": "use super::*;\npub struct Solver;\nfn f(n: Numbers) {}",
        "mate/proof_numbers.rs": "use super::*;\npub struct Numbers;\nfn g(s: &Solver) {}",
    },
    "search": {
        "search/mod.rs": "mod searcher; mod solver; pub use searcher::Searcher as Engine;",
        "search/searcher.rs": "use super::solver::SolverPlan;\npub struct Searcher;",
        "search/solver.rs": "pub struct SolverPlan;\nfn h(s: &crate::search::Engine) {}",
    },
    "position": {
        "position/mod.rs": "pub mod movegen; pub mod rules; pub use rules::{Outcome, LionCapture};",
        "position/movegen.rs": "use super::{Position, LionCapture};\npub enum GenMode {}",
        "position/rules.rs": "use super::movegen::GenMode;\npub enum LionCapture {}",
    },
}


def self_test() -> None:
    """The tokeniser, the use-tree reader, the circle finder, the layer check, and each of
    the four hidden circles, on small trees written for them."""
    checks = 0

    def check(condition, what):
        nonlocal checks
        assert condition, what
        checks += 1

    code = blank("fn f() {\n    let c = '{';\n    let s = \"{ crate::x }\";\n"
                 "    let r = r#\"}\"#; // { crate::y\n    /* { */ g::<'a>();\n}\n")
    check(code.count("{") == code.count("}") == 1, code)
    check("crate::" not in code and "'a" in code, code)
    check(circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]], "a circle")
    check(circles({"a": {"b"}, "b": {"c"}}) == [], "no circle")
    check(FN_START.match("    pub(crate) async fn run(") and FN_START.match("const fn k()"), "fn")
    check(use_leaves("crate::{core::score::{self, Score}, x::Y as Z, w::*}") == [
        (["crate", "core", "score"], "score"), (["crate", "core", "score", "Score"], "Score"),
        (["crate", "x", "Y"], "Z"), (["crate", "w", "*"], "*")], "use tree")
    for module, tree in HIDDEN_CIRCLES.items():
        found = [group for graph in file_graphs(tree).values() for group in circles(graph)]
        check(len(found) == 1 and len(found[0]) == 2, f"{module}: {found}")
    tree = {"core/mod.rs": "", "records/mod.rs": "use crate::{core::X, session::text};",
            "session/mod.rs": "use crate::core::Y;"}
    table = layers("# Map\n## Layers\n| layer | modules |\n|---|---|\n| 1 | `core` |\n"
                   "| 2 | `records`, `gone` |\n| 3 | `session` |\n## Next\n| 9 | `x` |\n")
    check(table == {"core": 1, "records": 2, "gone": 2, "session": 3}, table)
    problems = layer_problems(import_graph(tree), table, module_names(tree))
    check(len(problems) == 2 and "gone" in problems[0] and "records (layer 2) imports "
          "session" in problems[1], problems)
    print(f"code-shape: {checks} passed, 0 failed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--self-test", action="store_true",
                        help="check the tokeniser, the import resolution and the checks first")
    args = parser.parse_args()
    if args.self_test:
        self_test()
    files = sources()
    graph = import_graph(files)
    problems = layer_problems(graph, layers(MAP.read_text()), module_names(files))
    for problem in problems:
        print("layers: " + problem)
    if not problems:
        print("layers: every import follows docs/architecture.md")
    groups = circles(graph)
    for group in groups:
        print("import circle: " + " <-> ".join(group))
    if not groups:
        print("import circles between modules: none")
    file_groups = [(folder, g) for folder, graph in sorted(file_graphs(files).items())
                   for g in circles(graph)]
    for folder, group in file_groups:
        print(f"import circle in src/{folder}/: " + " <-> ".join(f"{f}.rs" for f in group))
    if not file_groups:
        print("import circles between the files of a module: none")
    print("longest functions (lines, outside tests):")
    for lines, path, line, name in sorted(functions(files), reverse=True)[: args.top]:
        print(f"  {lines:4}  {path}:{line}  {name}")
    return 1 if problems or groups or file_groups else 0


if __name__ == "__main__":
    sys.exit(main())
