"""What `grade --interface cs50|function` asks a student's Python program, and how each answer
is judged against the reference (`logic/reference.py`).

CS50 AI's functions are asked on every x-first state they apply to: `player` and `actions` on
the games in progress (on a finished board CS50 accepts any answer), `result` for every legal
action and one illegal one, `winner` and `terminal` on every state, `utility` on the finished
ones, `minimax` on every state (None on a finished board). A declared function is asked for a
move on every position of the player it moves for.
"""

from __future__ import annotations

from dataclasses import dataclass

from compare.grader.mappings import CS50, Mapping, move_cell
from compare.judge.categories import Category
from compare.judge.results import Verdict
from compare.judge.truth import Answer, Judgement, Policy, Truth, truth
from logic import reference
from logic.contain.python_program import Called
from logic.objective import Objective
from logic.positions import all_positions, fullest_first, reachable_states, to_move
from logic.state import BLANK, PLAYERS, SIDE, Player, State, is_terminal, mark, winner


@dataclass(frozen=True)
class Question:
    """One call: the function, the board (a state), the player to move, and for `result`
    the action's cell."""

    check: str
    state: State
    player: Player
    cell: int | None = None

    def __str__(self) -> str:
        action = "" if self.cell is None else f", {divmod(self.cell - 1, SIDE)}"
        return f"{self.check}({self.state}{action})"


def cs50_questions(functions: tuple[str, ...]) -> list[Question]:
    """Every question for CS50's `functions`, the fullest boards first (the cheapest, so that
    a time budget that runs out leaves the costliest unasked)."""
    x = PLAYERS[0]
    asked = []
    for state in sorted(reachable_states(x), key=fullest_first):
        over = is_terminal(state)
        mover = to_move(state)
        for function in functions:
            if function in ("player", "actions") and over:
                continue
            if function == "utility" and not over:
                continue
            if function == "result":
                if over:
                    continue
                cells = [cell for cell, _ in reference.moves(state, mover)]
                asked += [Question(function, state, mover, cell) for cell in cells]
                taken = state.find(x) + 1 or state.find(PLAYERS[1]) + 1
                if taken:
                    asked.append(Question(function, state, mover, taken))
                continue
            asked.append(Question(function, state, mover))
    return asked


def function_questions(mapping: Mapping) -> list[Question]:
    """A move asked of the declared function on every position of a player it moves for."""
    movers = mapping.movers()
    positions = [(state, player) for state, player in all_positions() if player in movers]
    if mapping.reads_the_mover:
        positions = [(state, player) for state, player in positions
                     if player == to_move(state)]
    positions.sort(key=lambda position: (fullest_first(position[0]), position[1]))
    return [Question(mapping.function, state, player) for state, player in positions]


def cs50_calls_below(question: Question) -> list[Question]:
    """The calls CS50's functions make for `question`, as its specification has them:
    `minimax` calls `terminal`, then on a game in progress `player`, `actions` and `result`
    for each action in cell order, and on each board that results `terminal`, then `utility`
    where the game is over, else `minimax`; `terminal` and `utility` call `winner`."""
    state = question.state
    if question.check in ("terminal", "utility"):
        return [Question("winner", state, question.player)]
    if question.check != "minimax":
        return []
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


def cs50_arguments(question: Question) -> list:
    """The call's arguments: the board, and for `result` the action `(i, j)`."""
    board = CS50.encode_board(question.state)
    if question.cell is None:
        return [board]
    return [board, {"tuple": list(divmod(question.cell - 1, SIDE))}]


