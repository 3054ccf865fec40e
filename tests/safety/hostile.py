"""The hostile corpus, built once per test process into a temporary folder."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from make_hostile_corpus import HostileCase, build


@functools.cache
def corpus_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="xlrating-hostile-"))


@functools.cache
def hostile_corpus() -> dict[str, HostileCase]:
    """Every hostile case by name (building takes about two seconds)."""
    return {case.name: case for case in build(corpus_folder())}


def remove_corpus() -> None:
    if hostile_corpus.cache_info().currsize:
        shutil.rmtree(corpus_folder(), ignore_errors=True)
