"""The formulas the engine's own reader (:func:`.reader.parse`) leaves to ``formulas``' tokenizer.

``formulas`` turns a formula into tokens and feeds them in postfix order to an AST builder; our
:class:`_TreeBuilder` takes that feed and builds the engine's plain nodes instead of a ``schedula``
dispatcher. ``formulas`` drops the ``$`` anchors of references, so they are read back from each
token's source text. Loading the tokenizer compiles its large expressions (a few tens of ms), so this
module is imported only for a formula the engine's reader does not take.
"""

from __future__ import annotations

from typing import Any

from formulas.parser import Parser
from formulas.tokens.function import Function
from formulas.tokens.operand import Empty, Number, Range, String
from formulas.tokens.operand import Error as ErrorToken
from formulas.tokens.operator import Operator

from xlrating.excel_errors import ExcelError

from ..read.grid import MAX_COL, MAX_ROW
from .tree import Call, Const, ExternalReference, FormulaSyntaxError, Node, Op, Ref, reference


def _range_node(token: Range) -> Ref:
    attr = token.attr
    if attr.get("is_reference"):
        if attr["name"].startswith("["):  # [1]!Rate: a name of another workbook whose link caches no cells for it
            raise ExternalReference(attr["name"])
        return Ref(None, 0, 0, 0, 0, name=attr["name"].upper())
    if attr.get("filename") or attr.get("excel_id"):
        raise ExternalReference(token.source[:token.end_match].strip())
    if attr.get("indirect"):  # INDIRECT("B1:B3") with constant text: formulas resolved it, never moves
        return _fixed_range(attr)
    text = token.source[:token.end_match].strip()
    sheet = (attr.get("sheet") or "").replace("''", "'") or None  # 'Bob''s'!A1 is on sheet Bob's
    return reference(sheet, text.rsplit("!", 1)[-1], text)


def _fixed_range(attr: dict[str, Any]) -> Ref:
    r1, r2 = int(attr.get("r1") or 0), int(attr.get("r2") or 0)
    c1, c2 = int(attr.get("n1") or 0), int(attr.get("n2") or 0)
    r1, r2 = (1, MAX_ROW) if r1 == 0 and r2 in (0, MAX_ROW) else (r1, r2)
    c1, c2 = (1, MAX_COL) if c1 == 0 and c2 == 0 else (c1, c2)
    return Ref(attr.get("sheet") or None, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def _operand(token: Any) -> Node:
    if isinstance(token, Range):
        return _range_node(token)
    if isinstance(token, ErrorToken):
        return Const(ExcelError(token.name.upper()))
    if isinstance(token, Empty):  # an omitted argument: =ROUND(A1,)
        return Const(None)
    if isinstance(token, String):  # the text itself: a quote is written doubled inside a literal
        return Const(token.name.replace('""', '"'))
    if isinstance(token, Number):
        name = token.name.upper()
        if name in ("TRUE", "FALSE"):
            return Const(name == "TRUE")
        return Const(float(name))
    raise FormulaSyntaxError(f"unsupported operand {token.name!r}")


class _TreeBuilder:
    """Receives ``formulas``' postfix token feed and keeps a stack of nodes."""

    def __init__(self, match: Any = None, **_: Any):
        self.match = match
        self.stack: list[Any] = []

    def __len__(self) -> int:
        return len(self.stack)

    def __getitem__(self, index: int) -> Any:
        return self.stack[index]

    def pop(self) -> Any:
        return self.stack.pop()

    def append(self, token: Any) -> None:
        if isinstance(token, (Operator, Function)):
            count = token.get_n_args
            if count > len(self.stack):
                raise FormulaSyntaxError("an operator is missing an operand")
            args = tuple(self.stack[len(self.stack) - count:]) if count else ()
            del self.stack[len(self.stack) - count:]
            if isinstance(token, Function):
                self.stack.append(Call(token.name.upper(), args))
            else:
                self.stack.append(Op(token.name, args))
        else:
            self.stack.append(_operand(token))

    def finish(self) -> None:
        pass


class _TreeParser(Parser):
    """``formulas``' parser feeding :class:`_TreeBuilder`: only its tokenizer is used, nothing is
    compiled, so the tokens need not be bound to the engine's functions."""

    ast_builder = _TreeBuilder


def parse_with_formulas(formula: str) -> Node:
    """The tree of ``formula`` (normalised, starting with ``=``) read by ``formulas``' tokenizer."""
    try:
        _, builder = _TreeParser().ast(formula)
    except FormulaSyntaxError:
        raise
    except Exception as exc:  # noqa: BLE001 - formulas raises its FormulaError family and a few others
        raise FormulaSyntaxError(f"cannot parse {formula!r} ({type(exc).__name__})") from None
    if isinstance(builder.stack[0], Call) and builder.stack[0].name == "ARRAY" and formula.lstrip().startswith("{"):
        raise FormulaSyntaxError("array constants are not supported")
    tree: Node = builder.stack[0]
    return tree
