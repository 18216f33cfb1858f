"""What `grade --interface cs50|function` asks a student's Python program, and how each answer
is judged against the reference (`logic/reference.py`): one object per function.

CS50 AI's functions are asked on every x-first state they apply to: `player` and `actions` on
the games in progress (on a finished board CS50 accepts any answer), `result` for every legal
action and one illegal one, `winner` and `terminal` on every state, `utility` on the finished
ones, `minimax` on every state (None on a finished board). A declared function is asked for a
move on every position of the player it moves for.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from minimax_lab.compare.grader.interfaces.ends import End
from minimax_lab.compare.grader.interfaces.interface import Check
from minimax_lab.compare.grader.interfaces.mappings import (
    CS50,
    CS50_FUNCTIONS,
    Mapping,
    Returns,
    Side,
    move_cell,
)
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict, told
from minimax_lab.compare.judge.truth import Answer, Judgement, Policy, Ties, Truth, Values, truth
from minimax_lab.logic import reference
from minimax_lab.logic.contain.python_program import Called
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.positions import all_positions, fullest_first, reachable_states, to_move
from minimax_lab.logic.state import BLANK, PLAYERS, SIDE, Player, State, is_terminal, mark, winner
from minimax_lab.logic.terms import whole


@dataclass(frozen=True)
class Question:
    """One call: the function, the board (a state), the player to move (the agent, for a
    declared `max_value` or `min_value`), and for `result` the action's cell; `sample` marks
    a question of the end-to-end sample of a grade judged on its own functions, `played` a
    decision of the play check (`compare.grader.interfaces.play`); both are asked of the whole
    program."""

    check: str
    state: State
    player: Player
    cell: int | None = None
    sample: bool = False
    played: bool = False

    def __str__(self) -> str:
        action = "" if self.cell is None else f", {divmod(self.cell - 1, SIDE)}"
        said = f"{self.check}({self.state}{action})"
        return said + (" (end to end)" if self.sample else " (play)" if self.played else "")

    @property
    def whole_program(self) -> bool:
        """True for a question asked of the whole program, given no answer of the lab's."""
        return self.sample or self.played


class PythonCheck(Check[Question, Called]):
    """One function of a Python program: called on its questions with `arguments`; a call
    that fails (raises, runs out of time, dies) or changes its argument is judged so, else its
    value by `returned`, which compares it with `expected` unless told otherwise."""

    def arguments(self, question: Question) -> list[object]:
        """The call's arguments, as the harness decodes them."""
        return [question.state]

    def expected(self, question: Question) -> object:
        """The right value."""
        raise NotImplementedError

    def judge(self, question: Question, reply: Called, policy: Policy) -> Verdict:
        failed = failure(reply)
        if failed is not None:
            return failed
        if reply.changed is not None:
            return Verdict(Category.MUTATES, "the board passed in is changed by the call")
        return self.returned(question, reply.value, policy)

    def returned(self, question: Question, value: object, policy: Policy) -> Verdict:
        """The verdict on the value the call returned."""
        return compared(value, self.read(value), self.expected(question))

    def read(self, value: object) -> object:
        """The value as the reference writes it (a tuple or a set as Python has it)."""
        return value

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        return frozenset({frozen(self.expected(question))})

    def ties(self, question: Question) -> bool:
        """True where several answers are right, so that a random program shows there."""
        return False


def compared(value: object, read: object, expected: object) -> Verdict:
    """Right when `read` (the value as read) is `expected`, of its type; else a wrong answer
    that says both."""
    if read != expected or type(read) is not type(expected):
        return told(Category.WRONG_ANSWER, f"answers {shown(value)}",
                    f"; the answer is {_python(expected)}")
    return Verdict(Category.RIGHT)


