"""The package's import graph, read from the source: every import statement of every module (at
module level, inside a function and under ``TYPE_CHECKING`` alike) as an edge, and the circles in it.
Used by the whole package's test (tests/test_import_graph.py) and the engine's
(tests/engine/test_engine_import_graph.py)."""

from __future__ import annotations

import ast
from pathlib import Path

Edge = tuple[str, str, int]  # importer, imported, line


def modules_of(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (a package folder holding ``__init__.py``), by dotted name."""
    top = root
    while (top.parent / "__init__.py").exists():
        top = top.parent
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(top.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_edges(root: Path) -> list[Edge]:
    """(importer, imported, line) for every import statement of every module under ``root`` that
    names a module of ``root``'s package or of the package above it; ``from P import name`` is an
    edge to ``P.name`` when that is a module, else to ``P``."""
    modules = modules_of(root)
    known = set(modules) | (set(modules_of(root.parent)) if (root.parent / "__init__.py").exists() else set())

    def resolve(name: str) -> str:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    edges = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [resolve(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else resolve(base)
                           for alias in node.names]
            edges.extend((name, target, node.lineno) for target in targets if target and target != name)
    return edges


def first_cycle(edges: list[Edge], inside: str) -> list[Edge] | None:
    """A circle of imports among the modules under ``inside``, as its edges, or None."""
    graph: dict[str, list[Edge]] = {}
    for edge in edges:
        if edge[1].startswith(inside + ".") or edge[1] == inside:
            graph.setdefault(edge[0], []).append(edge)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[Edge] = []

    def visit(module: str) -> list[Edge] | None:
        state[module] = 1
        for edge in graph.get(module, []):
            target = edge[1]
            if state.get(target) == 1:
                start = next((i for i, e in enumerate(path) if e[0] == target), len(path))
                return [*path[start:], edge]
            if target not in state:
                path.append(edge)
                found = visit(target)
                if found:
                    return found
                path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def cycle_text(cycle: list[Edge]) -> str:
    return "; ".join(f"{importer} imports {imported} (line {line})" for importer, imported, line in cycle)
