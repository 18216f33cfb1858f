"""One small engine interface, and the two engines behind it: `logic` (pyDatalog) and `reference`.

Callers hold an `Engine` and never learn which program answers; a new engine (a Prolog one, a
variant) registers in `ENGINES` and every command can use it. Engines take validated states
(see `logic.state`) and answer with the lab's terms (see `logic.terms`).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

from logic import reference, rules
from logic.state import Player, State
from logic.terms import SV, Action, Decision

Position = tuple[State, Player]
"""A state paired with the player to move."""


class EngineError(ValueError):
    """An engine name that is not known, or an engine that cannot run here."""


class Engine(Protocol):
    """What every engine answers: the lab's predicates, for validated states."""

    name: str

    def successor(self, state: State, player: Player) -> list[State]:
        """`successor(State, Player, Next)`: every Next, in cell order."""
        ...

    def terminal_state(self, state: State, player: Player) -> int | None:
        """`terminal_state(State, Player, Value)`; None where the game goes on."""
        ...

    def max_value(self, state: State, player: Player) -> SV:
        """`max_value(State, Player, sv(Next, Value))`."""
        ...

    def min_value(self, state: State, player: Player) -> SV:
        """`min_value(State, Player, sv(Next, Value))`."""
        ...

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        """`minimax_decision(State, Player, Action, Value)`; None at a terminal state."""
        ...

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        """`get_action(From, To, Action)`; None if no single move leads from one to the other."""
        ...

    def decisions(self, positions: Iterable[Position]) -> dict[Position, Decision]:
        """The decision for each non-terminal position, computed together."""
        ...


class ReferenceEngine:
    """The plain-Python reference of `logic/reference.py`."""

    name = "reference"

    def successor(self, state: State, player: Player) -> list[State]:
        return reference.successor(state, player)

    def terminal_state(self, state: State, player: Player) -> int | None:
        return reference.terminal_state(state, player)

    def max_value(self, state: State, player: Player) -> SV:
        return reference.max_value(state, player)

    def min_value(self, state: State, player: Player) -> SV:
        return reference.min_value(state, player)

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        return reference.minimax_decision(state, player)

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        return reference.get_action(from_state, to_state)

    def decisions(self, positions: Iterable[Position]) -> dict[Position, Decision]:
        answers = {}
        for state, player in positions:
            decision = reference.minimax_decision(state, player)
            if decision is not None:
                answers[state, player] = decision
        return answers


class LogicEngine:
    """The pyDatalog program of `logic/rules.py`: each answer is one query to pyDatalog."""

    name = "logic"

    def __init__(self) -> None:
        self._thread = threading.get_ident()
        self._program = rules.load_program()

    @property
    def program(self) -> rules.Program:
        """The loaded program; pyDatalog keeps it per thread, so only this thread may ask."""
        if threading.get_ident() != self._thread:
            raise EngineError("the logic engine answers only in the thread that created it")
        return self._program

    def successor(self, state: State, player: Player) -> list[State]:
        rows = _ask(self.program.move, state, player, _var(), _var())
        return [State(next_state) for _, next_state in sorted(rows)]

    def terminal_state(self, state: State, player: Player) -> int | None:
        rows = _ask(self.program.terminal_state, state, player, _var())
        return rows[0][0] if rows else None

    def max_value(self, state: State, player: Player) -> SV:
        return _one_sv(_ask(self.program.max_value, state, player, _var(), _var()))

    def min_value(self, state: State, player: Player) -> SV:
        return _one_sv(_ask(self.program.min_value, state, player, _var(), _var()))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        rows = _ask(self.program.minimax_decision, state, player, _var(), _var())
        if not rows:
            return None
        ((position, value),) = rows
        return Decision(Action(player, position), value)

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        rows = _ask(self.program.get_action, from_state, to_state, _var(), _var())
        if len(rows) != 1:
            return None
        ((player, position),) = rows
        return Action(player, position)

    def decisions(self, positions: Iterable[Position]) -> dict[Position, Decision]:
        program = self.program
        asked = list(positions)
        for state, player in asked:
            +program.asked(state, player)
        try:
            rows = _ask(program.decision, _var(), _var(), _var(), _var())
        finally:
            for state, player in asked:
                -program.asked(state, player)
        return {
            (State(state), player): Decision(Action(player, position), value)
            for state, player, position, value in rows
        }


def _var():
    """A fresh pyDatalog variable for one argument of a query."""
    return rules.pyDatalog.Variable()


def _ask(predicate, *args) -> list[tuple]:
    """Ask one query with constant arguments; the rows of its variables.

    A query builds many short-lived objects that hold no cycles worth collecting; pausing
    Python's cyclic garbage collector meanwhile makes a query three to four times faster.
    """
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


def _one_sv(rows: list[tuple]) -> SV:
    ((next_state, value),) = rows
    return SV(State(next_state), value)


ENGINES: dict[str, Callable[[], Engine]] = {
    "logic": LogicEngine,
    "reference": ReferenceEngine,
}


def engine_names() -> list[str]:
    """The names of the engines, for help texts and error messages."""
    return list(ENGINES)


def make_engine(name: str) -> Engine:
    """The engine called `name`, ready to answer."""
    try:
        factory = ENGINES[name]
    except KeyError:
        raise EngineError(
            f"unknown engine {name!r}; the engines are {', '.join(engine_names())}"
        ) from None
    return factory()
