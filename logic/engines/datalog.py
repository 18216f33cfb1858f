"""The lab's pyDatalog programs as engines: `logic-plain` runs `logic/rules.py`, the lab as it
reads; `logic` runs `logic/engines/fast_rules.py`, the same program made fast.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from pyDatalog import pyDatalog

from minimax_lab.logic import reference, rules
from minimax_lab.logic.engines import database, fast_rules
from minimax_lab.logic.engines.base import Engine
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.positions import classes_below
from minimax_lab.logic.rules import Program
from minimax_lab.logic.state import GAME, Player, State, Turn, canonical, marks_made
from minimax_lab.logic.terms import SV, Action, Decision, Value


class _DatalogEngine(Engine):
    """What the two pyDatalog engines ask alike: the game's predicates, one query each."""

    program_module: ModuleType
    """The module that states the program: `load_program(objective)` clears the database and
    states the program in it."""

    @property
    def program(self) -> Program:
        """The program for this engine's objective, in the calling thread's pyDatalog database."""
        return self.state_program()

    def state_program(self) -> Program:
        """The program, stated in the calling thread's database first if that holds another."""
        module = self.program_module
        load: Callable[[Objective], Program] = module.load_program
        return database.program((module.__name__, self.objective), lambda: load(self.objective))

    def other_player(self, player: Player) -> Player:
        ((other,),) = _ask(self.program.other_player, player, _var())
        return str(other)

    def successor(self, state: State, player: Player) -> list[State]:
        rows = _ask(self.program.list_replace, state, player, _var(), _var())
        return [State(next_state) for _, next_state in sorted(rows)]

    def terminal_state(self, state: State, player: Player) -> int | None:
        return next(iter(self.terminal_values(state, player)), None)

    def terminal_values(self, state: State, player: Player) -> list[int]:
        rows = _ask(self.program.terminal_state, state, player, _var())
        return sorted((value for (value,) in rows), key=reference.TERMINAL_VALUES.index)

    def reset(self) -> None:
        database.forget()

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        rows = _ask(self.program.get_action, from_state, to_state, _var(), _var())
        if len(rows) != 1:
            return None
        ((player, cell),) = rows
        return Action(player, cell)


class PlainLogicEngine(_DatalogEngine):
    """The lab's pyDatalog program as it reads, `logic/rules.py`: each answer is one query,
    which derives every value it needs afresh (a question about the empty board takes seconds)."""

    name = "logic-plain"
    tracing = "proof"

    program_module = rules

    def max_value(self, state: State, player: Player) -> SV:
        return _one_sv(_ask(self.program.max_value, state, player, _var(), _var()))

    def min_value(self, state: State, player: Player) -> SV:
        return _one_sv(_ask(self.program.min_value, state, player, _var(), _var()))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        rows = _ask(self.program.minimax_decision, state, player, _var(), _var())
        if not rows:
            return None
        ((cell, utility),) = rows
        return _decision(self.objective, state, player, cell, utility)

    def decisions(self, positions: Iterable[Turn]) -> dict[Turn, Decision]:
        """All the positions' decisions in one query of the lab's `minimax_decision`."""
        program = self.program
        asked = set(positions)
        for state, player in asked:
            +program.asked(state, player)
        try:
            rows = _ask(program.decision, _var(), _var(), _var(), _var())
        finally:
            for state, player in asked:
                -program.asked(state, player)
        return {(State(state), player): _decision(self.objective, state, player, cell, utility)
                for state, player, cell, utility in rows}

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        rows = _ask(self.program.max_successor, state, player, _var(), _var(), _var())
        marks = marks_made(state)
        return {cell: self.objective.reported(utility, marks) for cell, _, utility in sorted(rows)}


