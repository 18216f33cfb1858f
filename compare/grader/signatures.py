"""Known bugs, recognised by which answers are wrong: each signature is a typical bug of the
lab or of CS50's functions with a short description, offered as a hypothesis ("this looks
like ..."), never as a verdict; each is tested on a program written with that bug
(docs/grading.md, "Known bugs").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from compare.judge.categories import Category, Kind
from compare.judge.results import CheckResult, Finding, SubmissionGrade
from logic.state import GAME, SIDE, State, is_full, is_terminal, winner


@dataclass(frozen=True)
class Signature:
    """A typical bug: its name, what to say of it, and whether a grade's wrong answers look
    like it."""

    name: str
    says: str
    matches: Callable[[SubmissionGrade], bool]


def hypotheses(grade: SubmissionGrade) -> tuple[str, ...]:
    """What the submission's wrong answers look like, as `name: description`, if any."""
    return tuple(f"{signature.name}: {signature.says}" for signature in SIGNATURES
                 if signature.matches(grade))


def _faults(grade: SubmissionGrade, check: str) -> list[Finding]:
    """The check's kept findings of faults on a board, or none if it was not asked."""
    result = grade.checks.get(check)
    if result is None:
        return []
    return [finding for finding in result.findings
            if finding.category.kind is Kind.FAULT and finding.position is not None]


def _only(grade: SubmissionGrade, check: str, test: Callable[[Finding], bool]) -> bool:
    """True when the check has faults and every one kept passes `test`."""
    faults = _faults(grade, check)
    return bool(faults) and all(test(finding) for finding in faults)


def _state(finding: Finding) -> State:
    return finding.position[0]


def _walked_to(grade: SubmissionGrade, check: str) -> bool:
    """True when some walk to a first wrong call ends in `check`."""
    return any(result.first_wrong is not None and result.first_wrong.concluded
               and (result.first_wrong.call.asked or "").startswith(f"{check}(")
               for result in grade.checks.values())


def _faults_of(result: CheckResult | None) -> int:
    if result is None:
        return 0
    return sum(count for category, count in result.counts.items()
               if category.kind is Kind.FAULT)


def _winning_lines(state: State) -> list[tuple[int, int, int]]:
    player = winner(state)
    return [line for line in GAME.lines
            if player is not None and all(state[cell - 1] == player for cell in line)]


def _diagonal(line: tuple[int, int, int]) -> bool:
    rows = {divmod(cell - 1, SIDE)[0] for cell in line}
    columns = {divmod(cell - 1, SIDE)[1] for cell in line}
    return len(rows) > 1 and len(columns) > 1


def _draw(state: State) -> bool:
    return is_full(state) and winner(state) is None


def _no_draw(grade: SubmissionGrade) -> bool:
    return _only(grade, "terminal_state", lambda finding: finding.category is Category.NO_ANSWER
                 and _draw(_state(finding)))


def _wrong_side(grade: SubmissionGrade) -> bool:
    return _only(grade, "terminal_state", lambda finding:
                 finding.category is Category.WRONG_VALUE and winner(_state(finding)) is not None)


def _min_moves_agent(grade: SubmissionGrade) -> bool:
    result = grade.checks.get("min_value")
    return (result is not None and result.counts[Category.NOT_A_SUCCESSOR] > 0
            and _walked_to(grade, "min_value"))


def _no_guard(grade: SubmissionGrade) -> bool:
    return any(_only(grade, check, lambda finding:
                     finding.category is Category.WRONG_ON_BACKTRACKING
                     and is_terminal(_state(finding)))
               for check in ("max_value", "min_value"))


def _misses_a_diagonal(grade: SubmissionGrade) -> bool:
    return _only(grade, "winner", lambda finding: bool(_winning_lines(_state(finding)))
                 and all(_diagonal(line) for line in _winning_lines(_state(finding))))


def _stops_at_a_blank_row(grade: SubmissionGrade) -> bool:
    def missed(finding: Finding) -> bool:  # every line comes after a row that starts blank
        state, lines = _state(finding), _winning_lines(finding.position[0])
        blank = [row for row in range(SIDE) if state[row * SIDE] == GAME.blank]
        return bool(lines) and bool(blank) and all(
            _row(line) is None or _row(line) > blank[0] for line in lines)
    return _only(grade, "winner", missed)


def _row(line: tuple[int, int, int]) -> int | None:
    """The row a line lies along, or None for a column or a diagonal."""
    rows = {divmod(cell - 1, SIDE)[0] for cell in line}
    return rows.pop() if len(rows) == 1 else None


def _last_optimal(grade: SubmissionGrade) -> bool:
    moves = [result for check, result in grade.checks.items()
             if check in ("minimax", "minimax_decision")]
    if not moves or any(result.notes[Category.NOT_REPEATABLE] for result in moves):
        return False  # a random choice among the optimal moves is no bug to guess
    result = moves[0]
    others = result.counts[Category.OTHER_OPTIMAL]
    values = [result for check, result in grade.checks.items()
              if check in ("max_value", "min_value")]
    return (0 < others == _faults_of(result) == sum(result.last_optimal.values())
            and any(ties > 2 for ties in result.last_optimal)
            and all(_faults_of(value) == value.counts[Category.OTHER_OPTIMAL_SUCCESSOR]
                    for value in values))


def _result_mutates(grade: SubmissionGrade) -> bool:
    result = grade.checks.get("result")
    return result is not None and result.counts[Category.MUTATES] > 0


SIGNATURES = (
    Signature("no draw clause",
              "terminal_state fails on full boards with no line, as if the clause for a "
              "draw (value 0) were missing", _no_draw),
    Signature("values from the other side",
              "terminal_state gives won boards the other side's value, as if its sign were "
              "flipped or the winner compared with the wrong player", _wrong_side),
    Signature("min_value moves the agent",
              "min_value answers boards its adversary cannot reach and the walk ends in "
              "min_value, as if it moved the agent instead of its adversary",
              _min_moves_agent),
    Signature("no terminal guard",
              "a value predicate answers again on backtracking, on finished boards only, as "
              "if its recursive clause had no guard against a finished game",
              _no_guard),
    Signature("winner misses a diagonal",
              "winner misses only lines that are diagonals, as if a diagonal were missing "
              "from its lines", _misses_a_diagonal),
    Signature("winner stops at a blank row",
              "winner misses only lines it would reach after a row that starts with an empty "
              "cell, as if it stopped looking there", _stops_at_a_blank_row),
    Signature("the last optimal move",
              "the decision is wrong only where moves tie, and always answers the last of the "
              "optimal moves, of three as of two, as if it kept a later move of equal value: "
              "the lab's tie rule takes the first, the lowest cell", _last_optimal),
    Signature("result changes its argument",
              "result changes the board it is given, as if it marked that board instead of "
              "a copy (copy.deepcopy)", _result_mutates),
)