def failure(called: Called) -> Verdict | None:
    """The verdict on a call that returned nothing: it raised, ran out of time or died."""
    end = End(called.end)
    if end is End.RAISED:
        return Verdict(Category.EXCEPTION, f"raises {called.error}")
    if end is End.CPU:
        return Verdict(Category.CPU_LIMIT, "no answer within the CPU time limit")
    if end is End.TIME:
        return Verdict(Category.TIME_LIMIT, "no answer within the time limit (wall clock)")
    if end is End.DIED:
        return Verdict(Category.DIED, called.error or "the program died")
    return None


def frozen(value: object) -> Hashable:
    """`value` as a key: lists as tuples, sets as frozensets."""
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, set | frozenset):
        return frozenset(frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(key), frozen(item)) for key, item in value.items()))
    return value if isinstance(value, Hashable) else repr(value)


# --- CS50 AI's tictactoe.py ------------------------------------------------------------------

NAMES = {PLAYERS[0]: "X", PLAYERS[1]: "O"}
"""CS50's players."""


@cache
def _x_first() -> tuple[State, ...]:
    """The states of x-first games, the fullest first."""
    return tuple(sorted(reachable_states(PLAYERS[0]), key=fullest_first))


class CS50Function(PythonCheck):
    """One of CS50 AI's functions: asked on the x-first states it `applies` to, with CS50's
    board."""

    def applies(self, state: State) -> bool:
        """True for the states it is asked on."""
        return True

    def questions(self) -> Sequence[Question]:
        return _cs50_questions(self.name)

    def asked(self, state: State) -> list[Question]:
        """Its questions on `state`."""
        return [Question(self.name, state, to_move(state))] if self.applies(state) else []

    def arguments(self, question: Question) -> list[object]:
        return [CS50.encode_board(question.state)]


class PlayerFunction(CS50Function):
    """`player(board)`: "X" when the counts are equal, else "O"; on games in progress."""

    name = "player"

    def applies(self, state: State) -> bool:
        return not is_terminal(state)

    def expected(self, question: Question) -> object:
        return NAMES[to_move(question.state)]


class Actions(CS50Function):
    """`actions(board)`: the set of (i, j) of the blank cells; on games in progress."""

    name = "actions"

    def applies(self, state: State) -> bool:
        return not is_terminal(state)

    def expected(self, question: Question) -> object:
        return {divmod(cell - 1, SIDE) for cell, _ in reference.moves(question.state,
                                                                      question.player)}

    def returned(self, question: Question, value: object, policy: Policy) -> Verdict:
        items = _pairs(value)
        if items is None:
            return Verdict(Category.UNREADABLE, f"answers {shown(value)}, not a set of (i, j)")
        if len(items) != len(set(items)):
            return Verdict(Category.WRONG_ANSWER, "answers some action twice")
        return compared(value, set(items), self.expected(question))


