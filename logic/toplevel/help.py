"""The top level's help and Tab completion, made from the registries: the lab's predicates
(`predicates.PREDICATES`), the built-ins and control constructs by family
(`builtins.ENTRIES`) and the `:` commands (`session_commands.CommandTable`)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from minimax_lab.logic.toplevel import solve  # noqa: F401  (registers the control constructs)
from minimax_lab.logic.toplevel.builtins import ENTRIES, FAMILIES, Entry
from minimax_lab.logic.toplevel.predicates import PREDICATES
from minimax_lab.logic.toplevel.session_commands import Command

WIDTH = 79
"""The widest line `:help` writes: an 80-column terminal breaks no word."""
BUILTINS_HEADING = ("Prolog: variables start with a capital or _; ',' and ';' join goals; '.' is "
                    "optional; the built-ins below are answered as SWI-Prolog answers them "
                    "(help(Name). tells what one does):")
OWN_PROGRAM = ("Your own program: [file]. loads it in a sandbox, as grade does; its predicates "
               "then answer before the lab's.")
"""The line after the built-ins: where the session's family ends."""


def wrapped(text: str, indent: str, first: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def indicators(entries: Iterable[Entry]) -> list[str]:
    """Each name once, in the order registered, with its arities: `append/2,3`, `call/1..8`."""
    arities: dict[str, list[int]] = {}
    for entry in entries:
        arities.setdefault(entry.name, []).append(entry.arity)
    shown = []
    for name, found in arities.items():
        found.sort()
        if len(found) > 2 and found == list(range(found[0], found[-1] + 1)):
            shown.append(f"{name}/{found[0]}..{found[-1]}")
        else:
            shown.append(f"{name}/{','.join(map(str, found))}")
    return shown


def builtin_lines() -> list[str]:
    """The built-ins by family, each family's indicators wrapped under its title."""
    lines = []
    for family in FAMILIES:
        listed = indicators(entry for entry in ENTRIES.values() if entry.family == family)
        lines += wrapped(" ".join(listed), " " * 6, f"  {family}: ")
    return lines


def help_text(commands: Iterable[Command[Any]]) -> str:
    """What `:help` prints: each predicate with its arguments and an example, the built-ins by
    family, the commands, the keys; no line wider than `WIDTH`."""
    lines = ["The lab's predicates; a state is [o,-,x,-,-,-,-,-,-] or o-x------ (cell 1 "
             "first):"]
    for predicate in PREDICATES.values():
        lines += [f"  {predicate.signature}",
                  *wrapped(predicate.meaning, "      "), f"      ?- {predicate.example}"]
    lines += [
        "The lab's helpers answer too (winning_config/2, list_replace/4, find_max_sv/2, "
        "find_min_sv/2, line/3, blank/1), and a player left open is answered as the lab's "
        "clauses answer it.",
        BUILTINS_HEADING,
        *builtin_lines(),
        OWN_PROGRAM,
        "Commands:",
        *(line for command in commands
          for line in wrapped(command.help, " " * 25, f"  {command.synopsis:<22} ")),
        "On a terminal: ; (or space) for the next answer, Enter to stop; Ctrl-C stops a query.",
    ]
    return "\n".join(line for block in lines for line in (
        [block] if len(block) <= WIDTH else wrapped(block, "  ")))


def help_on_builtin(name: str) -> list[str]:
    """The help lines of the built-ins named `name`, one per line that differs."""
    return list(dict.fromkeys(entry.help for entry in ENTRIES.values() if entry.name == name))


def completions(commands: Iterable[Command[Any]]) -> list[str]:
    """What Tab completes: a predicate or built-in with its parenthesis, a command with its
    space."""
    words = {name for name, _ in ENTRIES if name.isidentifier()}
    return sorted([*(f"{name}(" for name in [*PREDICATES, *sorted(words)]),
                   *(command.name + " " for command in commands)])


def argument_completions(commands: Iterable[Command[Any]]) -> dict[str, list[str]]:
    """What Tab completes after a command's name, for the commands that take a name."""
    return {command.name: command.arguments() for command in commands
            if command.arguments is not None}
