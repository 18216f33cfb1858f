"""Many positions answered by an engine that decides one position at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from logic.state import Player, State
from logic.terms import Decision


def decide_each(
    minimax_decision: Callable[[State, Player], Decision | None],
    positions: Iterable[tuple[State, Player]],
) -> dict[tuple[State, Player], Decision]:
    """Each position's decision, in turn; positions without one (terminal) are left out."""
    answers = {}
    for state, player in positions:
        decision = minimax_decision(state, player)
        if decision is not None:
            answers[state, player] = decision
    return answers
