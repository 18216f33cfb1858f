"""The lab's compound terms: `sv(State, Value)`, the action `[Player, Position]`, and a decision."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from minimax_lab.logic.state import Player, State, to_prolog

Value = int | Fraction
"""A utility (an int) or, at the horizon of a depth-limited search, an evaluation (a Fraction)."""


def whole(value: Value) -> int:
    """A value where only a utility can be (a search to the end of the game), as its int."""
    if isinstance(value, int):
        return value
    raise TypeError(f"a value searched to the end of the game is an integer, not {value}")


@dataclass(frozen=True, order=True)
class Action:
    """The lab's action `[Player, Position]`: Player marks the cell Position (1..9), `cell` here."""

    player: Player
    cell: int

    def __str__(self) -> str:
        return f"[{self.player},{self.cell}]"


@dataclass(frozen=True)
class SV:
    """The lab's `sv(State, Value)`: a state and the value it leads to, from the agent's side."""

    state: State
    value: Value

    def __str__(self) -> str:
        return f"sv({to_prolog(self.state)},{self.value})"


@dataclass(frozen=True)
class Decision:
    """The answer of `minimax_decision(State, Player, Action, Value)`."""

    action: Action
    value: Value

    def __str__(self) -> str:
        return f"Action = {self.action}, Value = {self.value}."
