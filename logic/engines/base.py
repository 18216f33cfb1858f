"""What every engine answers, and what an engine gets for free by deriving from `Engine`.

Callers hold an `Engine` and never learn which program answers. Engines take validated states
(`logic.state`) and answer with the lab's terms (`logic.terms`); `max_value`, `min_value`,
`minimax_decision`, `decisions` and `move_values` play for the engine's `objective` and
report values as `Objective.reported` says.
"""

from __future__ import annotations

from collections.abc import Iterable

from minimax_lab.logic import reference
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import Player, State, Turn, marks_made
from minimax_lab.logic.terms import SV, Action, Decision, Value


class EngineError(LabError, ValueError):
    """An engine name that is not known, or an engine that cannot run here."""


class Engine:
    """An engine: the lab's predicates for validated states.
    A subclass answers `max_value`, `min_value` and `minimax_decision`; the rest have defaults."""

    name = "engine"
    objectives: tuple[Objective, ...] | None = None  # the objectives it can play; None: all
    tracing = "lab"
    """How `trace` shows this engine's recursion: "lab" (the lab's recursion as the reference
    runs it, whose answers are the engine's), "proof" (rebuilt from the engine's own answers),
    "prolog" (SWI-Prolog's own tracer on the engine's program)."""
    lab_file: str | None = None
    """The lab's Prolog file that SWI-Prolog's tracer runs for this engine (`tracing` "prolog")."""
    takes_program = False
    """True for the engine that runs a student's program given as `--program FILE`."""
    any_board = False
    """True for an engine that answers any board of 9 cells as a Prolog program takes it, not
    only the positions play reaches (the Prolog engines, a student's program)."""

    def __init__(self, objective: Objective = LAB) -> None:
        if self.objectives is not None and objective not in self.objectives:
            raise EngineError(
                f"the {self.name} engine plays the lab's objective only (mode win, scoring lab),"
                f" not {objective}"
            )
        self.objective = objective

    @classmethod
    def plays(cls, objective: Objective) -> bool:
        """True when this kind of engine can play for `objective`."""
        return cls.objectives is None or objective in cls.objectives

    # --- the lab's predicates --------------------------------------------------------------

    def other_player(self, player: Player) -> Player:
        """`other_player(Player, Other)`."""
        return reference.other_player(player)

    def successor(self, state: State, player: Player) -> list[State]:
        """`successor(State, Player, Next)`: every Next, in cell order."""
        return reference.successor(state, player)

    def terminal_state(self, state: State, player: Player) -> int | None:
        """`terminal_state(State, Player, Value)`, its first answer; None where the game goes
        on."""
        return reference.terminal_state(state, player)

    def terminal_values(self, state: State, player: Player) -> list[int]:
        """Every answer of `terminal_state(State, Player, Value)`, in the lab's clause order:
        two only where both players hold a line, which no game reaches."""
        return reference.terminal_values(state, player)

    def max_value(self, state: State, player: Player) -> SV:
        """`max_value(State, Player, sv(Next, Value))`."""
        raise NotImplementedError

    def min_value(self, state: State, player: Player) -> SV:
        """`min_value(State, Player, sv(Next, Value))`."""
        raise NotImplementedError

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        """`minimax_decision(State, Player, Action, Value)`; None at a terminal state."""
        raise NotImplementedError

    def get_action(self, from_state: State, to_state: State) -> Action | None:
        """`get_action(From, To, Action)`; None if no single move leads from one to the other."""
        return reference.get_action(from_state, to_state)

    # --- derived ---------------------------------------------------------------------------

    def decisions(self, positions: Iterable[Turn]) -> dict[Turn, Decision]:
        """The decision of each non-terminal position (terminal ones are left out)."""
        answers = {}
        for state, player in positions:
            decision = self.minimax_decision(state, player)
            if decision is not None:
                answers[state, player] = decision
        return answers

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        """The value of each legal move (cell -> value, as a decision reports it); {} if over:
        `min_value` of the state each move makes."""
        if self.terminal_state(state, player) is not None:
            return {}
        marks = marks_made(state)
        return {cell: self.objective.reported(self.min_value(next_state, player).value, marks)
                for cell, next_state in reference.moves(state, player)}

    # --- life ------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget what an interrupted question may have left half done."""

    def close(self) -> None:
        """Let go of whatever the engine holds (a process, a workspace)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
