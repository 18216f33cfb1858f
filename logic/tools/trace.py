"""The lab's recursion made visible: each call of `max_value`, `min_value` and `terminal_state`
as SWI-Prolog's tracer prints it (`Call:`, `Exit:`, `Fail:`, with the call depth), indented.

The tracer follows the lab's clauses (docs/lab.md) call by call, asking the reference
(`logic/reference.py`) only for what the lab does not recurse on: `successor`, the values of
finished games, `find_max_sv`/`find_min_sv` and `get_action`. Its answers are the
reference's, which the tests check. Given an engine (the pyDatalog programs), the tracer
reconstructs that engine's proof instead: each `max_value` and `min_value` exits with the
engine's own answer, below it the calls whose answers justify it, and a line says so where
they do not. A trace is bounded: calls deeper than `levels` levels below the first, and every
call after the first `max_calls`, are not shown but counted, so a trace costs what it shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from minimax_lab.logic import reference
from minimax_lab.logic.engines import Engine
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import Player, State, marks_made, to_prolog
from minimax_lab.logic.terms import SV, Decision

MAX_CALLS = 200
"""Calls shown by default before the trace only counts."""


@dataclass(frozen=True)
class Port:
    """One line of a trace: the port (`Call`, `Exit`, `Fail`), the call depth, the goal."""

    port: str
    depth: int
    goal: str

    def __str__(self) -> str:
        return f"{' ' * self.depth}{self.port}: ({self.depth}) {self.goal}"


class Tracer:
    """A traced run of the lab's recursion from one goal; `lines` holds what is shown."""

    def __init__(self, objective: Objective = LAB, levels: int | None = None,
                 max_calls: int = MAX_CALLS, engine: Engine | None = None) -> None:
        self.objective = objective
        self.engine = engine
        self.levels = levels
        self.max_calls = max_calls
        self.lines: list[Port] = []
        self.shown = 0
        self.hidden = 0

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        """`minimax_decision(State, Player, Action, Value)`, traced from depth 1."""
        goal = f"minimax_decision({to_prolog(state)}, {player}, _, _)"
        with self._call(1, goal) as exit_goal:
            best = self.max_value(state, player, 2)
            action = reference.get_action(state, best.state)
            if action is None:
                exit_goal.fail()
                return None
            value = self.objective.reported(best.value, marks_made(state))
            exit_goal.set(f"minimax_decision({to_prolog(state)}, {player}, {action}, {value})")
            return Decision(action, value)

    def max_value(self, state: State, player: Player, depth: int = 1) -> SV:
        """`max_value(State, Player, sv(Next, V))`: its first clause, then the second."""
        return self._value("max_value", state, player, depth)

    def min_value(self, state: State, player: Player, depth: int = 1) -> SV:
        """`min_value(State, Player, sv(Next, V))`: its first clause, then the second."""
        return self._value("min_value", state, player, depth)

    def _value(self, name: str, state: State, player: Player, depth: int) -> SV:
        if not self._shows(depth):  # nor anything below it: count the calls, take the answer
            self.hidden += lab_calls(name, state, player)
            lab = reference.max_value if name == "max_value" else reference.min_value
            return lab(state, player, self.objective)
        head = f"{name}({to_prolog(state)}, {player}, "
        with self._call(depth, head + "_)") as exit_goal:
            value = self.terminal_state(state, player, depth + 1)
            if value is not None:
                answer = SV(state, value)
            else:
                maximising = name == "max_value"
                mover = player if maximising else reference.other_player(player)
                below = self.min_value if maximising else self.max_value
                svs = [SV(next_state, below(next_state, player, depth + 1).value)
                       for next_state in reference.successor(state, mover)]
                answer = (reference.find_max_sv if maximising else reference.find_min_sv)(svs)
                if self.engine is not None:
                    justified = answer
                    answer = getattr(self.engine, name)(state, player)
                    if answer != justified and exit_goal.shown:
                        self.lines.append(Port("Note", depth, (
                            f"the engine answers sv({to_prolog(answer.state)}, "
                            f"{answer.value}); the calls above justify "
                            f"sv({to_prolog(justified.state)}, {justified.value})")))
            exit_goal.set(f"{head}sv({to_prolog(answer.state)}, {answer.value}))")
            return answer

    def terminal_state(self, state: State, player: Player, depth: int) -> int | None:
        """`terminal_state(State, Player, Value)`: its value, or a failure."""
        head = f"terminal_state({to_prolog(state)}, {player}, "
        with self._call(depth, head + "_)") as exit_goal:
            value = reference.utility(state, player, self.objective)
            if value is None:
                exit_goal.fail()
            else:
                exit_goal.set(f"{head}{value})")
            return value

    def _call(self, depth: int, goal: str) -> _Ports:
        return _Ports(self, depth, goal)

    def _shows(self, depth: int) -> bool:
        """True if a call at `depth` is within the bounds, and so shown."""
        return (self.levels is None or depth <= self.levels) and self.shown < self.max_calls

    def _enter(self, depth: int, goal: str) -> bool:
        """Show a `Call` if it is within the bounds; True if it was shown."""
        if self._shows(depth):
            self.shown += 1
            self.lines.append(Port("Call", depth, goal))
            return True
        self.hidden += 1
        return False

    def text(self, more: str = "--levels N and --max-calls N show more") -> Iterator[str]:
        """The trace's lines, then a note of what was left out, if anything, and `more`: how
        to see more."""
        yield from (str(line) for line in self.lines)
        if self.hidden:
            levels = f"{self.levels} level" + ("" if self.levels == 1 else "s")
            why = [f"deeper than {levels}"] if self.levels is not None else []
            if self.shown >= self.max_calls:
                why.append(f"after the first {self.max_calls} calls")
            yield f"% {self.hidden} more calls not shown ({' or '.join(why)}); {more}"


@cache
def lab_calls(name: str, state: State, player: Player) -> int:
    """How many calls of `max_value`, `min_value` and `terminal_state` the lab's recursion
    makes to answer `name(State, Player, _)`, that call included."""
    if reference.terminal_state(state, player) is not None:
        return 2
    maximising = name == "max_value"
    mover = player if maximising else reference.other_player(player)
    below = "min_value" if maximising else "max_value"
    return 2 + sum(lab_calls(below, next_state, player)
                   for next_state in reference.successor(state, mover))


class _Ports:
    """The ports of one call: `Call` on entry, then `Exit` with the answer or `Fail`; the
    last two shown only if the first was."""

    def __init__(self, tracer: Tracer, depth: int, goal: str) -> None:
        self.tracer, self.depth, self.goal = tracer, depth, goal
        self.answer: str | None = None
        self.shown = False

    def set(self, answer: str) -> None:
        """The goal as it exits, its variables bound."""
        self.answer = answer

    def fail(self) -> None:
        """The goal fails."""
        self.answer = None

    def __enter__(self) -> _Ports:
        self.shown = self.tracer._enter(self.depth, self.goal)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if exc_info[0] is None and self.shown:
            port, goal = ("Fail", self.goal) if self.answer is None else ("Exit", self.answer)
            self.tracer.lines.append(Port(port, self.depth, goal))
