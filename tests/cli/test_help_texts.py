"""Every command's and subcommand's --help as a user reads it: click shows a docstring as written,
so no reStructuredText or Markdown markup (``rank mers``, :mod:`...`, `xlrating ...`) may reach
the terminal; the texts say the commands in plain words."""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from xlrating.cli import main

MARKUP = re.compile(r"``|:(?:mod|func|class|meth|attr|data|exc|obj|ref|doc):|`")


def every_command() -> list[tuple[str, ...]]:
    context = click.Context(main)
    found: list[tuple[str, ...]] = [()]

    def walk(group: click.Group, prefix: tuple[str, ...]) -> None:
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            assert command is not None
            found.append((*prefix, name))
            if isinstance(command, click.Group):
                walk(command, (*prefix, name))

    walk(main, ())
    return found


COMMANDS = every_command()


def test_every_command_and_subcommand_is_walked() -> None:
    for words in (("quotas",), ("whatif", "mers"), ("whatif", "eras"), ("explain", "mers"), ("explain", "dci"),
                  ("explain", "dippouch"), ("import",), ("export", "wdd"), ("export", "ema-workbook"),
                  ("players", "merge"), ("players", "undo"), ("rank", "mers"), ("libreoffice", "prepare")):
        assert words in COMMANDS, words


@pytest.mark.parametrize("words", COMMANDS, ids=lambda words: " ".join(words) or "xlrating")
def test_help_shows_no_markup(words: tuple[str, ...]) -> None:
    ran = CliRunner().invoke(main, [*words, "--help"], terminal_width=100)
    assert ran.exit_code == 0, ran.output
    assert ran.output.startswith("Usage: ")
    shown = [line for line in ran.output.splitlines() if MARKUP.search(line)]
    assert shown == [], f"xlrating {' '.join(words)} --help shows markup: {shown}"
