"""The lab's predicates, one record each: the one description every layer reads.

A record says what the predicate is (name, arguments, meaning, an example goal), where the lab
states it (its clauses in `logic/prolog/lab.pl`, the rule of `logic/rules.py` and the function
of `logic/reference.py` of its name), how it is asked of a Prolog program (its goal), and
which tools take it: traced (its level in the lab's recursion), graded, answered below the top
level; and the lab's helpers its clauses call. Adding a predicate is a
record here, a rule in `logic/rules.py` and a function in `logic/reference.py`
(docs/architecture.md, "Adding a lab predicate"). This module imports nothing of the project:
every layer may read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any


class Answered(Enum):
    """How the top level answers a lab predicate asked with a board and a player."""

    BELOW = "below"
    """Asked of the session's engine (below the top level): the engine's answers."""
    BOARDS = "boards"
    """Worked out from the boards given, in the top level itself."""
    CLAUSES = "clauses"
    """Run clause by clause from the lab's own Prolog, as any other way of asking is."""


@dataclass(frozen=True)
class LabPredicate:
    """One predicate of the lab (docs/lab.md)."""

    name: str
    arguments: tuple[str, ...]
    """Its arguments as the lab names them, e.g. `("State", "Player", "Next")`."""
    meaning: str
    """What it means, in one line."""
    example: str
    """A goal to try at the `?-` prompt."""
    goal: str
    """The Prolog goal that asks it of a program, its answer in `A`: a template with
    `{state}` and `{player}` (and `{next}`, get_action's second board)."""
    answered: Answered
    recursion: int | None = None
    """Its level in the lab's recursion, from the top (0: `minimax_decision`), None outside it:
    `trace` and the top level's `:trace` follow the predicates of the recursion, and a grade's
    end-to-end sample asks the highest of them graded."""
    reported: int | None = None
    """Its place among the checks of a grade's report, from 0; None: `grade` does not check
    it in a student's Prolog program."""
    helpers: tuple[str, ...] = ()
    """The lab's helper predicates its clauses call that are not records themselves
    (`list_replace/4`), as name/arity."""

    @property
    def graded(self) -> bool:
        """Whether `grade` checks it in a student's Prolog program."""
        return self.reported is not None

    @property
    def traced(self) -> bool:
        """Whether `trace` and the top level's `:trace` follow it: a predicate of the
        recursion."""
        return self.recursion is not None

    @property
    def arity(self) -> int:
        return len(self.arguments)

    @property
    def indicator(self) -> str:
        """Prolog's name/arity, e.g. `successor/3`."""
        return f"{self.name}/{self.arity}"

    @property
    def signature(self) -> str:
        """The predicate with its argument names, e.g. `successor(State, Player, Next)`."""
        return f"{self.name}({', '.join(self.arguments)})"

    @property
    def answered_below(self) -> bool:
        """Whether the top level asks an engine for its answers (`Answered.BELOW`)."""
        return self.answered is Answered.BELOW

    @property
    def clause(self) -> str:
        """Its clauses as the lab states them: `logic/prolog/lab.pl`'s, or the facts of
        `facts/game.pl` for a predicate the game states as facts."""
        return _clauses(self.name)

    @property
    def reference(self) -> Callable[..., Any]:
        """The function of `logic/reference.py` that answers it, imported when first asked
        (the reference reads the game's facts, above this module)."""
        function: Callable[..., Any] = getattr(
            importlib.import_module("minimax_lab.logic.reference"), self.name)
        return function


_VALUE = "{name}({{state}}, {{player}}, A)"

