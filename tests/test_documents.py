"""The documents hold to the code: what the README, docs/ and the --help texts name exists, and
docs/interfaces.md and docs/rating-rules.md say what the code does (function signatures, input
columns, command options, finding codes, web addresses, and every worked example's value)."""

from __future__ import annotations

import ast
import glob
import re
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from xlrating import dci, dippouch, mers
from xlrating.cli import COMMANDS, main
from xlrating.core.table_columns import DCI_SHOWN_COLUMNS, DIPPOUCH_SHOWN_COLUMNS
from xlrating.functions import FUNCTIONS, call
from xlrating.sheets.validate.findings import CATALOGUE

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
INTERFACES = REPO / "docs" / "interfaces.md"
RULES = REPO / "docs" / "rating-rules.md"
DOCUMENTS = (README, *sorted((REPO / "docs").glob("*.md")))  # the front page and every document it links
SCREENSHOTS = REPO / "docs" / "images"  # pictures the documents show, made from the running site
# The repository's own folders and files: a backticked path starting with one of them names a file
# of the repository (others, such as demo-out/ or xlrating-files/, are what commands write).
ROOTS = ("benchmarks", "docs", "examples", "libreoffice", "macros", "requirements", "tests", "workbook_templates",
         "xlrating", "Makefile", "pyproject.toml", "README.md")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def section(document: str, heading: str) -> str:
    """The text under the heading that starts with ``heading`` up to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    start = next(m for m in re.finditer(r"^#+ .*$", document, re.MULTILINE) if m.group().startswith(heading))
    end = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(document, start.end())
    return document[start.end():end.start() if end else len(document)]


def table_rows(block: str) -> list[list[str]]:
    """The cells of every table row in ``block`` (header and divider rows included)."""
    rows = []
    for line in block.splitlines():
        line = line.strip()  # a table inside a list item is indented
        if line.startswith("|"):
            cells = re.split(r"(?<!\\)\|", line)[1:-1]
            rows.append([cell.strip().replace("\\|", "|") for cell in cells])
    return rows


def first_table(block: str) -> list[list[str]]:
    """The rows of the first table in ``block``."""
    lines = block.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return table_rows("\n".join(lines[start:end]))


def all_commands() -> dict[str, click.Command]:
    """Every command by its words ("rank", "libreoffice build"), groups included."""
    found: dict[str, click.Command] = {}
    context = click.Context(main)

    def walk(group: click.Group, prefix: str) -> None:
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            assert command is not None
            found[f"{prefix}{name}"] = command
            if isinstance(command, click.Group):
                walk(command, f"{prefix}{name} ")

    walk(main, "")
    return found


def help_texts() -> list[str]:
    texts = [main.help or ""]
    for command in all_commands().values():
        texts.append(command.help or "")
        texts.extend(getattr(p, "help", None) or "" for p in command.params)
    return texts


# --- what the documents and help texts name exists -----------------------------------------------

def test_the_repository_roots_exist():
    assert [root for root in ROOTS if not (REPO / root).exists()] == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_repository_path_a_document_names_exists(document: Path):
    content = text(document)
    named = set(re.findall(r"`([^`\s]+)`", content))
    missing = []
    for name in named:
        in_repository = name.split("/")[0] in ROOTS and "/" in name and "{" not in name
        if in_repository and not glob.glob(str(REPO / name.rstrip("/"))):
            missing.append(name)
    for target in re.findall(r"(?<!!)\[[^\]]*\]\(([^)\s#]+)(?:#[^)]*)?\)", content):  # markdown links to files
        if not target.startswith(("http://", "https://")) and not (document.parent / target).exists():
            missing.append(target)
    assert sorted(missing) == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_picture_a_document_shows_is_a_screenshot_of_docs_images(document: Path):
    pictures = [(document.parent / target).resolve() for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text(document))]
    assert [p for p in pictures if p.parent != SCREENSHOTS or p.suffix != ".png"] == []
    assert [p.name for p in pictures if not p.exists()] == []


def test_every_link_to_a_heading_of_the_docs_finds_it():
    def anchors(path: Path) -> set[str]:
        slugs = set()
        for heading in re.findall(r"^#+ (.*)$", text(path), re.MULTILINE):
            slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
            slugs.add(slug)
        return slugs

    broken = []
    for document in DOCUMENTS:
        for target, anchor in re.findall(r"\]\(([^)\s#]*)#([^)\s]+)\)", text(document)):
            linked = (document.parent / target) if target else document
            if anchor not in anchors(linked):
                broken.append(f"{document.name}: {target}#{anchor}")
    assert broken == []


def test_the_help_texts_point_at_the_documents_and_every_document_they_name_exists():
    texts = help_texts()
    top = main.help or ""
    assert "docs/interfaces.md" in top and "docs/rating-rules.md" in top
    named = {m for t in texts for m in re.findall(r"[\w./-]+\.md\b", t)}
    assert named and {n for n in named if not (REPO / n).is_file()} == set()
    assert not any(re.search(r"RATING_RULES|INTERFACES\.md", t) for t in texts)  # the old, unreachable names


def test_the_readme_starts_with_its_two_commands_and_links_every_document():
    readme = text(README)
    assert re.match(r"# xlrating\n\n```sh\nmake demo\nmake test\n```\n", readme)
    assert len(readme.splitlines()) < 200  # a front page; the reference is in docs/
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)", readme))
    assert {f"docs/{p.name}" for p in (REPO / "docs").glob("*.md")} <= linked


def test_the_readme_names_no_document_outside_the_repository():
    for document in DOCUMENTS:
        assert not re.search(r"RATING_RULES|INTERFACES\.md", text(document)), document.name


def _readme_commands() -> list[list[str]]:
    """The commands of the README's command table, as command words (["libreoffice", "build"])."""
    rows = first_table(section(text(README), "## Command line"))
    commands = []
    for row in rows[2:]:
        chunks = re.findall(r"`([^`]+)`", row[0])
        group: list[str] = []
        for chunk in chunks:
            words = chunk.split()
            words = words[1:] if words[0] == "xlrating" else group + words
            command: click.Command = main
            path: list[str] = []
            for word in words:
                if isinstance(command, click.Group) and word in command.list_commands(click.Context(main)):
                    command = command.get_command(click.Context(main), word)  # type: ignore[assignment]
                    path.append(word)
                else:
                    break
            assert path and (not group or len(path) > len(group)), f"README names a command that is not one: {chunk}"
            if isinstance(command, click.Group) or not group:
                group = path[:1] if len(path) > 1 else group
            commands.append(path)
    return commands


