"""The lab's positions (docs/lab.md): every state alternating play reaches from the empty board."""

from __future__ import annotations

from functools import cache

from minimax_lab.logic import reference
from minimax_lab.logic.state import (
    BLANK,
    EMPTY,
    PLAYERS,
    State,
    Turn,
    canonical,
    is_terminal,
)


def reachable_states(first: str) -> set[State]:
    """Every state reachable from the empty board with `first` moving first, terminal or not."""
    seen = {EMPTY}
    frontier = [(EMPTY, first)]
    while frontier:
        state, player = frontier.pop()
        if is_terminal(state):
            continue
        for next_state in reference.successor(state, player):
            if next_state not in seen:
                seen.add(next_state)
                frontier.append((next_state, reference.other_player(player)))
    return seen


@cache
def symmetry_classes() -> tuple[Turn, ...]:
    """One (state, player to move) per class of reachable positions under the 8 symmetries.
    Terminal states are paired with both players, since either may be asked about them."""
    return tuple(sorted(set().union(*(classes_below(EMPTY, first) for first in PLAYERS))))


def classes_below(state: State, player: str) -> set[Turn]:
    """The symmetry classes of `state` with `player` to move and of every position play reaches
    from it, terminal states paired with both players."""
    start = (canonical(state), player)
    seen, frontier = {start}, [start]
    while frontier:
        current, mover = frontier.pop()
        if is_terminal(current):
            continue
        other = reference.other_player(mover)
        for next_state in reference.successor(current, mover):
            found = (canonical(next_state), other)
            if found not in seen:
                seen.add(found)
                frontier.append(found)
    return {(current, mover) for current, player_to_move in seen
            for mover in (PLAYERS if is_terminal(current) else (player_to_move,))}


@cache
def all_positions() -> tuple[Turn, ...]:
    """The 9040 non-terminal (state, player to move) pairs, either player first; sorted."""
    positions = set()
    for first in PLAYERS:
        for state in reachable_states(first):
            if not is_terminal(state):
                positions.add((state, to_move(state, first)))
    return tuple(sorted(positions))


def to_move(state: State, first: str = PLAYERS[0]) -> str:
    """Who moves next in a game that `first` began (x, unless told): the counts of marks tell."""
    second = reference.other_player(first)
    return first if state.count(first) == state.count(second) else second


def fullest_first(state: State) -> tuple[int, str]:
    """A sort key: the fullest boards first (the cheapest to answer), then in text order."""
    return state.count(BLANK), state


@cache
def game_tree_size(state: State, player: str) -> int:
    """The nodes of the game tree below `state` with `player` to move, `state` included: the
    calls the lab's plain minimax makes there (how much a question costs a program)."""
    if is_terminal(state):
        return 1
    other = reference.other_player(player)
    return 1 + sum(game_tree_size(next_state, other)
                   for next_state in reference.successor(state, player))
