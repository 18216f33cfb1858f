"""The lab's predicates as plain Python functions: the reference the pyDatalog rules are held to.

Each section matches a section of `logic/rules.py`, in the same order, under the lab's names
(docs/lab.md). A predicate that the lab runs as a search becomes a function that returns its
answer; `max_value` and `min_value` call each other as the lab's clauses do.
"""

from __future__ import annotations

from functools import cache

from minimax_lab.facts import load_game
from minimax_lab.logic.objective import LAB, Objective
from minimax_lab.logic.state import State, mark, marks_made
from minimax_lab.logic.terms import SV, Action, Decision

GAME = load_game()


# --- Game facts: other_player -------------------------------------------------------------
# other_player(x, o).
# other_player(o, x).
def other_player(player: str) -> str:
    """The lab's `other_player(Player, OtherPlayer)`, read from the facts."""
    return GAME.other_player(player)


# --- successor (list_replace) -------------------------------------------------------------
# list_replace(Find, Replace, [Find|Rest], [Replace|Rest]).
# list_replace(Find, Replace, [Head|Rest], [Head|Result]) :-
#     list_replace(Find, Replace, Rest, Result).
def list_replace(state: State, cell: int, player: str) -> State:
    """The lab's `list_replace(-, Player, State, Next)` at one blank cell."""
    return mark(state, cell, player)


def moves(state: State, player: str) -> list[tuple[int, State]]:
    """The rules' relation `list_replace(S, P, C, N)`: each blank cell, in cell order, with the
    successor `player` reaches by marking it."""
    return [
        (cell, list_replace(state, cell, player))
        for cell in GAME.cells
        if state[cell - 1] == GAME.blank
    ]


# successor(State, Player, Next) :-
#     blank(Blank),
#     list_replace(Blank, Player, State, Next).
def successor(state: State, player: str) -> list[State]:
    """The lab's `successor(State, Player, Next)`: every Next, in cell order 1..9."""
    return [next_state for _, next_state in moves(state, player)]


# --- terminal_state (winning_config) ------------------------------------------------------
# winning_config(State, Player) :-
#     line(A, B, C),
#     nth1(A, State, Player),
#     nth1(B, State, Player),
#     nth1(C, State, Player).
def winning_config(state: State, player: str) -> bool:
    """The lab's `winning_config`: `player` holds all three cells of some line of the facts."""
    return any(all(state[cell - 1] == player for cell in line) for line in GAME.lines)


# terminal_state(State, Player, 1) :-
#     once(winning_config(State, Player)).
# terminal_state(State, Player, -1) :-
#     other_player(Player, Other),
#     once(winning_config(State, Other)).
# terminal_state(State, _, 0) :-
#     blank(Blank),
#     \+ memberchk(Blank, State),
#     \+ winning_config(State, _).
TERMINAL_VALUES = (1, -1, 0)
"""The values of `terminal_state`'s clauses, in their order: each clause's answer comes in it."""


def terminal_values(state: State, player: str) -> list[int]:
    """Every answer of the lab's `terminal_state(State, Player, Value)`, in clause order: none
    where the game goes on, two (1, -1) where both players hold a line (no game reaches it)."""
    values = [value for value, holder in ((1, player), (-1, other_player(player)))
              if winning_config(state, holder)]
    if not values and GAME.blank not in state:
        values.append(0)
    return values


def terminal_state(state: State, player: str) -> int | None:
    """The lab's `terminal_state(State, Player, Value)`, its first answer (the one
    `max_value`'s cut keeps); None where the game goes on."""
    return next(iter(terminal_values(state, player)), None)


# --- utility (the objective) --------------------------------------------------------------
# utility(S, P, U): terminal_state's value as the objective scores it (logic/objective.py);
# under the lab's objective it is terminal_state's value itself.
def utility(state: State, player: str, objective: Objective = LAB) -> int | None:
    """What `player` maximises at the terminal `state`; None where the game goes on."""
    value = terminal_state(state, player)
    if value is None:
        return None
    return objective.utility(value, marks_made(state))


# --- max_value and min_value (find_max_sv, find_min_sv) -----------------------------------
# find_max_sv(SVs, MaxSV): the first sv of SVs with the highest value.
def find_max_sv(svs: list[SV]) -> SV:
    """The lab's `find_max_sv`: the first sv with the highest value (so the lowest cell)."""
    return max(svs, key=lambda sv: sv.value)


# find_min_sv(SVs, MinSV): the first sv of SVs with the lowest value.
def find_min_sv(svs: list[SV]) -> SV:
    """The lab's `find_min_sv`: the first sv with the lowest value (so the lowest cell)."""
    return min(svs, key=lambda sv: sv.value)


# max_value(State, Player, sv(State, Value)) :-
#     terminal_state(State, Player, Value), !.
# max_value(State, Player, MaxSV) :-
#     findall(sv(Next, Value),
#             ( successor(State, Player, Next),
#               min_value(Next, Player, sv(_, Value)) ),
#             SVs),
#     find_max_sv(SVs, MaxSV).
@cache
def max_value(state: State, player: str, objective: Objective = LAB) -> SV:
    """The lab's `max_value(State, Player, sv(Next, V))`: `player`, the agent, moves at `state`."""
    value = utility(state, player, objective)
    if value is not None:
        return SV(state, value)
    return find_max_sv([SV(next_state, min_value(next_state, player, objective).value)
                        for next_state in successor(state, player)])


# min_value(State, Player, sv(State, Value)) :-
#     terminal_state(State, Player, Value), !.
# min_value(State, Player, MinSV) :-
#     other_player(Player, Other),
#     findall(sv(Next, Value),
#             ( successor(State, Other, Next),
#               max_value(Next, Player, sv(_, Value)) ),
#             SVs),
#     find_min_sv(SVs, MinSV).
@cache
def min_value(state: State, player: str, objective: Objective = LAB) -> SV:
    """The lab's `min_value(State, Player, sv(Next, V))`: the adversary of `player` moves."""
    value = utility(state, player, objective)
    if value is not None:
        return SV(state, value)
    return find_min_sv([SV(next_state, max_value(next_state, player, objective).value)
                        for next_state in successor(state, other_player(player))])


# --- minimax_decision ---------------------------------------------------------------------
# minimax_decision(State, Player, Action, Value) :-
#     max_value(State, Player, sv(Next, Value)),
#     get_action(State, Next, Action).
# At a terminal state max_value answers sv(State, V) and get_action fails: false.
def minimax_decision(
    state: State, player: str, objective: Objective = LAB
) -> Decision | None:
    """The lab's `minimax_decision(State, Player, Action, Value)`; None at a terminal state.
    The value is from `player`'s side in the objective's scoring (`Objective.reported`)."""
    best = max_value(state, player, objective)
    action = get_action(state, best.state)
    if action is None:
        return None
    return Decision(action, objective.reported(best.value, marks_made(state)))


# --- get_action ---------------------------------------------------------------------------
# get_action(From, To, [Player, Position]) :-
#     blank(Blank),
#     nth1(Position, From, Blank),
#     nth1(Position, To, Player),
#     Player \== Blank.
def get_action(from_state: State, to_state: State) -> Action | None:
    """The lab's `get_action(From, To, Action)`: the one cell marked between the two states."""
    changed = [cell for cell in GAME.cells if from_state[cell - 1] != to_state[cell - 1]]
    if len(changed) != 1 or from_state[changed[0] - 1] != GAME.blank:
        return None
    cell = changed[0]
    return Action(to_state[cell - 1], cell)