def judge_cs50(question: Question, called: Called, policy: Policy,
               legal_returned: bool = True) -> Verdict:
    """The verdict on one CS50 call; for `result` on a taken cell, `legal_returned` says
    whether `result` returned, without raising, for every legal action of the same board:
    only then is its exception an answer to the taken cell (docs/grading.md)."""
    illegal = question.cell is not None and question.state[question.cell - 1] != BLANK
    if illegal:
        if called.end == "raised" and legal_returned:
            return Verdict(Category.RIGHT)
        if called.end == "raised":
            return Verdict(Category.EXCEPTION, f"raises {called.error}; it raises on legal "
                           "actions of this board too, so the exception says nothing of the "
                           "taken cell")
        failed = _failed(called)
        if failed is not None:
            return failed
        return Verdict(Category.NO_EXCEPTION, f"answers {shown(called.value)} for the taken cell "
                       f"{divmod(question.cell - 1, SIDE)}; CS50 asks for an exception")
    failed = _failed(called)
    if failed is not None:
        return failed
    if called.changed is not None:
        return Verdict(Category.MUTATES, "the board passed in is changed by the call")
    expected = _cs50_expected(question)
    answer = called.value
    if question.check == "minimax":
        if is_terminal(question.state):
            if answer is None:
                return Verdict(Category.RIGHT)
            cell, _ = move_cell(answer, "row_col")
            if cell is None:
                return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, neither a move "
                               "(i, j) nor None; the game is over, so None")
            return Verdict(Category.OVER_ANSWERED, f"answers {shown(answer)} (cell {cell}); "
                           "the game is over, so None")

        def shown_value(value: int) -> int:  # CS50's utility: from X's side
            return _program_value(value, question.player, CS50)

        return judge_move(question, answer, "row_col", _lab_truth(policy),
                          shown_value=shown_value, side=_side(question.player, CS50))
    if question.check == "actions":
        items = _pairs(answer)
        if items is None:
            return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, not a set of (i, j)")
        if len(items) != len(set(items)):
            return Verdict(Category.WRONG_ANSWER, "answers some action twice")
        answer = set(items)
    elif question.check == "result":
        answer = _board(answer)
        if answer is None:
            return Verdict(Category.UNREADABLE, f"answers {shown(called.value)}, not a board")
    elif question.check == "terminal" and isinstance(answer, int):
        answer = bool(answer)
    if answer != expected or type(answer) is not type(expected):
        return Verdict(Category.WRONG_ANSWER, f"answers {shown(called.value)}; the answer is "
                       f"{_python(expected)}")
    return Verdict(Category.RIGHT)


def judge_move(question: Question, answer: object, returns: str, truth: Truth,
               value_of: object = None, shown_value: object = None, side: str = "") -> Verdict:
    """The verdict on a move (and value) at a game in progress, graded by `truth`; what it
    says names moves as (row, col) with their cell, and values as the program gives them
    (`shown_value` turns a lab value into the program's, counted from `side`: said where it
    is not the mover's)."""
    cell, value = move_cell(answer, returns)
    if cell is None:
        return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, not a move on the board")
    if truth.policy.values == "all" and value_of is not None:
        value = value_of(value)
        if value is None:
            return Verdict(Category.UNREADABLE,
                           f"answers {shown(answer)}, whose value is no number")
    else:
        value = None
    judgement = truth.judge(Answer((question.state, question.player), cell, value))
    if judgement.right:
        return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,) * judgement.tie_break,
                       judgement=judgement)
    detail = _move_detail(judgement, answer, returns, shown_value)
    if side and judgement.category in (Category.SUBOPTIMAL, Category.WRONG_VALUE):
        detail += f" (values from {side})"
    return Verdict(judgement.category, detail, judgement=judgement)


def _side(mover: Player, mapping: Mapping) -> str:
    """The side a mapping's values are counted from, where it is not the mover's."""
    if mapping.value_side != "x" or mover == PLAYERS[0]:
        return ""
    if mapping == CS50:
        return "X's side, as utility counts them"
    return f"x's side (x plays {shown(mapping.x)}), as the mapping's value_side says"


def _move_detail(judgement: Judgement, answer: object, returns: str,
                 shown_value: object = None) -> str:
    """Why a move disagrees, in the program's terms."""
    def worth(value: int) -> str:
        return str(shown_value(value) if shown_value is not None else value)

    cell, best = judgement.answer.cell, judgement.expected.action.cell
    said = (f"answers {shown(answer)} (cell {cell})" if returns.startswith(("row_col", "move"))
            else f"answers {shown(answer)}, {_move_words(cell)}")
    if judgement.category is Category.ILLEGAL_MOVE:
        return f"{said}: that cell is taken"
    if judgement.category is Category.SUBOPTIMAL:
        return (f"{said}, worth {worth(judgement.move_values[cell])}; the best move, "
                f"{_move_words(best)}, is worth {worth(judgement.expected.value)}")
    if judgement.category is Category.WRONG_VALUE:
        return f"{said}: that move is optimal and worth {worth(judgement.move_values[cell])}"
    return f"{said}: optimal too, but the lab's tie rule takes the lowest cell, {_move_words(best)}"