LAB_PREDICATES: dict[str, LabPredicate] = {
    predicate.name: predicate
    for predicate in (
        LabPredicate(
            "minimax_decision", ("State", "Player", "Action", "Value"),
            "the optimal Action = [Player,Position] for Player to move, and the Value it secures",
            "minimax_decision(o-x------, o, Action, Value).",
            "minimax_decision({state}, {player}, Action, Value), A = Action-Value",
            Answered.BELOW, recursion=0, reported=3,
        ),
        LabPredicate(
            "min_value", ("State", "Player", "sv(Next, Value)"),
            "Player's adversary moves: the successor with the lowest value, from Player's side",
            "min_value(xx-oo----, o, sv(Next, Value)).",
            _VALUE.format(name="min_value"), Answered.BELOW, recursion=2, reported=2,
            helpers=("find_min_sv/2",),
        ),
        LabPredicate(
            "max_value", ("State", "Player", "sv(Next, Value)"),
            "Player moves: the successor with the highest value (State itself when it is over)",
            "max_value(xx-oo----, x, sv(Next, Value)).",
            _VALUE.format(name="max_value"), Answered.BELOW, recursion=1, reported=1,
            helpers=("find_max_sv/2",),
        ),
        LabPredicate(
            "terminal_state", ("State", "Player", "Value"),
            "State is over: 1 if Player has a line, -1 if the other player has, 0 full board",
            "terminal_state(xxxoo----, Player, Value).",
            _VALUE.format(name="terminal_state"), Answered.BELOW, reported=0,
            helpers=("winning_config/2",),
        ),
        LabPredicate(
            "successor", ("State", "Player", "Next"),
            "Next is State with one blank cell marked by Player, in cell order",
            "successor(x--------, o, Next).",
            "findall(N, successor({state}, {player}, N), A)", Answered.BELOW, reported=4,
            helpers=("list_replace/4",),
        ),
        LabPredicate(
            "other_player", ("Player", "Other"),
            "the adversary of Player",
            "other_player(x, Other).",
            "other_player({player}, A)", Answered.CLAUSES,
        ),
        LabPredicate(
            "get_action", ("From", "To", "Action"),
            "the action [Player,Position] that turns From into To",
            "get_action(x--------, xo-------, Action).",
            "get_action({state}, {next}, A)", Answered.BOARDS,
        ),
    )
}
"""The lab's predicates, by name, in the order the lab presents them."""


def lab_predicates(*, traced: bool | None = None, graded: bool | None = None,
                   answered: Answered | None = None) -> tuple[str, ...]:
    """The names of the lab's predicates, in the lab's order: those traced, graded or
    answered as asked (each left None: any)."""
    return tuple(name for name, predicate in LAB_PREDICATES.items()
                 if (traced is None or predicate.traced == traced)
                 and (graded is None or predicate.graded == graded)
                 and (answered is None or predicate.answered is answered))


def recursion_top_down() -> tuple[str, ...]:
    """The names of the predicates of the lab's recursion, from the top: `minimax_decision`,
    `max_value`, `min_value` (what `trace --goal` offers, in its order, and the end-to-end
    sample's choice)."""
    return tuple(sorted(lab_predicates(traced=True),
                        key=lambda name: LAB_PREDICATES[name].recursion or 0))


def graded_in_report_order() -> tuple[str, ...]:
    """The names of the predicates `grade` checks, in the order a grade reports them."""
    return tuple(sorted(lab_predicates(graded=True),
                        key=lambda name: LAB_PREDICATES[name].reported or 0))


def lab_program() -> tuple[str, ...]:
    """Every predicate of the lab's program as name/arity: the records' and the helpers their
    clauses call, in the lab's order."""
    return tuple(dict.fromkeys(indicator for predicate in LAB_PREDICATES.values()
                               for indicator in (predicate.indicator, *predicate.helpers)))


@cache
def _clauses(name: str) -> str:
    """The clauses of `name` in `logic/prolog/lab.pl` (from its first clause to the blank line
    after its last), or else its facts in `facts/game.pl`."""
    return (_first_block(_read("minimax_lab.logic.prolog", "lab.pl"), name)
            or _first_block(_read("minimax_lab.facts", "game.pl"), name))


def _first_block(text: str, name: str) -> str:
    lines = text.split("\n")
    start = next((number for number, line in enumerate(lines)
                  if line.startswith(f"{name}(")), len(lines))
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return "\n".join(lines[start:end])


def _read(package: str, file: str) -> str:
    return (resources.files(package) / file).read_text(encoding="utf-8")