class Result(CS50Function):
    """`result(board, action)`: the new board, the one passed in unchanged; for a taken cell,
    an exception, credited only on a board where `result` returned for every legal action
    asked (docs/grading-reference.md). One per session: it keeps, per board, whether that held."""

    name = "result"

    def __init__(self) -> None:
        self.legal: dict[State, bool] = {}

    def asked(self, state: State) -> list[Question]:
        if is_terminal(state):
            return []
        mover = to_move(state)
        asked = [Question(self.name, state, mover, cell)
                 for cell, _ in reference.moves(state, mover)]
        taken = state.find(PLAYERS[0]) + 1 or state.find(PLAYERS[1]) + 1
        return asked + ([Question(self.name, state, mover, taken)] if taken else [])

    def arguments(self, question: Question) -> list[object]:
        return [*super().arguments(question), {"tuple": list(divmod(_cell(question) - 1,
                                                                     SIDE))}]

    def expected(self, question: Question) -> object:
        return CS50.encode_board(mark(question.state, _cell(question), question.player))

    def judge(self, question: Question, reply: Called, policy: Policy) -> Verdict:
        state, cell = question.state, _cell(question)
        if state[cell - 1] == BLANK:  # asked before the taken cell
            self.legal[state] = self.legal.get(state, True) and reply.end == End.RETURNED
            return super().judge(question, reply, policy)
        return self.taken(question, reply, self.legal.get(state, False))

    def taken(self, question: Question, called: Called, legal_returned: bool) -> Verdict:
        """The verdict on an action on a taken cell: an exception is right only where the
        same board's legal actions returned."""
        if called.end == End.RAISED and legal_returned:
            return Verdict(Category.RIGHT)
        if called.end == End.RAISED:
            return Verdict(Category.EXCEPTION, f"raises {called.error}; it raises on legal "
                           "actions of this board too, so the exception says nothing of the "
                           "taken cell")
        failed = failure(called)
        if failed is not None:
            return failed
        return Verdict(Category.NO_EXCEPTION, f"answers {shown(called.value)} for the taken "
                       f"cell {divmod(_cell(question) - 1, SIDE)}; CS50 asks for an exception")

    def returned(self, question: Question, value: object, policy: Policy) -> Verdict:
        board = _board(value)
        if board is None:
            return Verdict(Category.UNREADABLE, f"answers {shown(value)}, not a board")
        return compared(value, board, self.expected(question))

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """The board; none for a taken cell, whose exception is right only beside boards
        returned for the legal actions, which no constant answer gives."""
        if question.state[_cell(question) - 1] != BLANK:
            return frozenset()
        return super().right(question, policy)


class Winner(CS50Function):
    """`winner(board)`: "X", "O" or None; on every state."""

    name = "winner"

    def expected(self, question: Question) -> object:
        won = winner(question.state)
        return None if won is None else NAMES[won]


class Terminal(CS50Function):
    """`terminal(board)`: True when someone has a line or the board is full; on every state."""

    name = "terminal"

    def expected(self, question: Question) -> object:
        return is_terminal(question.state)

    def read(self, value: object) -> object:
        return bool(value) if isinstance(value, int) else value

    def calls_below(self, question: Question) -> list[Question]:
        """`winner` on its board."""
        return [Question("winner", question.state, question.player)]


class Utility(CS50Function):
    """`utility(board)`: 1, -1 or 0, from X's side; on the finished boards."""

    name = "utility"

    def applies(self, state: State) -> bool:
        return is_terminal(state)

    def expected(self, question: Question) -> object:
        won = winner(question.state)
        return 0 if won is None else (1 if won == PLAYERS[0] else -1)

    def calls_below(self, question: Question) -> list[Question]:
        """`winner` on its board."""
        return [Question("winner", question.state, question.player)]


class Minimax(CS50Function):
    """`minimax(board)`: an optimal move (i, j) for the player to move (any, as CS50's
    specification says, unless the lab's tie rule is asked for); None on a finished board.
    It gives no value, so it is graded on moves."""

    name = "minimax"

    def returned(self, question: Question, value: object, policy: Policy) -> Verdict:
        if is_terminal(question.state):
            if value is None:
                return Verdict(Category.RIGHT)
            cell, _ = move_cell(value, Returns.ROW_COL)
            if cell is None:
                return Verdict(Category.UNREADABLE, f"answers {shown(value)}, neither a move "
                               "(i, j) nor None; the game is over, so None")
            return Verdict(Category.OVER_ANSWERED, f"answers {shown(value)} (cell {cell}); "
                           "the game is over, so None")

        def shown_value(lab: int) -> int:  # CS50's utility: from X's side
            return _program_value(lab, question.player, CS50)

        return judge_move(question, value, Returns.ROW_COL, _moves_truth(policy),
                          shown_value=shown_value, side=_side(question.player, CS50))

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """The cells of the right moves; None on a finished board."""
        if is_terminal(question.state):
            return frozenset({None})
        return frozenset(optimal_cells(_moves_truth(policy), (question.state,
                                                              question.player)))

    def ties(self, question: Question) -> bool:
        return has_ties(question, Objective("win", "lab"))

    def calls_below(self, question: Question) -> list[Question]:
        """`terminal`, then on a game in progress `player`, `actions` and `result` for each
        action in cell order, and on each board that results `terminal`, then `utility`
        where the game is over, else `minimax`, as CS50's specification has them."""
        state = question.state
        calls = [Question("terminal", state, question.player)]
        if is_terminal(state):
            return calls
        mover = to_move(state)
        cells = [cell for cell, _ in reference.moves(state, mover)]
        calls += [Question("player", state, mover), Question("actions", state, mover)]
        calls += [Question("result", state, mover, cell) for cell in cells]
        for _, after in reference.moves(state, mover):
            calls.append(Question("terminal", after, to_move(after)))
            calls.append(Question("utility" if is_terminal(after) else "minimax", after,
                                  to_move(after)))
        return calls


