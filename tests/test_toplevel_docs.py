"""The walkthrough's REPL sessions, replayed: every ```repl block of docs/*.md, on both engines.

A block is a session as the REPL prints it from a pipe: each `?- ` line is a goal or command
typed, the lines after it what the REPL answers. Each block is replayed as written, once starting
on the logic engine and once on the reference, and must come out identical.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from keys import Keys

from minimax_lab.logic.toplevel import repl
from minimax_lab.logic.toplevel.grammar import parse_query
from minimax_lab.logic.toplevel.predicates import PREDICATES
from minimax_lab.logic.toplevel.stepper import OPTIONS

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted((ROOT / "docs").glob("*.md"))
_BLOCK = re.compile(r"```repl\n(.*?)```", re.DOTALL)


def sessions() -> list[tuple[str, str]]:
    """(document name and block number, block text) for every ```repl block."""
    return [
        (f"{document.name}#{number}", block)
        for document in DOCUMENTS
        for number, block in enumerate(_BLOCK.findall(document.read_text("utf-8")), start=1)
    ]


def replay(block: str, engine: str) -> str:
    """What the REPL prints, reading the block's `?- ` lines from a pipe."""
    typed = [line[len(repl.PROMPT):] for line in block.splitlines() if line.startswith("?- ")]
    out = io.StringIO()
    repl.run(engine, io.StringIO("".join(line + "\n" for line in typed)), out)
    return out.getvalue()


def goals_asked(session: str) -> set[str]:
    """The predicates a session's goals call, by name."""
    return {
        call.name for line in session.splitlines()
        if line.startswith("?- ") and not line.startswith("?- :")
        for call in parse_query(line[3:]).calls()
    }


@pytest.mark.parametrize("predicate", list(PREDICATES))
def test_the_walkthrough_asks_each_predicate_on_both_engines(predicate):
    both = [
        block for name, block in sessions() if name.startswith("walkthrough.md")
        and "?- :engine reference" in block
        and predicate in goals_asked(block.split("?- :engine reference")[0])
        and predicate in goals_asked(block.split("?- :engine reference")[1])
    ]
    assert both, f"no walkthrough session asks {predicate} before and after :engine reference"


@pytest.mark.parametrize("engine", ["logic", "reference"])
@pytest.mark.parametrize(("name", "block"), sessions(), ids=[name for name, _ in sessions()])
def test_a_documented_session_replays_as_written(name, block, engine):
    assert replay(block, engine) == block


# --- the stepping tracer's sessions -----------------------------------------------------------

_STEPPED = re.compile(r"```stepped\n(.*?)```", re.DOTALL)
_ECHOED = re.compile(r" \? (\S*)$")


def stepped_sessions() -> list[tuple[str, str]]:
    """(document name and block number, block text) for every ```stepped block: a session on
    a terminal, each port followed by the command typed there."""
    return [(f"{document.name}#{number}", block) for document in DOCUMENTS
            for number, block in enumerate(_STEPPED.findall(document.read_text("utf-8")),
                                           start=1)]


def keys_typed(block: str) -> list[str]:
    """The keys the block's session was typed: each port's command (its first key; a port
    with none followed by `Unknown option` is an unknown key) and each answer's `;` or Enter."""
    words = {option.word: option.keys[0] for option in OPTIONS}
    keys = []
    for line in block.splitlines():
        echoed = _ECHOED.search(line)
        if echoed:
            keys.append(words.get(echoed[1], "x"))
        elif not line.startswith(("?- ", "%", "Unknown")) and line.endswith((" ;", " .")):
            keys.append(";" if line.endswith(";") else "\r")
    return keys


def test_the_stepped_sessions_are_found():
    assert len(stepped_sessions()) >= 2


@pytest.mark.parametrize(("name", "block"), stepped_sessions(),
                         ids=[name for name, _ in stepped_sessions()])
def test_a_documented_stepped_session_replays_as_written(name, block):
    typed = [line[len(repl.PROMPT):] for line in block.splitlines() if line.startswith("?- ")]
    out = io.StringIO()
    session = repl.Session("reference", out, Keys(keys_typed(block)))
    repl.converse(session, io.StringIO("".join(line + "\n" for line in typed)), False,
                  wake=False)
    assert out.getvalue() == block