def test_every_command_of_the_readme_table_has_a_working_help():
    commands = _readme_commands()
    assert {c[0] for c in commands} == set(COMMANDS)  # every command is in the table
    assert ["libreoffice", "install"] in commands
    for words in commands:
        result = CliRunner().invoke(main, [*words, "--help"])
        assert result.exit_code == 0, (words, result.output)
        assert result.output.startswith(f"Usage: main {' '.join(words)}") or \
            result.output.startswith(f"Usage: xlrating {' '.join(words)}"), result.output


# --- docs/interfaces.md says what the code does ---------------------------------------------------

def test_the_documented_excel_functions_are_the_function_table():
    block = section(text(INTERFACES), "## Excel functions")
    documented = [m.group(1) for m in re.finditer(r"^\| `([A-Z_]+\([^`]*\))` \|", block, re.MULTILINE)]
    assert sorted(documented) == sorted(f.signature for f in FUNCTIONS)
    for function in FUNCTIONS:  # and every argument is described
        for argument in function.arguments:
            assert f"`{argument.name}`" in block, (function.name, argument.name)


@pytest.mark.parametrize("title, columns", [("Dip Pouch results", dippouch.RESULT_COLUMNS),
                                            ("DCI matches", dci.MATCH_COLUMNS),
                                            ("MERS results", mers.RESULT_COLUMNS)])
def test_the_documented_input_columns_are_the_readers_columns(title: str, columns: Any):
    block = section(text(INTERFACES), "## Input tables").split(f"**{title}**")[1].split("**")[0]
    documented = [(row[0].strip("`"), row[1] == "yes") for row in table_rows(block)[2:]]
    assert documented == [(c.name, c.required) for c in columns]