class Play(PythonCheck):
    """The play check (`compare.grader.interfaces.play`): the whole program's move, `function`
    called on every board of its strategy tree where it `asks` for the player, judged as that
    function's own check judges it; its questions are asked as the games go. `unplayable` says why a
    program has no play check ("": it has one)."""

    name = PLAY

    def __init__(self, function: str, asks: Callable[[State, Player], bool],
                 unplayable: str = "") -> None:
        self.function = function
        self.asks = asks
        self.unplayable = unplayable

    def questions(self) -> Sequence[Question]:
        return ()

    def decision(self, state: State, player: Player) -> Question | None:
        """The call that asks the program its move for `player` on `state`; None where it
        is not asked there."""
        if self.unplayable or is_terminal(state) or not self.asks(state, player):
            return None
        return Question(self.function, state, player, played=True)


def cs50_play() -> Play:
    """CS50's play check: `minimax(board)`, for the player CS50's `player(board)` gives."""
    return Play("minimax", lambda state, player: player == to_move(state))


def cs50_functions() -> dict[str, CS50Function]:
    """CS50's functions, in report order, fresh for one submission (`result` keeps what it
    saw of each board)."""
    made: list[CS50Function] = [PlayerFunction(), Actions(), Result(), Winner(), Terminal(),
                                Utility(), Minimax()]
    assert tuple(function.name for function in made) == CS50_FUNCTIONS
    return {function.name: function for function in made}


@cache
def _cs50_questions(name: str) -> tuple[Question, ...]:
    function = cs50_functions()[name]
    return tuple(question for state in _x_first() for question in function.asked(state))


def cs50_questions(functions: tuple[str, ...]) -> list[Question]:
    """Every question for CS50's `functions`, the fullest boards first (the cheapest, so that
    a time budget that runs out leaves the costliest unasked)."""
    asked = [question for name in CS50_FUNCTIONS if name in functions
             for question in _cs50_questions(name)]
    return sorted(asked, key=lambda question: fullest_first(question.state))


def cs50_calls_below(question: Question) -> list[Question]:
    """The calls CS50's functions make for `question`, as its specification has them."""
    return cs50_functions()[question.check].calls_below(question)


# --- a function declared by a mapping --------------------------------------------------------

class DeclaredFunction(PythonCheck):
    """A function of the program's own, declared by a mapping: asked for a move (or a value)
    on every position of a player it moves for; not walked (which functions it calls is the
    program's own choice)."""

    def __init__(self, mapping: Mapping) -> None:
        self.mapping = mapping
        self.name = mapping.function

    @property
    def key(self) -> Hashable:
        return ("function", repr(self.mapping))

    def questions(self) -> Sequence[Question]:
        return function_questions(self.mapping)

    def arguments(self, question: Question) -> list[object]:
        return self.mapping.arguments(question.state, question.player)

    def judge(self, question: Question, reply: Called, policy: Policy) -> Verdict:
        if not self.mapping.picks or reply.end != End.RETURNED:
            return judge_function(question, reply, self.mapping, policy)
        return _judge_picked(question, reply, self.mapping, policy)

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """Its right answers: the value; or the cells of the right moves, with the value
        where it gives one that is graded."""
        judged_by = self.truth(policy)
        position = (question.state, question.player)
        best = judged_by.decision(position).value
        if self.mapping.returns is Returns.VALUE:
            return frozenset({("value", best)})
        value = best if judged_by.policy.graded else None
        return frozenset((cell, value) for cell in optimal_cells(judged_by, position))

    def truth(self, policy: Policy) -> Truth:
        """The reference it is judged by: its objective; values graded only where it gives
        them."""
        graded = policy if self.mapping.gives_values else Policy(policy.ties, Values.NONE)
        return truth(Objective(self.mapping.objective, "lab"), graded)

    def ties(self, question: Question) -> bool:
        return self.mapping.returns is not Returns.VALUE and has_ties(
            question, Objective(self.mapping.objective, "lab"))


