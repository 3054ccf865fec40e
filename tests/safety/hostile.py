"""The hostile corpora, built once per test process into a temporary folder: the .xlsx corpus and
the .xls/.ods/.csv one (in a subfolder)."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from make_hostile_corpus import HostileCase, build
from make_hostile_other_formats import build_other_formats


@functools.cache
def corpus_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="xlrating-hostile-"))


@functools.cache
def hostile_corpus() -> dict[str, HostileCase]:
    """Every hostile .xlsx case by name (building takes about two seconds)."""
    return {case.name: case for case in build(corpus_folder())}


@functools.cache
def other_formats_corpus() -> dict[str, HostileCase]:
    """Every hostile .xls, .ods and .csv case by name (building takes about two seconds)."""
    return {case.name: case for case in build_other_formats(corpus_folder() / "other-formats")}


def remove_corpus() -> None:
    if hostile_corpus.cache_info().currsize or other_formats_corpus.cache_info().currsize:
        shutil.rmtree(corpus_folder(), ignore_errors=True)