@pytest.mark.parametrize("title, columns", [("A Dip Pouch results table may also give", DIPPOUCH_SHOWN_COLUMNS),
                                            ("A DCI matches table may also give", DCI_SHOWN_COLUMNS)])
def test_the_columns_only_the_store_keeps_are_documented_with_their_other_headers(title: str, columns: Any):
    paragraph = section(text(INTERFACES), "#### How the store keeps events and tournaments").split(
        f"**{title}**")[1].split("\n- ")[0]
    for column in columns:
        for header in (column.name, *column.aliases):
            assert f"`{header}`" in paragraph, (title, header)


def _options(command: click.Command) -> tuple[set[str], set[str]]:
    long, short = set(), set()
    for param in command.params:
        # a flag's pair (--ask/--no-ask) is documented as both
        for opt in [*param.opts, *param.secondary_opts] if isinstance(param, click.Option) else []:
            (long if opt.startswith("--") else short).add(opt)
    long.discard("--help")
    return long, short


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_section_documents_exactly_its_options(name: str):
    headings = [h for h in re.findall(r"^### .*$", text(INTERFACES), re.MULTILINE) if h.startswith(f"### `xlrating {name}")]
    assert len(headings) == 1, f"one section for xlrating {name}"
    block = section(text(INTERFACES), headings[0])
    commands = [c for words, c in all_commands().items() if words == name or words.startswith(f"{name} ")]
    long = set().union(*(_options(c)[0] for c in commands))
    short = set().union(*(_options(c)[1] for c in commands))
    assert set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", block)) == long
    assert {s for s in short if not re.search(rf"(?<![\w-]){s}(?![\w-])", block)} == set()


def test_the_documented_finding_codes_are_the_validators():
    block = section(text(INTERFACES), "#### Checking a results sheet")
    documented = {row[0].strip("`"): row[1] for row in table_rows(block)[2:]}
    assert documented == {code: severity for code, (severity, _) in CATALOGUE.items()}


def test_the_documented_web_addresses_are_the_servers(tmp_path: Path):
    from starlette.routing import Mount

    from xlrating.web.app import Settings, create_app

    app = create_app(Settings(db=str(tmp_path / "store.db"), check_processes=1))
    served = set()
    for route in app.routes:
        if isinstance(route, Mount):
            served.add(("GET", route.path + "/..."))
        else:
            served.update((method, route.path) for method in route.methods - {"HEAD"})
    block = section(text(INTERFACES), "## Web addresses")
    documented = {(row[0], path) for row in table_rows(block) if row[0] in ("GET", "POST")
                  for path in re.findall(r"`(/[^`]*)`", row[1])}
    assert documented == served


# --- docs/rating-rules.md: every worked example is what the code computes ------------------------

def _examples() -> list[tuple[str, str, str]]:
    rows = []
    for row in table_rows(text(RULES)):
        if len(row) == 3 and re.fullmatch(r"`(dippouch|dci|mers)\..*`", row[1]):
            rows.append((row[0].strip("`"), row[1].strip("`"), row[2]))
    return rows


def _agrees(value: Any, shown: str) -> bool:
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return isinstance(value, float) and abs(value - float(shown)) <= 0.5 * 10 ** -decimals + 1e-12


def _literal(argument: str) -> Any:
    argument = argument.strip()
    if argument in ("TRUE", "FALSE"):
        return argument == "TRUE"
    if re.fullmatch(r'"[^"]*"', argument):
        return argument[1:-1]
    return float(argument)  # anything else (a range, DATE(...)) raises ValueError


def test_the_worked_examples_are_many_and_cover_every_system():
    examples = _examples()
    assert len(examples) >= 30
    assert {python.split(".")[0] for _, python, _ in examples} == {"dippouch", "dci", "mers"}


