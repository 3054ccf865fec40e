"""In which order to evaluate: a dependency graph of blocks, and of cells where blocks form a cycle.

Block B depends on block A when a reference of B (over all of B's rows) overlaps A's cells, or the
cells A's array result may spill into. Blocks are evaluated in topological order of the strongly
connected components of that graph. A component of one block that does not read itself is
evaluated for all its rows at once; a block reading its own column (a running total) or blocks
reading each other (rating before / rating after) are ordered cell by cell. Cells in a cycle (a
circular reference) come together as one :class:`Cycle`, after everything they read outside it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from ..formula.tree import Ref, column_letters, walk
from .blocks import Block

MAX_SPILL_WIDTH = 64


def _intervals(blocks: list[Block]) -> dict[tuple[str, int], list[tuple[int, int, int]]]:
    index: dict[tuple[str, int], list[tuple[int, int, int]]] = defaultdict(list)
    for b in blocks:
        height, width = b.spill
        sheet = b.sheet.name.upper()
        bottom = b.last + height - 1
        for col in range(b.col, b.col + min(width, MAX_SPILL_WIDTH)):
            index[(sheet, col)].append((b.first, bottom, b.id))
    return index


def _overlapping(index: dict[tuple[str, int], list[tuple[int, int, int]]], columns: dict[str, list[int]],
                 region: tuple[str, int, int, int, int]) -> Iterator[int]:
    sheet, c1, c2, top, bottom = region
    for col in columns.get(sheet, ()):
        if c1 <= col <= c2:
            for start, end, bid in index[(sheet, col)]:
                if start <= bottom and top <= end:
                    yield bid


def _components(nodes: list[int], edges: dict[int, set[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components, iteratively (dependencies come first)."""
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    result: list[list[int]] = []
    counter = 0
    for root in nodes:
        if root in order:
            continue
        work = [(root, iter(edges.get(root, ())))]
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in order:
                    order[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], order[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
    return result


def block_order(blocks: list[Block]) -> list[tuple[list[Block], bool]]:
    """Groups of blocks in evaluation order, each flagged True when it needs cell-level ordering."""
    by_id = {b.id: b for b in blocks}
    index = _intervals(blocks)
    columns: dict[str, list[int]] = defaultdict(list)
    for sheet, col in index:
        columns[sheet].append(col)
    depends_on: dict[int, set[int]] = {}
    for b in blocks:
        depends_on[b.id] = {a for region in b.regions for a in _overlapping(index, columns, region)}
    components = _components([b.id for b in blocks], depends_on)
    # Tarjan emits a component after everything it depends on: already a valid evaluation order
    return [([by_id[i] for i in sorted(c)], len(c) > 1 or c[0] in depends_on[c[0]]) for c in components]


def _reads_only_rows_above(block: Block) -> bool:
    """A running total (``=C4+B5`` in C5): every reference to its own column is to a row above."""
    if block.tree is None or block.spill != (1, 1):
        return False
    own_sheet = block.sheet.name.upper()
    for ref in (n for n in walk(block.tree) if isinstance(n, Ref)):
        if ref.name:
            return False
        if (ref.sheet or block.sheet.name).upper() != own_sheet or not ref.c1 <= block.col <= ref.c2:
            continue
        if not (ref.is_cell and ref.rel_r1 and ref.r1 < block.anchor):
            return False
    return True


@dataclass
class Cycle:
    """Cells that read each other (a circular reference), in the order they are first reached."""

    cells: list[tuple[Block, int]]

    def where(self) -> str:
        block, row = self.cells[0]
        return f"{block.sheet.name}!{column_letters(block.col)}{row}"


def cell_order(group: list[Block]) -> list[tuple[Block, int] | Cycle]:
    """The cells of mutually dependent blocks in an order that evaluates inputs first; cells that
    depend on each other in a circle come as one :class:`Cycle`."""
    if len(group) == 1 and _reads_only_rows_above(group[0]):
        block = group[0]
        return [(block, row) for row in range(block.first, block.last + 1)]
    members: dict[tuple[str, int], list[tuple[int, int]]] = defaultdict(list)  # (sheet, col) -> (row, block id)
    for b in group:
        width = b.spill[1]
        for col in range(b.col, b.col + min(width, MAX_SPILL_WIDTH)):
            members[(b.sheet.name.upper(), col)].extend((row, b.id) for row in range(b.first, b.last + 1))
    for cells in members.values():
        cells.sort()
    rows_of = {key: [row for row, _ in cells] for key, cells in members.items()}
    edges: dict[tuple[int, int], set[tuple[int, int]]] = {}
    lookup = {}
    nodes: list[tuple[int, int]] = []

    def covered(sheet: str, c1: int, c2: int, top: int, bottom: int) -> Iterator[tuple[int, int]]:
        for (cell_sheet, col), cells in members.items():
            if cell_sheet == sheet and c1 <= col <= c2:
                rows = rows_of[(cell_sheet, col)]
                yield from ((bid, r) for r, bid in cells[bisect_left(rows, top):bisect_right(rows, bottom)])

    for b in group:
        refs = [n for n in walk(b.tree) if isinstance(n, Ref) and not n.name] if b.tree is not None else []
        areas = [(ref, (ref.sheet or b.sheet.name).upper()) for ref in refs]
        for row in range(b.first, b.last + 1):
            key = (b.id, row)
            lookup[key] = (b, row)
            nodes.append(key)
            deps: set[tuple[int, int]] = set()
            shift = row - b.anchor
            for ref, sheet in areas:
                top = ref.r1 + (shift if ref.rel_r1 else 0)
                bottom = ref.r2 + (shift if ref.rel_r2 else 0)
                deps.update(covered(sheet, ref.c1, ref.c2, top, bottom))
            if b.tree is None:  # read by formulas only: depend on whatever its inputs cover, whole rows
                for sheet, c1, c2, top, bottom in b.regions:
                    deps.update(covered(sheet, c1, c2, top, bottom))
            edges[key] = deps
    steps: list[tuple[Block, int] | Cycle] = []
    for component in _components(nodes, edges):  # type: ignore[arg-type]
        if len(component) == 1 and component[0] not in edges[component[0]]:
            steps.append(lookup[component[0]])
        else:
            steps.append(Cycle([lookup[key] for key in sorted(component)]))
    return steps
