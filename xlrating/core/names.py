"""Names as people type them, compared as people mean them.

``fold`` is how two spellings of one name are found to be one: accents, case, punctuation and runs
of spaces are ignored (``"Éva  Kovács"``, ``"eva kovacs"`` and ``"EVA-KOVACS"`` fold alike). It is
for comparing and keying, never for showing: a name is shown as it was written.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_NOT_WORD = re.compile(r"[^\w]+")


@functools.lru_cache(maxsize=1 << 16)
def fold(name: str) -> str:
    """A name compared accent- and case-insensitively: ``"Éva Kovács"`` -> ``"eva kovacs"``.

    Kept for the last 65,536 names: a federation's history names its few thousand players
    hundreds of thousands of times, and a check folds each name where it is written."""
    if name.isascii():  # nothing to decompose (the common case)
        plain = name.casefold()
    else:
        decomposed = unicodedata.normalize("NFKD", name)
        plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(_NOT_WORD.sub(" ", plain).split())


def has_words(words: list[str], *names: str | None) -> bool:
    """Whether the names (those given) hold every one of ``words`` (folded, as :func:`fold` gives
    them): how a search by name matches, in any order (``"ines aubert"`` finds Inès Aubert)."""
    folded = fold(" ".join(name for name in names if name))
    return all(word in folded for word in words)


def folded(*names: str | None) -> str:
    """The names (those given) as one folded text, for :func:`has_folded` to search many times."""
    return fold(" ".join(name for name in names if name))


def has_folded(words: list[str], text: str) -> bool:
    """:func:`has_words` of a text already folded (:func:`folded`)."""
    return all(word in text for word in words)