@pytest.mark.parametrize("excel, python, shown", _examples(), ids=[excel for excel, _, _ in _examples()])
def test_a_worked_example_gives_its_value_in_python_and_as_an_excel_function(excel: str, python: str, shown: str):
    four = re.search(r"`FOUR_RESULTS` is `(\[.*?\])`", text(RULES), re.DOTALL)
    assert four is not None
    names = {"dippouch": dippouch, "dci": dci, "mers": mers, "FOUR_RESULTS": ast.literal_eval(four.group(1))}
    assert _agrees(float(eval(python, names)), shown), (python, eval(python, names), shown)
    name, arguments = re.fullmatch(r"=([A-Z_]+)\((.*)\)", excel).groups()  # type: ignore[union-attr]
    try:
        values = [_literal(a) for a in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", arguments)]
    except ValueError:
        return  # ranges and DATE(...): the Python form above is the check
    assert _agrees(call(name, values), shown), (excel, call(name, values), shown)


def test_the_rating_gap_table_excerpt_is_the_lookup_table():
    block = section(text(RULES), "## 2. DCI rating")
    rows = [row for row in table_rows(block) if re.fullmatch(r"(\d+ to \d+|over \d+)", row[0])]
    assert len(rows) >= 5
    for gap, high, low in rows:
        bounds = [int(n) for n in re.findall(r"\d+", gap)]
        ends = bounds if len(bounds) == 2 else [bounds[0] + 1, bounds[0] + 1000]
        for end in ends:
            assert dci.win_probability(1600 + end, 1600, "table") == float(high), (gap, end)
            assert dci.win_probability(1600, 1600 + end, "table") == float(low), (gap, end)
        if len(bounds) == 2:  # the range is the whole row: one point beyond either end differs
            assert dci.win_probability(1600 + bounds[1] + 1, 1600, "table") != float(high), gap
            if bounds[0] > 0:
                assert dci.win_probability(1600 + bounds[0] - 1, 1600, "table") != float(high), gap


def test_the_k_tier_table_is_the_tier_data():
    block = section(text(RULES), "## 2. DCI rating")
    rows = [row for row in table_rows(block) if re.fullmatch(r"\d+", row[0]) and row[1].startswith("`")]
    assert [(float(k), name.strip("`")) for k, name, *_ in rows] == [(k, name) for name, k in dci.TIERS]
    for k, _, spellings, _ in rows:
        for spelling in re.findall(r"`([^`]+)`", spellings.replace("championship(s)", "championships")):
            assert dci.k_value(spelling) == float(k), spelling


def test_the_mers_tables_are_what_the_code_computes():
    block = section(text(RULES), "## 3. MERS")
    rows = table_rows(block)
    sizes = next(row for row in rows if row[0] == "results in Part A")
    counted = next(row for row in rows if row[0] == "counted results PN")
    for pn, size in zip(counted[1:], sizes[1:]):
        for n in range(int(pn.split()[0]), int(pn.split()[-1]) + 1):
            assert mers.part_a_size(n) == int(size), (n, size)
    cases = next(row for row in rows if row[0] == "rounding")
    places = [tuple(int(n) for n in re.findall(r"\d+", case)) for case in cases[1:4]]  # (place, players)
    modes = {m.group(1): row for row in rows if (m := re.match(r"`(\w+)`", row[0]))}
    assert set(mers.ROUNDINGS) <= set(modes)
    for rounding in mers.ROUNDINGS:
        for (place, players), shown in zip(places, modes[rounding][1:4], strict=True):
            assert _agrees(mers.base_rank(players, place, rounding), shown), (rounding, place, players)


def test_the_ema_prefix_table_is_the_country_data():
    from xlrating.core.reference_data import load

    block = section(text(RULES), "### EMA IDs")
    documented = set()
    for row in table_rows(block)[2:]:
        for prefix, country, code in (row[0:3], row[3:6]):
            if prefix:
                documented.add((prefix, country, code))
    assert documented == {(r["prefix"], r["country"], r["code"]) for r in load("ema_countries.csv")}


def test_the_annotated_copy_is_described_with_its_real_fills_and_title():
    from xlrating.sheets.validate.annotate import FILLS, FINDINGS_SHEET

    block = section(text(INTERFACES), "#### The annotated copy")
    assert f"`{FILLS['error']}`" in block and f"`{FILLS['warning']}`" in block
    assert f"*{FINDINGS_SHEET}*" in block