def _judge_picked(question: Question, reply: Called, mapping: Mapping,
                  policy: Policy) -> Verdict:
    """A function's answer where the mapping's return paths name its parts (the harness
    returns them as a tuple: the move's, then the value's): judged as the same function
    returning (row, col[, value]) would be, said as the paths name them."""
    parts = reply.value.get("tuple") if isinstance(reply.value, dict) else None
    paths = [text for text in (mapping.move, mapping.value) if text is not None]
    if parts is None or len(parts) != len(paths):
        return Verdict(Category.UNREADABLE, f"answers {shown(reply.value)}, not the parts "
                       f"its mapping's paths name")
    said = ", ".join(f"{path} = {shown(part)}" for path, part in zip(paths, parts,
                                                                     strict=True))
    if mapping.move is None:
        answer, returns = parts[0], Returns.VALUE
    else:
        cell, _ = move_cell(parts[0], mapping.returns)
        if cell is None:
            return Verdict(Category.UNREADABLE, f"answers {said}, not a move on the board")
        move: list[object] = [(cell - 1) // SIDE, (cell - 1) % SIDE]
        answer = [*move, *parts[1:]]
        returns = Returns.ROW_COL_VALUE if mapping.value is not None else Returns.ROW_COL
    verdict = judge_function(question, replace(reply, value=answer),
                             replace(mapping, returns=returns, move=None, value=None), policy)
    return replace(verdict, detail=verdict.detail.replace(f"answers {shown(answer)}",
                                                          f"answers {said}", 1))


def function_questions(mapping: Mapping) -> list[Question]:
    """A move asked of the declared function on every position of a player it moves for."""
    movers = mapping.movers()
    positions = [(state, player) for state, player in all_positions() if player in movers]
    if mapping.reads_the_mover:
        positions = [(state, player) for state, player in positions
                     if player == to_move(state)]
    positions.sort(key=lambda position: (fullest_first(position[0]), position[1]))
    return [Question(mapping.function, state, player) for state, player in positions]


def function_play(mapping: Mapping) -> Play:
    """A declared function's play check: asked on the positions its questions are, of the
    players it moves for; none for a function that gives a value, or plays to lose (a game
    is judged by the value of playing to win)."""
    movers = mapping.movers()

    def asks(state: State, player: Player) -> bool:
        return player in movers and (not mapping.reads_the_mover or player == to_move(state))

    unplayable = (f"{mapping.function}() returns a value, not a move to play"
                  if mapping.returns is Returns.VALUE else
                  f"{mapping.function}() plays to {mapping.objective}, and a game is judged "
                  "by its value to win" if mapping.objective != "win" else "")
    return Play(mapping.function, asks, unplayable)


def judge_function(question: Question, called: Called, mapping: Mapping,
                   policy: Policy, words: Callable[[int], str] | None = None) -> Verdict:
    """The verdict on one call of a declared function; `words` names a cell in what it says
    (by default as (row, col) with the cell)."""
    failed = failure(called)
    if failed is not None:
        return failed
    if called.changed is not None:
        return Verdict(Category.MUTATES, "the board passed in is changed by the call")
    judged_by = DeclaredFunction(mapping).truth(policy)
    if mapping.returns is Returns.VALUE:
        return _judge_value(question, called.value, mapping, judged_by)

    def value_of(raw: object) -> int | None:
        return lab_value(raw, question.player, mapping)

    def shown_value(value: int) -> int:
        return _program_value(value, question.player, mapping)

    if not mapping.gives_values:  # no scale of its own: the mover's, as the lab counts
        return judge_move(question, called.value, mapping.returns, judged_by, words=words)
    return judge_move(question, called.value, mapping.returns, judged_by,
                      value_of if judged_by.policy.graded else None, shown_value,
                      _side(question.player, mapping), words)


# --- moves and values --------------------------------------------------------------------------

def optimal_cells(judged_by: Truth, position: tuple[State, Player]) -> set[int]:
    """The cells of the moves `judged_by` takes for right: the lab's lowest optimal cell, or
    under `--ties any` every optimal one."""
    decision = judged_by.decision(position)
    if judged_by.policy.ties is Ties.LOWEST:
        return {decision.action.cell}
    return {cell for cell, value in judged_by.move_values(position).items()
            if value == decision.value}


def has_ties(question: Question, objective: Objective) -> bool:
    """True for a move asked where several moves are optimal: a random program shows there."""
    if is_terminal(question.state):
        return False
    judged_by = truth(objective)
    position = (question.state, question.player)
    best = judged_by.decision(position).value
    return sum(value == best for value in judged_by.move_values(position).values()) > 1


MOVES = (Returns.ROW_COL, Returns.ROW_COL_VALUE, Returns.MOVE_VALUE)
"""The answers that name a move as (row, col)."""


def judge_move(question: Question, answer: object, returns: Returns, truth: Truth,
               value_of: Callable[[object], int | None] | None = None,
               shown_value: Callable[[int], int] | None = None, side: str = "",
               words: Callable[[int], str] | None = None) -> Verdict:
    """The verdict on a move (and value) at a game in progress, graded by `truth`; what it
    says names moves by `words` (by default as (row, col) with their cell), and values as the
    program gives them (`shown_value` turns a lab value into the program's, counted from
    `side`: said where it is not the mover's)."""
    cell, raw = move_cell(answer, returns)
    if cell is None:
        return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, not a move on the board")
    value: int | None = None
    if truth.policy.graded and value_of is not None:
        value = value_of(raw)
        if value is None:
            return Verdict(Category.UNREADABLE,
                           f"answers {shown(answer)}, whose value is no number")
    judgement = truth.judge(Answer((question.state, question.player), cell, value))
    if judgement.right:
        return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,) * judgement.tie_break,
                       judgement=judgement)
    said, lab = _move_detail(judgement, answer, returns, shown_value, words or _move_words)
    if side and judgement.category in (Category.SUBOPTIMAL, Category.WRONG_VALUE):
        lab += f" (values from {side})"
    return told(judgement.category, said, lab, judgement=judgement)


