"""The rooms keep their shape: the dependency contracts hold (engine is pure; results →
games → league → engine), no import cycle inside the web apps, no import hidden inside a
function to dodge one, and no web module grows past what one reader holds in mind."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB_APPS = ("league", "games", "results")
#: The longest a web module may be (migrations aside): about what one reader holds in mind.
MAX_MODULE_LINES = 500


def test_import_linter_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def import_cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The strongly connected groups of two or more ``modules`` (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def successors(module: str) -> list[str]:
        return sorted(graph.find_modules_directly_imported_by(module) & modules)

    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(successors(child))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return cycles


def test_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.z", imported="a.x")
    assert import_cycles(graph, {"a.x", "a.y", "a.z"}) == [["a.x", "a.y"]]


def test_no_import_cycle_inside_the_web_apps() -> None:
    graph = grimp.build_graph(*WEB_APPS, exclude_type_checking_imports=True)
    modules = {m for m in graph.modules if ".migrations" not in m}
    assert import_cycles(graph, modules) == []


def web_modules() -> Iterator[Path]:
    for app in WEB_APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def hidden_imports(tree: ast.Module) -> list[int]:
    """Line numbers of imports inside a function or class, except an ``AppConfig.ready``
    (where Django wants signal receivers connected)."""
    found: list[int] = []

    def visit(node: ast.AST, scope: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom) and scope not in (None, "ready"):
                found.append(child.lineno)
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
            elif isinstance(child, ast.ClassDef):
                visit(child, "<class body>")
            else:
                visit(child, scope)

    visit(tree, None)
    return found


def test_hidden_import_finder() -> None:
    source = (
        "import os\ndef f():\n    import json\nclass A:\n    def ready(self):\n        import re\n"
    )
    assert hidden_imports(ast.parse(source)) == [3]


@pytest.mark.parametrize("path", list(web_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_web_module_shape(path: Path) -> None:
    source = path.read_text()
    lines = source.count("\n")
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it by concern"
    assert hidden_imports(ast.parse(source)) == [], "import at module level (no hidden cycle)"
