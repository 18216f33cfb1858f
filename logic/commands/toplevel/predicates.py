"""The lab's predicates (docs/lab.md), each answered through an `Engine` with constants.

A predicate reads some arguments (a state must be bound) and answers the others; the solver
unifies each answer with the goal. As the lab's program does, every predicate accepts any
well-formed board (9 cells of `x`, `o`, `-`) and any player, whether or not a game reaches it
or it is that player's move: the engine answers the positions of real games, and the
reference (`logic/reference.py`, the lab's clauses in Python) the others, as the lab's
Prolog would. Where the lab's Prolog would need a bound argument, a variable is either
enumerated over a small finite domain or refused with SWI's "arguments are not sufficiently
instantiated":

- a player left unbound ranges over the players who may move there (x before o), as
  `logic.state.check_turn` would accept them; at a finished or unreachable board, over both;
- `get_action(From, To, A)` with `To` not bound runs over the successors of `From`;
- a state the predicate reads (the first argument of each, and `To` when bound) must be bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from logic.commands.toplevel.errors import InstantiationError
from logic.commands.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    Term,
    Var,
    action_term,
    format_term,
    is_ground,
    state_term,
    sv_term,
)
from logic.engines import Engine, make_engine
from logic.objective import Objective
from logic.state import (
    BLANK,
    PLAYERS,
    Player,
    State,
    StateError,
    check_legal,
    check_turn,
    is_terminal,
    parse_player,
    parse_state,
    players_to_move,
)
from logic.terms import Action

Answers = Iterator[tuple[Term, ...]]
"""Every answer of a predicate: one ground term per argument, in a fixed order."""


@dataclass(frozen=True)
class Predicate:
    """A lab predicate: its arguments, what it means, an example goal, and how it is answered."""

    name: str
    arguments: tuple[str, ...]
    meaning: str
    example: str
    answer: Callable[[Engine, tuple[Term, ...]], Answers]

    @property
    def indicator(self) -> str:
        """Prolog's name/arity, e.g. `successor/3`."""
        return f"{self.name}/{len(self.arguments)}"

    @property
    def signature(self) -> str:
        """The predicate with its argument names, e.g. `successor(State, Player, Next)`."""
        return f"{self.name}({', '.join(self.arguments)})"


def read_state(term: Term, predicate: str, argument: str) -> State:
    """The legal state (docs/lab.md) that `term` spells, or the error that says why it is not."""
    if isinstance(term, Var) or (isinstance(term, ListTerm) and not is_ground(term)):
        found = "is unbound" if isinstance(term, Var) else "holds variables"
        raise InstantiationError(
            f"arguments are not sufficiently instantiated: {predicate} needs {argument} "
            f"bound to a state, and {format_term(term)} {found}"
        )
    if not isinstance(term, ListTerm):
        raise StateError(
            f"{format_term(term)} is not a state; a state is a list of 9 cells such as "
            "[o,-,x,-,-,-,-,-,-], or o-x------"
        )
    cells = []
    for number, item in enumerate(term.items, start=1):
        if not isinstance(item, Atom) or len(item.name) != 1:
            raise StateError(
                f"cell {number} is {format_term(item)!r}; each cell is one of -, x, o"
            )
        cells.append(item.name)
    return parse_state("[" + ",".join(cells) + "]")


def read_player(term: Term) -> Player | None:
    """The player `term` names, None for a variable, or the error that says why it is none."""
    if isinstance(term, Var):
        return None
    if isinstance(term, Atom) and term.name in PLAYERS:
        return term.name
    return parse_player(format_term(term))


def players_asked(
    state: State, bound: Player | None, mover: Callable[[Player], Player], predicate: str
) -> list[Player]:
    """The players a predicate answers for: the bound one, as the lab's program does; else
    those who may move, or both at a finished or unreachable board."""
    if bound is not None:
        return [bound]
    if not in_game(state) or is_terminal(state):
        return list(PLAYERS)
    # mover(player) is who moves when asked for player: itself, or its adversary for min_value
    return [player for player in PLAYERS if mover(player) in players_to_move(state)]


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


def _itself(player: Player) -> Player:
    return player


