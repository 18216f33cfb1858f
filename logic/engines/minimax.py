"""Searches of the lab's game tree that count their work: minimax, alpha-beta, memoised minimax.

Minimax is the lab's (docs/lab.md): MAX is the agent `player`, MIN its adversary, every value is
from the agent's side as `reference.utility` scores the end of the game for the objective.
Alpha-beta, counting its cuts, stops a node as soon as its value cannot matter above it. Any
search may stop `depth` plies below its root (depth-limited minimax), where
`logic.engines.horizon.evaluate` scores the state.

Ties follow the lab: a node keeps the first move whose value is strictly better than every
move before it, so its best move is the lowest cell among the optimal ones. Alpha-beta keeps
this: a later move searched with the window (best so far, beta) comes back with a value at most
the best so far unless it is strictly better, and only a strictly better value replaces it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from minimax_lab.logic import reference
from minimax_lab.logic.engines import horizon
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import SIZE, Player, State, marks_made
from minimax_lab.logic.terms import Value

INFINITY = math.inf
KINDS = ("minimax", "alphabeta", "memo")


class Bound(Enum):
    """What a value says about the true minimax value of its node."""

    EXACT = "="
    LOWER = ">="
    UPPER = "<="


@dataclass
class Counts:
    """The work of a search: nodes visited (memo: each distinct state once), and the cuts
    alpha-beta made, each counted when it skips at least one move."""

    nodes: int = 0
    alpha_cuts: int = 0  # MIN nodes stopped at alpha or below: MAX has as good elsewhere
    beta_cuts: int = 0  # MAX nodes stopped at beta or above: MIN has as good elsewhere


class Visit(NamedTuple):
    """One node as the search leaves it, after its children (so children come before parents);
    alpha-beta's window as it stands then (where a cut is made, alpha >= beta)."""

    ply: int
    state: State
    mover: Player
    value: Value
    bound: Bound
    best_cell: int | None
    pruned: tuple[int, ...]
    alpha: Value | float | None = None
    beta: Value | float | None = None


class Enter(NamedTuple):
    """One node as the search enters it, before its children; alpha-beta's window then."""

    ply: int
    state: State
    mover: Player
    alpha: Value | float | None = None
    beta: Value | float | None = None


Observer = Callable[[Visit], None]
EnterObserver = Callable[[Enter], None]
Best = tuple[Value, int | None, Bound]
"""A node's value, the cell of the move that gives it (None at a leaf), what the value bounds."""
Bounds = tuple[Value | float, Value | float]
"""What alpha-beta has learnt of a node's value: at least the first, at most the second."""
Key = tuple[State, Player, int | None]
"""A node in a table: its state, who moves, the plies left to the horizon (None: no horizon)."""
Table = dict[Key, Best | Bounds]
"""Memo's answers (`Best`) or alpha-beta's `Bounds`, by node: one kind of search per table."""


