"""The lab's predicates (docs/lab.md), answered through an `Engine` with constants where they
are asked as the lab asks them: a board of 9 cells and a player given (`fast_answers`).

On such a goal the engine gives the answers the lab's own Prolog gives, in the same order: the
engine answers the positions of real games, and the reference (`logic/reference.py`, the
lab's clauses in Python) every other board, as the lab's program does. Asked any other way (a
player left open, a board that is not one), a lab predicate is answered by the lab's own
clauses (`clauses.py`), which the top level runs itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from minimax_lab.logic.engines import Engine, make_engine
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.predicates import LAB_PREDICATES, Answered, LabPredicate
from minimax_lab.logic.state import (
    BLANK,
    PLAYERS,
    Player,
    State,
    StateError,
    check_legal,
    check_turn,
    is_terminal,
)
from minimax_lab.logic.terms import Action, whole
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    Substitution,
    Term,
    action_term,
    resolve,
    state_term,
    sv_term,
)


def board_of(term: Term) -> State | None:
    """The board `term` is, if it is a list of 9 cells each `x`, `o` or `-`; else None."""
    if not isinstance(term, ListTerm) or term.tail is not None or len(term.items) != 9:
        return None
    cells = [item.name for item in term.items if isinstance(item, Atom)]
    if len(cells) != 9 or any(cell not in (*PLAYERS, BLANK) for cell in cells):
        return None
    return State("".join(cells))


def player_of(term: Term) -> Player | None:
    """The player `term` is, x or o; else None."""
    return term.name if isinstance(term, Atom) and term.name in PLAYERS else None


def in_game(state: State, mover: Player | None = None) -> bool:
    """True when play reaches `state` (and, given `mover`, with `mover` to move or the game
    over): a position the engines answer."""
    try:
        check_legal(state)
        if mover is not None and not is_terminal(state):
            check_turn(state, mover)
    except StateError:
        return False
    return True


def answering(engine: Engine, state: State, mover: Player | None = None) -> Engine:
    """The engine, for a position of a real game or if it answers any board (a Prolog program
    does); else the lab's clauses in Python."""
    if engine.any_board or in_game(state, mover):
        return engine
    return _reference(engine.objective)


@cache
def _reference(objective: Objective) -> Engine:
    return make_engine("reference", objective)


def fast_answers(engine: Engine, name: str, args: tuple[Term, ...],
                 substitution: Substitution) -> Iterator[tuple[Term, ...]] | None:
    """The answers of the lab predicate `name` asked with a board and a player (and, for
    `get_action`, two boards), one ground term per argument; None when it is asked otherwise."""
    resolved = tuple(resolve(arg, substitution) for arg in args)
    state = board_of(resolved[0])
    answered = LAB_PREDICATES[name].answered
    if state is None or answered is Answered.CLAUSES:
        return None
    if answered is Answered.BOARDS:
        to_state = board_of(resolved[1])
        if to_state is None:
            return None
        return ((state_term(state), state_term(to_state), action_term(action))
                for action in lab_actions(state, to_state))
    player = player_of(resolved[1])
    if player is None:
        return None
    return _ANSWERS[name](engine, state, player)


def _successor(engine: Engine, state: State, player: Player) -> Iterator[tuple[Term, ...]]:
    for next_state in answering(engine, state, player).successor(state, player):
        yield state_term(state), Atom(player), state_term(next_state)


def _terminal_state(engine: Engine, state: State, player: Player
                    ) -> Iterator[tuple[Term, ...]]:
    for value in answering(engine, state).terminal_values(state, player):
        yield state_term(state), Atom(player), Int(value)


def _max_value(engine: Engine, state: State, player: Player) -> Iterator[tuple[Term, ...]]:
    yield state_term(state), Atom(player), sv_term(
        answering(engine, state, player).max_value(state, player))


def _min_value(engine: Engine, state: State, player: Player) -> Iterator[tuple[Term, ...]]:
    ask = answering(engine, state, engine.other_player(player))
    yield state_term(state), Atom(player), sv_term(ask.min_value(state, player))


def _minimax_decision(engine: Engine, state: State, player: Player
                      ) -> Iterator[tuple[Term, ...]]:
    decision = answering(engine, state, player).minimax_decision(state, player)
    if decision is not None:
        yield (state_term(state), Atom(player), action_term(decision.action),
               Int(whole(decision.value)))


_ANSWERS: dict[str, Callable[[Engine, State, Player], Iterator[tuple[Term, ...]]]] = {
    "successor": _successor, "terminal_state": _terminal_state, "max_value": _max_value,
    "min_value": _min_value, "minimax_decision": _minimax_decision,
}
"""How each predicate answered below (`Answered.BELOW`) is asked of the engine."""


def lab_actions(from_state: State, to_state: State) -> Iterator[Action]:
    """Every answer of the lab's `get_action(From, To, Action)`, on backtracking: each cell,
    in order, blank in From and marked in To (the lab compares no other cell)."""
    for cell, (before, after) in enumerate(zip(from_state, to_state, strict=True), 1):
        if before == BLANK and after != BLANK:
            yield Action(after, cell)


PREDICATES: dict[str, LabPredicate] = LAB_PREDICATES
"""The lab's predicates, in the order the lab presents them (`logic/predicates.py`)."""
