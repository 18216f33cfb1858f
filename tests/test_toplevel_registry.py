"""The top level's registries: every built-in and control construct registered once, by family,
with its help line; the `:` commands a table; the help and Tab completion made from them, so
that nothing is listed that the top level does not answer, and nothing answered is left out."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from minimax_lab.logic.engines import engine_names
from minimax_lab.logic.toplevel import repl
from minimax_lab.logic.toplevel.builtins import BUILTINS, ENTRIES, FAMILIES
from minimax_lab.logic.toplevel.builtins.registry import Family
from minimax_lab.logic.toplevel.help import (
    OWN_PROGRAM,
    argument_completions,
    completions,
)
from minimax_lab.logic.toplevel.predicates import PREDICATES
from minimax_lab.logic.toplevel.prolog_terms import Int, Substitution, Term, unify
from minimax_lab.logic.toplevel.solve import CONTROL

ROOT = Path(__file__).resolve().parent.parent
INDICATOR = re.compile(r"^(\S+)/(\d+(?:,\d+)*|\d+\.\.\d+)$")


def piped(text: str) -> str:
    out = io.StringIO()
    repl.run("reference", io.StringIO(text), out)
    return out.getvalue()


def listed_in_help() -> dict[str, set[tuple[str, int]]]:
    """The built-ins `:help` lists, by the family they are listed under: the lines from the
    first family's title to the line about the student's own program."""
    lines = repl.help_text().splitlines()
    start = next(number for number, line in enumerate(lines)
                 if line.startswith(f"  {FAMILIES[0]}: "))
    end = next(number for number, line in enumerate(lines) if line.startswith("  Your own"))
    assert OWN_PROGRAM.startswith(lines[end].strip())
    listed: dict[str, set[tuple[str, int]]] = {}
    family = ""
    for line in lines[start:end]:
        title = next((title for title in FAMILIES if line.startswith(f"  {title}: ")), None)
        if title is not None:
            family, line = title, line[len(f"  {title}: "):]
        else:
            assert line.startswith(" " * 6), line  # a family's line, wrapped
        for word in line.split():
            match = INDICATOR.match(word)
            assert match, word
            name, arities = match.groups()
            if ".." in arities:
                low, high = map(int, arities.split(".."))
                numbers = list(range(low, high + 1))
            else:
                numbers = [int(arity) for arity in arities.split(",")]
            listed.setdefault(family, set()).update((name, arity) for arity in numbers)
    return listed


def test_every_built_in_is_registered_once_with_a_family_and_a_help_line():
    assert not set(BUILTINS) & set(CONTROL)
    assert set(ENTRIES) == set(BUILTINS) | set(CONTROL)
    for (name, arity), entry in ENTRIES.items():
        assert (entry.name, entry.arity) == (name, arity)
        assert entry.family in FAMILIES
        called, _, says = entry.help.partition(": ")
        assert name in called and says, entry.help  # how it is called, then what it does
    for key in (("consult", 1), ("halt", 0), ("trace", 0), ("help", 1)):
        assert ENTRIES[key].family == "the session"
    assert {entry.family for entry in ENTRIES.values()} == set(FAMILIES)


def test_the_help_lists_every_built_in_under_its_family_and_nothing_else():
    listed = listed_in_help()
    by_family: dict[str, set[tuple[str, int]]] = {}
    for key, entry in ENTRIES.items():
        by_family.setdefault(entry.family, set()).add(key)
    assert listed == by_family
    assert list(listed) == list(FAMILIES)  # in the registry's order


def test_tab_completes_every_built_in_and_every_command():
    words = completions(repl.COMMANDS)
    for name, _ in ENTRIES:
        if name.isidentifier():
            assert f"{name}(" in words, name
    for name in PREDICATES:
        assert f"{name}(" in words
    commands = [command.name for command in repl.COMMANDS]
    assert {word for word in words if word.startswith(":")} == {f"{name} " for name in commands}
    named = {name for name, _ in ENTRIES} | set(PREDICATES)
    assert all(word[:-1] in commands if word.startswith(":") else
               word.endswith("(") and word[:-1] in named for word in words), words
    assert argument_completions(repl.COMMANDS) == {
        ":engine": [f"{name} " for name in engine_names()], ":listing": list(PREDICATES)}


def test_the_commands_help_and_error_are_the_tables():
    text = repl.help_text()
    names = [command.name for command in repl.COMMANDS]
    assert names == [":help", ":board", ":explain", ":engine", ":listing", ":time", ":trace",
                     ":quit"]
    for command in repl.COMMANDS:
        assert f"\n  {command.synopsis:<22} " in text
    assert piped(":nope\n").endswith(
        f"ERROR: unknown command :nope; the commands are {', '.join(names)}\n")


@pytest.mark.parametrize("name", sorted({name for name, _ in ENTRIES}))
def test_help_on_a_built_in_tells_its_help_lines(name):
    quoted = "'" + name.replace("\\", "\\\\") + "'"
    said = piped(f"help({quoted}).\n")
    assert f"% {name} is SWI-Prolog's built-in, answered as SWI-Prolog answers it" in said
    for entry in ENTRIES.values():
        if entry.name == name:
            assert f"\n%   {entry.help}\n" in said


def test_a_file_named_by_a_bound_variable_is_consulted_as_consult_1_does(tmp_path,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert piped("X = nofile, [X].\n").splitlines()[1] == piped(
        "consult(nofile).\n").splitlines()[1]


@pytest.fixture
def frob() -> Iterator[None]:
    """A built-in added in one place, as a family's module adds one, and taken away after."""

    def twice(solver: object, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
        found = unify(args[1], Int(2 * args[0].value), s)  # type: ignore[attr-defined]
        if found is not None:
            yield found

    Family("arithmetic")("frob", 2, "frob(N, M): M is twice N")(twice)
    try:
        yield
    finally:
        del BUILTINS["frob", 2], ENTRIES["frob", 2]


def test_a_built_in_registered_in_one_place_is_answered_listed_and_completed(frob):
    assert piped("frob(21, M).\n") == "?- frob(21, M).\nM = 42.\n"
    assert ("frob", 2) in listed_in_help()["arithmetic"]
    assert "frob(" in completions(repl.COMMANDS)
    assert "%   frob(N, M): M is twice N\n" in piped("help(frob).\n")


def test_a_built_in_is_registered_once_and_in_a_known_family():
    with pytest.raises(ValueError, match="member/2 is registered twice"):
        Family("lists")("member", 2, "member(X, List): again")(BUILTINS["member", 2])
    with pytest.raises(ValueError, match="unknown family"):
        Family("sundries")
    assert ENTRIES["member", 2].help.startswith("member(X, List): ")


def documented() -> dict[str, set[str]]:
    """The backquoted words of each row of docs/query.md's table of built-ins, by kind."""
    page = (ROOT / "docs" / "query.md").read_text("utf-8")
    rows = re.findall(r"^\| ([a-z ]+) \| (`.*) \|$", page, re.MULTILINE)
    return {kind: set(re.findall(r"`([^`]+)`", cells)) for kind, cells in rows}


def test_docs_query_md_lists_every_built_in_under_its_family():
    table = documented()
    assert set(FAMILIES) <= set(table)
    for (name, arity), entry in ENTRIES.items():
        words = table[entry.family]
        arities = set()
        for word in words:
            match = INDICATOR.match(word)
            if match and match.group(1) == name:
                found = match.group(2)
                low, _, high = found.partition("..")
                arities |= (set(range(int(low), int(high) + 1)) if high
                            else {int(number) for number in found.split(",")})
        assert arity in arities or name in words, (entry.family, name, arity)