class Search:
    """Searches for one agent and objective, to the end or down to `depth` plies.
    `observer`, if given, sees every node the search leaves; `on_enter` every node minimax
    and alpha-beta enter."""

    def __init__(
        self,
        player: Player,
        objective: Objective = LAB,
        depth: int | None = None,
        *,
        table: Table | None = None,
        observer: Observer | None = None,
        on_enter: EnterObserver | None = None,
    ) -> None:
        if depth is not None and depth < 0:
            raise ValueError(f"a depth is a number of plies, 0 or more, not {depth}")
        self.player = player
        self.objective = objective
        self.depth = depth
        # shared by searches of one agent, objective, depth and kind: memo keeps each node's
        # answer there (its own table if none is given), alpha-beta the bounds it learnt on
        # each node's value (a transposition table; without one given, none)
        self.table = table
        self.observer = observer
        self.on_enter = on_enter
        self.counts = Counts()
        self._other = {player: reference.other_player(player)}
        self._other[self._other[player]] = player

    def run(self, kind: str, state: State, mover: Player) -> Best:
        """The answer of the search called `kind` (one of `KINDS`) at a root where `mover` moves."""
        search: Callable[[State, Player], Best] = getattr(self, kind)
        return search(state, mover)

    def minimax(self, state: State, mover: Player, ply: int = 0) -> Best:
        """Plain minimax (the lab's): every move searched, every node counted."""
        self.counts.nodes += 1
        self._enter(ply, state, mover)
        return self._best(state, mover, ply, self.minimax)

    def memo(self, state: State, mover: Player, ply: int = 0) -> Best:
        """Minimax that searches each node once and remembers its answer in the table."""
        if self.table is None:
            self.table = {}
        key = self._key(state, mover, ply)
        known = _answer(self.table.get(key), key)
        if known is not None:
            return known
        self.counts.nodes += 1
        answer = self.table[key] = self._best(state, mover, ply, self.memo)
        return answer

    def alphabeta(
        self,
        state: State,
        mover: Player,
        ply: int = 0,
        alpha: Value | float = -INFINITY,
        beta: Value | float = INFINITY,
    ) -> Best:
        """Alpha-beta with cut counts, fail-soft: a value outside the window may be only a bound.
        alpha is the best value MAX is sure of on the path from the root, beta the best for MIN."""
        self.counts.nodes += 1
        leaf = self._leaf(state, ply)
        if leaf is not None:
            self._enter(ply, state, mover, alpha, beta)
            self._observe(ply, state, mover, leaf, Bound.EXACT, None, (), alpha, beta)
            return leaf, None, Bound.EXACT
        table = self.table
        key = self._key(state, mover, ply) if table is not None else None
        known = None
        if table is not None and key is not None and ply > 0:
            known = _bounds(table.get(key), key)
        if known is not None:
            lower, upper = known
            if lower == upper:
                return _finite(lower, key), None, Bound.EXACT
            if lower >= beta:
                return _finite(lower, key), None, Bound.LOWER
            if upper <= alpha:
                return _finite(upper, key), None, Bound.UPPER
        self._enter(ply, state, mover, alpha, beta)  # a node the table answers is not entered
        window = alpha, beta
        maximising = mover == self.player
        moves = reference.moves(state, mover)
        value: Value | float = -INFINITY if maximising else INFINITY
        best_cell = None
        # whether a child worth the node's value proves the node at least (MAX) or at most (MIN)
        # that value: any such child, not only the first, so that two nodes searched alike
        # are bounded alike
        proving = {Bound.EXACT, Bound.LOWER if maximising else Bound.UPPER}
        proven = False
        bounds: set[Bound] = set()
        pruned: tuple[int, ...] = ()
        for index, (cell, next_state) in enumerate(moves):
            child, _, bound = self.alphabeta(next_state, self._other[mover], ply + 1, alpha, beta)
            bounds.add(bound)
            if child > value if maximising else child < value:
                value, best_cell, proven = child, cell, bound in proving
            elif child == value:
                proven = proven or bound in proving
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                pruned = tuple(cell for cell, _ in moves[index + 1 :])
                self._count_cut(maximising, pruned)
                break
        if isinstance(value, float):
            raise ValueError(f"no move at {state} for {mover}, yet the game goes on")
        bound = _bound(value, *window, maximising, proven, bounds, pruned)
        if table is not None and key is not None:
            table[key] = _narrowed(_bounds(table.get(key), key), value, bound)
        self._observe(ply, state, mover, value, bound, best_cell, pruned, alpha, beta)
        return value, best_cell, bound

    def _best(
        self, state: State, mover: Player, ply: int, search: Callable[[State, Player, int], Best]
    ) -> Best:
        """The first best move of a node by the lab's recurrence, each child asked of `search`."""
        value = self._leaf(state, ply)
        best_cell = None
        if value is None:
            maximising = mover == self.player
            for cell, next_state in reference.moves(state, mover):
                child = search(next_state, self._other[mover], ply + 1)[0]
                if value is None or (child > value if maximising else child < value):
                    value, best_cell = child, cell
        if value is None:
            raise ValueError(f"no move at {state} for {mover}, yet the game goes on")
        self._observe(ply, state, mover, value, Bound.EXACT, best_cell, ())
        return value, best_cell, Bound.EXACT

    def _leaf(self, state: State, ply: int) -> Value | None:
        """The utility of a terminal state, the evaluation at the horizon, else None."""
        value = _utility(state, self.player, self.objective)
        if value is None and self.depth is not None and ply >= self.depth:
            return horizon.evaluate(state, self.player, self.objective)
        return value

    def _key(self, state: State, mover: Player, ply: int) -> Key:
        """A node's table key: the plies left to the horizon matter only if the game is longer."""
        left = None if self.depth is None else self.depth - ply
        if left is not None and left >= SIZE - marks_made(state):
            left = None
        return state, mover, left

    def _count_cut(self, maximising: bool, pruned: tuple[int, ...]) -> None:
        if not pruned:
            return
        if maximising:
            self.counts.beta_cuts += 1
        else:
            self.counts.alpha_cuts += 1

    def _enter(
        self,
        ply: int,
        state: State,
        mover: Player,
        alpha: Value | float | None = None,
        beta: Value | float | None = None,
    ) -> None:
        if self.on_enter is not None:
            self.on_enter(Enter(ply, state, mover, alpha, beta))

    def _observe(
        self,
        ply: int,
        state: State,
        mover: Player,
        value: Value,
        bound: Bound,
        best_cell: int | None,
        pruned: tuple[int, ...],
        alpha: Value | float | None = None,
        beta: Value | float | None = None,
    ) -> None:
        if self.observer is not None:
            self.observer(Visit(ply, state, mover, value, bound, best_cell, pruned, alpha, beta))