def _moves_truth(policy: Policy) -> Truth:
    """CS50's `minimax` gives a move and no value: graded on its moves."""
    return truth(Objective("win", "lab"), Policy(policy.ties, Values.NONE))


def _side(mover: Player, mapping: Mapping) -> str:
    """The side a mapping's values are counted from, where it is not the mover's."""
    if mapping.value_side is not Side.X or mover == PLAYERS[0]:
        return ""
    if mapping == CS50:
        return "X's side, as utility counts them"
    return f"x's side (x plays {shown(mapping.x)}), as the mapping's value_side says"


def _move_detail(judgement: Judgement, answer: object, returns: Returns,
                 shown_value: Callable[[int], int] | None = None,
                 words: Callable[[int], str] | None = None) -> tuple[str, str]:
    """Why a move disagrees, in the program's terms: what it answered, and the lab's answer;
    a cell named by `words` (by default as (row, col) with the cell)."""
    move_words = words or _move_words
    def worth(value: int) -> str:
        return str(shown_value(value) if shown_value is not None else value)

    cell, best = judgement.answer.cell, judgement.expected.action.cell
    said = (f"answers {shown(answer)} (cell {cell})" if returns in MOVES
            else f"answers {shown(answer)}, {move_words(cell)}")
    if judgement.category is Category.ILLEGAL_MOVE:
        return f"{said}: that cell is taken", ""
    if judgement.category is Category.SUBOPTIMAL:
        return said, (f", worth {worth(judgement.move_values[cell])}; the best move, "
                      f"{move_words(best)}, is worth {worth(whole(judgement.expected.value))}")
    if judgement.category is Category.WRONG_VALUE:
        return said, f": that move is optimal and worth {worth(judgement.move_values[cell])}"
    return said, f": optimal too, but the lab's tie rule takes the lowest cell, {move_words(best)}"


