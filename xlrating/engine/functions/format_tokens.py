"""The tokens of a number format (TEXT's ``format_text``): sections split at ``;``, each a list of
(kind, value) tokens; :class:`BadFormat` for a format Excel refuses. See :mod:`.number_format`."""

from __future__ import annotations

import re
from typing import Any


class BadFormat(Exception):
    """The format is not one Excel accepts."""


_COLOURS = {"black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"}
_CONDITION = re.compile(r"^(<=|>=|<>|<|>|=)\s*(-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)$")


# single characters of a number format with a meaning of their own
_MARKS = {".": "point", ",": "comma", "%": "percent", "/": "slash", "@": "at"}

def format_tokens(code: str) -> list[list[tuple[str, Any]]]:
    """``code`` split into sections of (kind, value) tokens."""
    sections: list[list[tuple[str, Any]]] = [[]]
    tokens = sections[0]
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        low = code[i:].lower()
        if c == ";":
            tokens = []
            sections.append(tokens)
            i += 1
        elif c == '"':
            end = code.find('"', i + 1)
            if end < 0:
                raise BadFormat(code)
            tokens.append(("lit", code[i + 1:end]))
            i = end + 1
        elif c == "\\":
            if i + 1 < n:
                tokens.append(("lit", code[i + 1]))
            i += 2
        elif c == "_":
            tokens.append(("lit", " "))
            i += 2
        elif c == "*":
            i += 2
        elif c == "[":
            end = code.find("]", i + 1)
            if end < 0:
                raise BadFormat(code)
            inner = code[i + 1:end]
            i = end + 1
            elapsed = inner.lower()
            if elapsed and len(set(elapsed)) == 1 and elapsed[0] in "hms":
                tokens.append(("elapsed", elapsed))  # [hhh] pads to three digits
            elif match := _CONDITION.match(inner.strip()):
                tokens.append(("cond", (match.group(1), float(match.group(2)))))
            elif inner.startswith("$"):
                tokens.append(("lit", inner[1:].split("-")[0]))
                tag = inner[1:].partition("-")[2]  # a locale id: hex xxyyzzzz, yy the calendar
                if re.fullmatch(r"[0-9A-Fa-f]{1,8}", tag) and (int(tag, 16) >> 16) & 0xFF == 6:
                    tokens.append(("calendar", "2"))  # 6: the Hijri calendar ([$-060409]), as B2
            elif elapsed in _COLOURS or elapsed.startswith("color"):
                pass
            else:
                raise BadFormat(code)
        elif c in "0#?":
            tokens.append(("digit", c))
            i += 1
        elif c in _MARKS:
            tokens.append((_MARKS[c], c))
            i += 1
        elif c in "eE" and i + 1 < n and code[i + 1] in "+-" and (c == "E" or code[i + 2:i + 3] in ("0", "#", "?")):
            tokens.append(("exp", code[i + 1]))  # a lowercase e+ without a digit next is the year: "e+" 1900+
            i += 2
        elif low.startswith("general"):
            tokens.append(("general", ""))
            i += 7
        elif low.startswith("am/pm"):
            tokens.append(("ampm", None))
            i += 5
        elif low.startswith("a/p"):
            tokens.append(("ap", (code[i], code[i + 2])))
            i += 3
        elif c in "bB" and code[i + 1:i + 2] in ("1", "2"):
            tokens.append(("calendar", code[i + 1]))  # B1 the Gregorian calendar, B2 the Hijri one
            i += 2
        elif c == "B" and i + 1 == n:
            raise BadFormat("B at the end of the format")  # "B" is #VALUE!, "B;" and "B " are not
        elif c.lower() in "ymdhsebg":
            j = i
            while j < n and code[j].lower() == c.lower():
                j += 1
            letter = "y" if c.lower() == "e" else c.lower()
            tokens.append(("date", letter * (j - i) if c.lower() != "e" else "yyyy"))
            i = j
        else:
            tokens.append(("lit", c))
            i += 1
    return sections


DATE_KINDS = {"date", "elapsed", "ampm", "ap"}


def is_date(section: list[tuple[str, Any]]) -> bool:
    return any(kind in DATE_KINDS for kind, _ in section)


def check_section(section: list[tuple[str, Any]]) -> None:
    kinds = {kind for kind, _ in section}
    if "at" in kinds and kinds & ({"digit", "general", "exp"} | DATE_KINDS):
        raise BadFormat("@ beside a number")
    if kinds & DATE_KINDS and kinds & {"exp", "general"}:
        raise BadFormat("a date beside a number")
    for k, (kind, _) in enumerate(section):  # E+ and E- take the exponent's digit placeholders next,
        following = k + 1                        # or after spaces ("0 E+ 0" writes 1 E +7)
        while following < len(section) and section[following] == ("lit", " "):
            following += 1
        if kind == "exp" and (following == len(section) or section[following][0] != "digit"):
            raise BadFormat("an exponent without digits")  # formulas' test.xlsx: "0##e+8800##" is #VALUE!

