"""The reference engine answered by a search of `logic/engines/minimax.py`: plain minimax, memoised
minimax or alpha-beta, to the end of the game or to a depth.

`--engine reference --search minimax|memo|alphabeta` and `--depth N` choose it. The lab's
predicates that involve no search (`successor`, `terminal_state`, `get_action`, ...) are the
reference's own; `max_value`, `min_value`, `minimax_decision`, `move_values` and `decisions`
search. Memo and alpha-beta keep a table per agent across the engine's answers (the memo of
values, a transposition table of bounds); plain minimax searches every node each time.
"""

from __future__ import annotations

from collections.abc import Callable

from minimax_lab.logic import reference
from minimax_lab.logic.engines.base import Engine, EngineError
from minimax_lab.logic.engines.minimax import KINDS, Best, Search, Table, reported
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import PLAYERS, Player, State, marks_made
from minimax_lab.logic.terms import SV, Decision, Value

SEARCHES = KINDS
"""The searches by name, as `stats` and `tree` name them: minimax, alphabeta, memo."""


class SearchEngine(Engine):
    """An `Engine` whose decisions come from one of the searches, to the end (the lab's answers)
    or `depth` plies below each position asked, where a state is worth `horizon.evaluate`."""

    def __init__(
        self, objective: Objective = LAB, search: str = "alphabeta", depth: int | None = None
    ) -> None:
        if search not in SEARCHES:
            raise EngineError(f"unknown search {search!r}; the searches are {', '.join(SEARCHES)}")
        if depth is not None and (type(depth) is not int or depth < 1):
            raise EngineError(f"a search depth is a number of plies, 1 or more, not {depth!r}")
        super().__init__(objective)
        self.search = search
        self.depth = depth
        self.name = f"reference-{search}" + ("" if depth is None else f"-depth{depth}")
        self._tables: dict[Player, Table] = {player: {} for player in PLAYERS}

    def max_value(self, state: State, player: Player) -> SV:
        return self._sv(state, player, player)

    def min_value(self, state: State, player: Player) -> SV:
        return self._sv(state, player, reference.other_player(player))

    def minimax_decision(self, state: State, player: Player) -> Decision | None:
        best = self.max_value(state, player)
        action = reference.get_action(state, best.state)
        if action is None:
            return None
        return Decision(action, self._reported(best.value, state))

    def move_values(self, state: State, player: Player) -> dict[int, Value]:
        """Each legal move's value, exact: every move searched with the full window."""
        if reference.terminal_state(state, player) is not None:
            return {}
        search = self._searcher(player)
        method: Callable[[State, Player, int], Best] = getattr(search, self.search)
        opponent = reference.other_player(player)
        return {
            cell: self._reported(method(next_state, opponent, 1)[0], state)
            for cell, next_state in reference.moves(state, player)
        }

    def _sv(self, state: State, player: Player, mover: Player) -> SV:
        """`max_value` (the agent moves) or `min_value` (its adversary moves) at `state`."""
        value, cell, _ = self._searcher(player).run(self.search, state, mover)
        if cell is None:
            return SV(state, value)
        return SV(reference.list_replace(state, cell, mover), value)

    def _searcher(self, player: Player) -> Search:
        return Search(player, self.objective, self.depth, table=self._tables[player])

    def _reported(self, value: Value, state: State) -> Value:
        return reported(self.objective, value, marks_made(state))


class AlphaBetaEngine(SearchEngine):
    """Alpha-beta to the end of the game (`--engine alphabeta`): the lab's decisions, fewer
    nodes searched."""

    def __init__(self, objective: Objective = LAB) -> None:
        super().__init__(objective, "alphabeta")