class LogicEngine(_DatalogEngine):
    """The lab's pyDatalog program made fast (`logic/engines/fast_rules.py`): each answer is one
    query, in a session that solves the symmetry classes below each board it is asked about, each
    class once (docs/architecture.md)."""

    name = "logic"
    tracing = "proof"

    program_module = fast_rules

    def __init__(self, objective: Objective = LAB) -> None:
        super().__init__(objective)
        self.state_program()

    @property
    def program(self) -> fast_rules.Session:
        """The fast program for this engine's objective, with its session's classes solved."""
        program = self.state_program()
        assert isinstance(program, fast_rules.Session)
        return program

    def session(self, state: State, mover: Player) -> fast_rules.Session:
        """The program, with the values of `state` with `mover` to move, and of every position
        below it, solved and kept as facts: a question beyond the classes solved solves those
        below its board, each class derived at most once in the session."""
        # engines for other objectives may live beside this one: a thread's database holding
        # another program is reloaded with this one, and so starts a new session
        program = self.program
        if (canonical(state), mover) not in program.solved:
            _solve(program, classes_below(state, mover))
        return program

    def max_value(self, state: State, player: Player) -> SV:
        program = self.session(state, player)
        return _one_sv(_ask(program.max_value, state, player, _var(), _var()))

    def min_value(self, state: State, player: Player) -> SV:
        program = self.session(state, GAME.other_player(player))  # the mover, without a query
        return _one_sv(_ask(program.min_value, state, player, _var(), _var()))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        rows = _ask(self.session(state, player).minimax_decision, state, player, _var(), _var())
        if not rows:
            return None
        ((cell, utility),) = rows
        return self._decision(state, player, cell, utility)

    def decisions(
        self, positions: Iterable[Turn], by: str | None = None
    ) -> dict[Turn, Decision]:
        """All the positions' decisions in one query: `by="lab"` asks the lab's `minimax_decision`
        of each (`decision/4`), `by="classes"` each symmetry class once (`class_decision/4`)."""
        program = self.program
        asked = set(positions)
        by = by or ("lab" if len(asked) == 1 else "classes")
        if by == "classes":
            facts = {(canonical(state), player) for state, player in asked}
            predicate, relation = program.class_asked, program.class_decision
        else:
            facts, predicate, relation = asked, program.asked, program.decision
        for state, player in facts:
            +predicate(state, player)
        try:
            rows = _ask(relation, _var(), _var(), _var(), _var())
        finally:
            for state, player in facts:
                -predicate(state, player)
        return {
            (State(state), player): self._decision(state, player, cell, utility)
            for state, player, cell, utility in rows
            if (state, player) in asked
        }

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        rows = _ask(self.session(state, player).max_successor, state, player, _var(), _var(),
                    _var())
        marks = marks_made(state)
        return {cell: self.objective.reported(utility, marks) for cell, _, utility in sorted(rows)}

    def _decision(self, state: str, player: Player, cell: int, utility: int) -> Decision:
        return _decision(self.objective, state, player, cell, utility)


def _solve(program: fast_rules.Session, classes: Collection[Turn]) -> None:
    """Ask the program for the values of the symmetry classes among `classes` not yet solved, at
    once (deriving those below them not yet solved); keep the answers as facts."""
    wanted = set(classes) - program.solved
    if not wanted:
        return
    for state, player in wanted:
        +program.to_solve(state, player)
    try:
        rows = _ask(program.solution, _var(), _var(), _var(), _var(), _var())
    finally:
        for state, player in wanted:
            -program.to_solve(state, player)
    for state, player, value, other, other_value in rows:
        +program.solved_max(state, player, value)
        +program.solved_min(state, other, other_value)
    program.solved |= wanted


def _decision(
    objective: Objective, state: str, player: Player, cell: int, utility: int
) -> Decision:
    return Decision(Action(player, cell), objective.reported(utility, marks_made(state)))


def _var() -> Any:
    """A fresh pyDatalog variable for one argument of a query (pyDatalog is untyped)."""
    return pyDatalog.Variable()


def _ask(predicate: Any, *args: object) -> list[tuple[Any, ...]]:
    """Ask one query (of a pyDatalog term) with constant arguments; the rows of its variables."""
    # a query builds many short-lived objects that hold no cycles worth collecting; pausing the
    # cyclic garbage collector meanwhile makes it much faster (docs/benchmarks.md)
    with _collector_paused():
        return list(predicate(*args).data)


@contextmanager
def _collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _one_sv(rows: list[tuple[Any, ...]]) -> SV:
    ((next_state, value),) = rows
    return SV(State(next_state), value)