@cache
def _utility(state: State, player: Player, objective: Objective) -> int | None:
    """`reference.utility`, remembered: a plain search asks it of the same states many times."""
    return reference.utility(state, player, objective)


def _bound(
    value: Value,
    alpha: Value | float,
    beta: Value | float,
    maximising: bool,
    proven: bool,
    children: set[Bound],
    pruned: tuple[int, ...],
) -> Bound:
    """What a node's value says about its true value, by two sound arguments combined:
    the window and the children's bounds. Both at least and at most: the value is exact."""
    # the window: a fail-soft value at most alpha is an upper bound, at least beta a lower one;
    # the children: at MAX the true value is at least the value if a child worth it is at least
    # its own (`proven`), and at most it if no move was pruned and no child's can exceed its
    # own (MIN the other way round)
    searched_all = not pruned
    at_least = (
        value > alpha
        or (maximising and proven)
        or (not maximising and searched_all and children <= {Bound.EXACT, Bound.LOWER})
    )
    at_most = (
        value < beta
        or (not maximising and proven)
        or (maximising and searched_all and children <= {Bound.EXACT, Bound.UPPER})
    )
    if at_least and at_most:
        return Bound.EXACT
    return Bound.LOWER if at_least else Bound.UPPER


def _answer(entry: Best | Bounds | None, key: Key) -> Best | None:
    """Memo's answer in a table entry, if any; an error if alpha-beta's bounds are there."""
    if entry is None or len(entry) == 3:
        return entry
    raise ValueError(f"the table holds alpha-beta's bounds at {key}, not memo's answer")


def _bounds(entry: Best | Bounds | None, key: Key) -> Bounds | None:
    """Alpha-beta's bounds in a table entry, if any; an error if memo's answer is there."""
    if entry is None or len(entry) == 2:
        return entry
    raise ValueError(f"the table holds memo's answer at {key}, not alpha-beta's bounds")


def _finite(bound: Value | float, key: Key | None) -> Value:
    """A bound from the table that answers for a node: a value, never infinite."""
    if isinstance(bound, float):
        raise ValueError(f"the table's bound at {key} is {bound}, not a value")
    return bound


def _narrowed(known: Bounds | None, value: Value, bound: Bound) -> Bounds:
    """The (lower, upper) bounds on a node's value, narrowed by one more search of it."""
    lower, upper = known or (-INFINITY, INFINITY)
    if bound is not Bound.UPPER:
        lower = max(lower, value)
    if bound is not Bound.LOWER:
        upper = min(upper, value)
    return lower, upper


def reported(objective: Objective, value: Value, root_marks: int) -> Value:
    """A root's value from the player's side: `Objective.reported` for an end of the game,
    the evaluation itself (turned to the player's side) for a horizon state."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return objective.sign * value
    return objective.reported(int(value), root_marks)


def count_nodes(
    state: State, player: Player, objective: Objective = LAB, depth: int | None = None
) -> dict[str, Counts]:
    """The work of each search kind for `player` to move at `state`, each from a fresh start."""
    counts: dict[str, Counts] = {}
    for kind in KINDS:
        search = Search(player, objective, depth)
        search.run(kind, state, player)
        counts[kind] = search.counts
    return counts
