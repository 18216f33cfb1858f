"""A Python program's recursive value functions, as its mapping names them (`max_value` and
`min_value`, as the lab's; or one `negamax`): their checks, and the lab's answers to the calls
on the successors of a question's board, for a program judged on its own functions
(docs/grading-reference.md, "Python: judged on its own functions").
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from functools import cache

from minimax_lab.compare.grader.interfaces.mappings import Mapping
from minimax_lab.compare.grader.interfaces.python import PythonCheck, Question, failure, shown
from minimax_lab.compare.grader.interfaces.sample import end_to_end
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict, told
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic import reference
from minimax_lab.logic.contain.python_harness import Unlike, plain
from minimax_lab.logic.contain.python_program import Called
from minimax_lab.logic.positions import fullest_first, reachable_states, to_move
from minimax_lab.logic.state import BLANK, PLAYERS, Player, State, is_terminal, players_to_move
from minimax_lab.logic.terms import whole

MAX, MIN, NEGAMAX = "max_value", "min_value", "negamax"
"""The roles a recursive function plays: the lab's `max_value` (the agent moves, values from
its side), `min_value` (its adversary moves, values from the agent's side), or `negamax` (the
mover moves, values from the mover's side)."""


def roles(mapping: Mapping) -> dict[str, str]:
    """Each recursive function's name and its role."""
    named = {MAX: mapping.max_value, MIN: mapping.min_value, NEGAMAX: mapping.negamax}
    return {name: role for role, name in named.items() if name is not None}


def agents(mapping: Mapping, role: str, state: State) -> tuple[Player, ...]:
    """The players a function of `role` is asked for at `state` (the agent, or for negamax
    the mover): either player where it is told the player (x alone where its values are
    counted from x's side: x's max_value moves x, its min_value moves o); else the one the
    board says in an x-first game (`reads_the_board`), none where the board says its role
    does not apply."""
    if mapping.names_the_value_player:
        return (PLAYERS[0],) if role != NEGAMAX and mapping.value_side == "x" else PLAYERS
    return reads_the_board(mapping, role, state)


def reads_the_board(mapping: Mapping, role: str, state: State) -> tuple[Player, ...]:
    """The agent of a call of `role` at `state` for a function told no player, which reads it
    from the board, x moving first: the board's mover (its adversary for min_value); with
    values from x's side, x maximising and o minimising, so x, where its role's side moves or
    the game is over, else none."""
    if state.count(PLAYERS[0]) - state.count(PLAYERS[1]) not in (0, 1):
        return ()  # no x-first game reaches it: the program says another mover than the lab
    moving = to_move(state)
    if role == NEGAMAX or mapping.value_side != "x":
        return (reference.other_player(moving),) if role == MIN else (moving,)
    if is_terminal(state) or moving == PLAYERS[role == MIN]:
        return (PLAYERS[0],)
    return ()


def mover(role: str, player: Player) -> Player:
    """Who moves in a call of `role` for `player`."""
    return reference.other_player(player) if role == MIN else player


def lab_value(role: str, state: State, player: Player) -> int:
    """The lab's value of a call of `role` for `player` at `state`: the lab's `max_value` or
    `min_value` for the agent, `max_value` for negamax's mover (logic/reference.py)."""
    found = (reference.min_value if role == MIN else reference.max_value)(state, player)
    return whole(found.value)


class ValueFunction(PythonCheck):
    """A recursive value function a mapping names: asked the value (as the program counts
    it: on its scale, `win_value`) on every board of its role, finished boards included."""

    def __init__(self, mapping: Mapping, name: str) -> None:
        self.mapping = mapping
        self.name = name
        self.role = roles(mapping)[name]

    @property
    def key(self) -> Hashable:
        return ("value function", self.name, repr(self.mapping))

    def questions(self) -> Sequence[Question]:
        return value_questions(self.mapping, self.name)

    def arguments(self, question: Question) -> list[object]:
        return self.mapping.value_arguments(question.state, question.player)

    def expected(self, question: Question) -> object:
        return lab_value(self.role, question.state, question.player) * self.mapping.win_value

    def judge(self, question: Question, reply: Called, policy: Policy) -> Verdict:
        failed = failure(reply)
        if failed is not None:
            return failed
        if reply.changed is not None:
            return Verdict(Category.MUTATES, "the board passed in is changed by the call")
        value, expected = reply.value, self.expected(question)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return Verdict(Category.UNREADABLE, f"answers {shown(value)}, not a value")
        if value != expected:
            return told(Category.WRONG_VALUE, f"answers {shown(value)}",
                        f"; the value is {expected}{self.side(question)}")
        return Verdict(Category.RIGHT)

    def side(self, question: Question) -> str:
        """Whose side the value is counted from, said where it is not the mover's."""
        if self.role == NEGAMAX or (self.role == MAX and self.mapping.value_side != "x"):
            return ""
        return f" (from {question.player}'s side)"

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        return frozenset({self.expected(question)})

    def calls_below(self, question: Question) -> list[Question]:
        """The calls the lab's recursion makes below it, in cell order: `min_value` on each
        successor for `max_value`, `max_value` on each of the adversary's for `min_value`,
        negamax on each for the other player (docs/lab.md)."""
        state, player = question.state, question.player
        if is_terminal(state):
            return []
        named = {role: name for name, role in roles(self.mapping).items()}
        if self.role == NEGAMAX:
            return [Question(self.name, after, reference.other_player(player))
                    for after in reference.successor(state, player)]
        below = named[MIN if self.role == MAX else MAX]
        return [Question(below, after, player)
                for after in reference.successor(state, mover(self.role, player))]


@cache
def _states(every_first: bool) -> tuple[State, ...]:
    found = reachable_states(PLAYERS[0]) | (reachable_states(PLAYERS[1]) if every_first
                                            else set())
    return tuple(sorted(found, key=fullest_first))


def value_questions(mapping: Mapping, name: str) -> list[Question]:
    """The questions of the recursive function `name`: every reachable board (x-first games
    only, where it is told no player), for each player of its role who may be asked there
    (`agents`; where the game goes on, one whose role's mover may move)."""
    role = roles(mapping)[name]
    asked = []
    for state in _states(mapping.names_the_value_player):
        movers = players_to_move(state)
        asked += [Question(name, state, player) for player in agents(mapping, role, state)
                  if is_terminal(state) or mover(role, player) in movers]
    return asked


def lab_below(mapping: Mapping, state: State) -> list[list[object]]:
    """The lab's answers to the calls of the recursive functions on each successor of
    `state` (either player's move), as the harness reads them (`python_harness.Below`):
    `[key, value]`, the key the function's name and the arguments the mapping passes as
    `python_harness.plain` writes them, the value on the program's scale. None on a finished
    board, whose value the program finds without a call below."""
    return [[key, lab_value(roles(mapping)[call.check], call.state, call.player)
             * mapping.win_value] for key, call in answered_calls(mapping, state).items()]


def answered_calls(mapping: Mapping, state: State) -> dict[str, Question]:
    """The calls on the successors of `state` the lab answers (`lab_below`), each by the
    harness's key: what a call the program made there (`Called.made`) was."""
    if is_terminal(state) or not mapping.recursive:
        return {}
    calls: dict[str, Question] = {}
    for cell, blank in enumerate(state, 1):
        if blank != BLANK:
            continue
        for mark in PLAYERS:
            after = State(state[:cell - 1] + mark + state[cell:])
            for name, role in roles(mapping).items():
                calls.update((key, Question(name, after, player))
                             for player in agents(mapping, role, after)
                             if (key := _key(name, mapping.value_arguments(after, player))))
    return calls


def _key(name: str, arguments: list[object]) -> str | None:
    """The harness's key for a call; None for arguments no call can match (an argument of
    the mapping's that is a table)."""
    try:
        return name + plain(arguments)
    except Unlike:
        return None


def sampled(questions: Sequence[Question], per_blanks: int) -> list[Question]:
    """The end-to-end sample of `questions` (`compare.grader.interfaces.sample`), marked."""
    return [replace(question, sample=True) for question in end_to_end(
        questions, per_blanks, lambda question: (question.state, question.player))]