def judge_function(question: Question, called: Called, mapping: Mapping,
                   policy: Policy) -> Verdict:
    """The verdict on one call of a declared function."""
    failed = _failed(called)
    if failed is not None:
        return failed
    if called.changed is not None:
        return Verdict(Category.MUTATES, "the board passed in is changed by the call")
    graded = policy if mapping.gives_values else Policy(policy.ties, "none")
    judged_by = truth(Objective(mapping.objective, "lab"), graded)
    if mapping.returns == "value":
        return _judge_value(question, called.value, mapping, judged_by)
    values = graded.values == "all"

    def value_of(raw: object) -> int | None:
        return _lab_value(raw, question.player, mapping)

    def shown_value(value: int) -> int:
        return _program_value(value, question.player, mapping)

    if not mapping.gives_values:  # no scale of its own: the mover's, as the lab counts
        return judge_move(question, called.value, mapping.returns, judged_by)
    return judge_move(question, called.value, mapping.returns, judged_by,
                      value_of if values else None, shown_value,
                      _side(question.player, mapping))


def _judge_value(question: Question, answer: object, mapping: Mapping, truth: Truth) -> Verdict:
    value = _lab_value(answer, question.player, mapping)
    if value is None:
        return Verdict(Category.UNREADABLE, f"answers {shown(answer)}, not a value")
    expected = truth.decision((question.state, question.player)).value
    if value != expected:
        said = _program_value(expected, question.player, mapping)
        return Verdict(Category.WRONG_VALUE, f"answers {shown(answer)}; the value is {said}")
    return Verdict(Category.RIGHT)


def _lab_value(raw: object, mover: Player, mapping: Mapping) -> int | None:
    """A program's value as the lab's: from the mover's side, in -1, 0, 1."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    if raw not in (-mapping.win_value, 0, mapping.win_value):
        return 2  # no value of the lab's, so it never agrees
    value = int(raw) // mapping.win_value
    return -value if mapping.value_side == "x" and mover != PLAYERS[0] else value


def _program_value(value: int, mover: Player, mapping: Mapping) -> int:
    if mapping.value_side == "x" and mover != PLAYERS[0]:
        value = -value
    return value * mapping.win_value


def _failed(called: Called) -> Verdict | None:
    if called.end == "raised":
        return Verdict(Category.EXCEPTION, f"raises {called.error}")
    if called.end == "cpu":
        return Verdict(Category.CPU_LIMIT, "no answer within the CPU time limit")
    if called.end == "time":
        return Verdict(Category.TIME_LIMIT, "no answer within the time limit (wall clock)")
    if called.end == "died":
        return Verdict(Category.DIED, called.error or "the program died")
    return None


def _cs50_expected(question: Question) -> object:
    state = question.state
    names = {PLAYERS[0]: "X", PLAYERS[1]: "O"}
    if question.check == "player":
        return names[to_move(state)]
    if question.check == "actions":
        return {divmod(cell - 1, SIDE) for cell, _ in reference.moves(state, question.player)}
    if question.check == "result":
        return CS50.encode_board(mark(state, question.cell, question.player))
    if question.check == "winner":
        won = winner(state)
        return None if won is None else names[won]
    if question.check == "terminal":
        return is_terminal(state)
    won = winner(state)
    return 0 if won is None else (1 if won == PLAYERS[0] else -1)


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


def _board(value: object) -> list | None:
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


def _lab_truth(policy: Policy) -> Truth:
    """CS50's `minimax` gives a move and no value: graded on its moves."""
    return truth(Objective("win", "lab"), Policy(policy.ties, "none"))