def other_player(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`other_player(Player, Other)`: x before o when Player is unbound."""
    player = read_player(args[0])
    for asked in [player] if player is not None else PLAYERS:
        yield Atom(asked), Atom(engine.other_player(asked))


def successor(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`successor(State, Player, Next)`: every Next in cell order, for each player asked."""
    state = read_state(args[0], "successor/3", "State")
    for player in players_asked(state, read_player(args[1]), _itself, "successor/3"):
        for next_state in answering(engine, state, player).successor(state, player):
            yield state_term(state), Atom(player), state_term(next_state)


def terminal_state(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`terminal_state(State, Player, Value)`: no answer where the game goes on."""
    state = read_state(args[0], "terminal_state/3", "State")
    player = read_player(args[1])
    for asked in [player] if player is not None else PLAYERS:
        value = answering(engine, state).terminal_state(state, asked)
        if value is not None:
            yield state_term(state), Atom(asked), Int(value)


def max_value(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`max_value(State, Player, sv(Next, Value))`: Player moves at State."""
    state = read_state(args[0], "max_value/3", "State")
    for player in players_asked(state, read_player(args[1]), _itself, "max_value/3"):
        ask = answering(engine, state, player)
        yield state_term(state), Atom(player), sv_term(ask.max_value(state, player))


def min_value(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`min_value(State, Player, sv(Next, Value))`: Player's adversary moves at State."""
    state = read_state(args[0], "min_value/3", "State")
    asked = players_asked(state, read_player(args[1]), engine.other_player, "min_value/3")
    for player in asked:
        ask = answering(engine, state, engine.other_player(player))
        yield state_term(state), Atom(player), sv_term(ask.min_value(state, player))


def minimax_decision(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`minimax_decision(State, Player, Action, Value)`: one answer, the decision (docs/lab.md)."""
    state = read_state(args[0], "minimax_decision/4", "State")
    for player in players_asked(state, read_player(args[1]), _itself, "minimax_decision/4"):
        decision = answering(engine, state, player).minimax_decision(state, player)
        if decision is not None:
            yield state_term(state), Atom(player), action_term(decision.action), Int(decision.value)


def get_action(engine: Engine, args: tuple[Term, ...]) -> Answers:
    """`get_action(From, To, Action)`; with To not bound, over the successors of From."""
    from_state = read_state(args[0], "get_action/3", "From")
    if is_ground(args[1]):
        targets = [read_state(args[1], "get_action/3", "To")]
    else:
        targets = [
            next_state
            for player in players_asked(from_state, None, _itself, "get_action/3")
            for next_state in answering(engine, from_state, player).successor(from_state, player)
        ]
    for to_state in targets:
        for action in lab_actions(from_state, to_state):
            yield state_term(from_state), state_term(to_state), action_term(action)


def lab_actions(from_state: State, to_state: State) -> Iterator[Action]:
    """Every answer of the lab's `get_action(From, To, Action)`, on backtracking: each cell,
    in order, blank in From and marked in To (the lab compares no other cell)."""
    for cell, (before, after) in enumerate(zip(from_state, to_state, strict=True), 1):
        if before == BLANK and after != BLANK:
            yield Action(after, cell)


PREDICATES: dict[str, Predicate] = {
    predicate.name: predicate
    for predicate in (
        Predicate(
            "minimax_decision", ("State", "Player", "Action", "Value"),
            "the optimal Action = [Player,Position] for Player to move, and the Value it secures",
            "minimax_decision(o-x------, o, Action, Value).", minimax_decision,
        ),
        Predicate(
            "min_value", ("State", "Player", "sv(Next, Value)"),
            "Player's adversary moves: the successor with the lowest value, from Player's side",
            "min_value(xx-oo----, o, sv(Next, Value)).", min_value,
        ),
        Predicate(
            "max_value", ("State", "Player", "sv(Next, Value)"),
            "Player moves: the successor with the highest value (State itself when it is over)",
            "max_value(xx-oo----, x, sv(Next, Value)).", max_value,
        ),
        Predicate(
            "terminal_state", ("State", "Player", "Value"),
            "State is over: 1 if Player has a line, -1 if the other player has, 0 full board",
            "terminal_state(xxxoo----, Player, Value).", terminal_state,
        ),
        Predicate(
            "successor", ("State", "Player", "Next"),
            "Next is State with one blank cell marked by Player, in cell order",
            "successor(x--------, o, Next).", successor,
        ),
        Predicate(
            "other_player", ("Player", "Other"),
            "the adversary of Player",
            "other_player(x, Other).", other_player,
        ),
        Predicate(
            "get_action", ("From", "To", "Action"),
            "the action [Player,Position] that turns From into To",
            "get_action(x--------, xo-------, Action).", get_action,
        ),
    )
}
"""The lab's predicates, in the order the lab presents them."""
