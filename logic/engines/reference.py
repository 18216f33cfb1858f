"""The plain-Python reference as an engine (`--engine reference`, `logic/reference.py`)."""

from __future__ import annotations

from collections.abc import Iterable

from minimax_lab.logic import reference
from minimax_lab.logic.engines.base import Engine
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.state import EMPTY, PLAYERS, Player, State, Turn
from minimax_lab.logic.terms import SV, Decision


class ReferenceEngine(Engine):
    """The plain-Python reference of `logic/reference.py`, answering in a session as the logic
    engine does: its first question about values solves the whole game."""

    name = "reference"

    def _session(self) -> None:
        if self.objective in _SOLVED_BY_REFERENCE:
            return
        # either player first and from either side, so every later answer is a memo lookup
        for player in PLAYERS:
            reference.max_value(EMPTY, player, self.objective)
            reference.min_value(EMPTY, player, self.objective)
        _SOLVED_BY_REFERENCE.add(self.objective)

    def max_value(self, state: State, player: Player) -> SV:
        self._session()
        return reference.max_value(state, player, self.objective)

    def min_value(self, state: State, player: Player) -> SV:
        self._session()
        return reference.min_value(state, player, self.objective)

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        self._session()
        return reference.minimax_decision(state, player, self.objective)

    def decisions(self, positions: Iterable[Turn]) -> dict[Turn, Decision]:
        """Each position's decision, the memo shared between them: no session, so that one
        decision solves only the game below its position."""
        return _Sessionless(self.objective).decisions(positions)


class _Sessionless(Engine):
    """The reference's decisions without a session: each solves the game below it only."""

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        return reference.minimax_decision(state, player, self.objective)


_SOLVED_BY_REFERENCE: set[Objective] = set()
"""The objectives whose whole game the reference's memo holds (it is shared process-wide)."""


def forget_values() -> None:
    """Empty the reference's memo, and so end its sessions: the next answer starts cold."""
    reference.max_value.cache_clear()
    reference.min_value.cache_clear()
    _SOLVED_BY_REFERENCE.clear()