def _judge_value(question: Question, answer: object, mapping: Mapping, truth: Truth) -> Verdict:
    value = lab_value(answer, question.player, mapping)
    if value is None:
        return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, not a value")
    expected = truth.decision((question.state, question.player)).value
    if value != expected:
        said = _program_value(whole(expected), question.player, mapping)
        return told(Category.WRONG_VALUE, f"answers {shown(answer)}", f"; the value is {said}")
    return Verdict(Category.RIGHT)


def lab_value(raw: object, mover: Player, mapping: Mapping) -> int | None:
    """A program's value as the lab's: from the mover's side, in -1, 0, 1 (2, which never
    agrees, for a number on no scale of the mapping's)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    if raw not in (-mapping.win_value, 0, mapping.win_value):
        return 2  # no value of the lab's, so it never agrees
    value = int(raw) // mapping.win_value
    return -value if mapping.value_side is Side.X and mover != PLAYERS[0] else value


def _program_value(value: int, mover: Player, mapping: Mapping) -> int:
    if mapping.value_side is Side.X and mover != PLAYERS[0]:
        value = -value
    return value * mapping.win_value


def _cell(question: Question) -> int:
    if question.cell is None:
        raise ValueError(f"{question} names no action")
    return question.cell


def _pairs(value: object) -> list[tuple[int, int]] | None:
    items = value.get("set", value.get("tuple")) if isinstance(value, dict) else value
    if not isinstance(items, list):
        return None
    pairs = []
    for item in items:
        pair = item.get("tuple") if isinstance(item, dict) else item
        if not (isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) for n in pair)):
            return None
        pairs.append((pair[0], pair[1]))
    return pairs


def _board(value: object) -> list[Any] | None:
    rows = value.get("tuple") if isinstance(value, dict) else value
    if not (isinstance(rows, list) and len(rows) == SIDE):
        return None
    board = []
    for row in rows:
        cells = row.get("tuple") if isinstance(row, dict) else row
        if not (isinstance(cells, list) and len(cells) == SIDE):
            return None
        board.append(cells)
    return board


def _move_words(cell: int) -> str:
    return f"{divmod(cell - 1, SIDE)} (cell {cell})"


def _python(value: object) -> str:
    if isinstance(value, set):
        return "{" + ", ".join(map(str, sorted(value))) + "}" if value else "set()"
    return repr(value)


SHOWN = 300
"""Characters of an answer shown in a report at most; the rest is cut, `...` said."""


def shown(value: object) -> str:
    """An answer as the program wrote it, near enough: tuples and sets as Python shows them;
    cut at `SHOWN` characters."""
    text = _shown(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _shown(value: object) -> str:
    if isinstance(value, dict):
        if "tuple" in value:
            items = [_shown(item) for item in value["tuple"]]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if "set" in value:
            return "{" + ", ".join(_shown(item) for item in value["set"]) + "}" if value[
                "set"] else "set()"
        return str(value.get("repr", "?"))
    if isinstance(value, list):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    return repr(value)
