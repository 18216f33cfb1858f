"""Known bugs, recognised by how a program with the bug would answer: each signature is a typical
bug of the lab or of CS50's functions with a model of the answers it gives, offered as a
hypothesis ("this looks like ...") only when the model explains every wrong answer of the
checks it models and contradicts none of their right ones, and said with that fit; never a
verdict (docs/grading-reference.md, "Known bugs").

A model predicts, for each question, whether the bug answers it wrong and how (its verdict's
category, the move it would mark). The lab's bugs are modelled as the lab's own recursion with
the bug in it (`BuggedLab`), judged by the grader's own judge; the others by behaviour: a
move answered (whatever the function is called), a board changed, a winner missed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.results import SubmissionGrade, Verdict
from minimax_lab.compare.judge.truth import Policy, Ties, truth
from minimax_lab.logic.contain.harness import Proof, Reply
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.state import BLANK, GAME, PLAYERS, SIDE, SIZE, Player, State, is_full, winner

SILENT = frozenset({Category.NOT_ASKED, Category.INFERENCE_LIMIT, Category.CPU_LIMIT,
                    Category.TIME_LIMIT, Category.DIED, Category.UNDEFINED,
                    Category.UNDEFINED_FUNCTION})
"""Verdicts that are no answer at all: neither explained nor contradicted by a model."""
ON_BACKTRACKING = frozenset({Category.WRONG_ON_BACKTRACKING, Category.FAILS_ON_BACKTRACKING})
"""Faults of the answers after the first: the first answer was right."""
WRONG = frozenset(category for category in Category
                  if category.kind is Kind.FAULT and category not in SILENT)
"""Verdicts that are wrong answers: what a model must explain."""

Answered = dict[str, list[tuple[Any, Verdict]]]
"""The questions asked of each check, in order, each with its verdict."""
Expect = Callable[[Any, Verdict], Callable[[Verdict], bool] | None]
"""A model: for a question (and its verdict, for what the question alone does not say), None
when the bug answers it right, else whether a verdict is the bug's wrong answer."""


@dataclass(frozen=True)
class Fit:
    """How a model fits a submission's answers on the checks it models: its wrong answers,
    those the model explains, its right answers, those the model contradicts."""

    checks: tuple[str, ...]
    wrong: int
    explained: int
    right: int
    contradicted: int

    @property
    def holds(self) -> bool:
        """True when there are wrong answers, the model explains each, and contradicts none of
        the right ones."""
        return self.wrong > 0 and self.explained == self.wrong and not self.contradicted

    def __str__(self) -> str:
        return (f"it explains {self.explained} of {self.wrong} wrong answers of "
                f"{', '.join(self.checks)} and contradicts none of its {self.right} right ones")


@dataclass(frozen=True)
class Signature:
    """A typical bug: its name, what to say of it, and how well its model fits a grade."""

    name: str
    says: str
    fit: Callable[[Answered, Policy], Fit | None]


def hypotheses(grade: SubmissionGrade, answered: Answered) -> tuple[str, ...]:
    """The known bugs whose models fit the submission's answers, as `name: description (the
    fit)`; `answered` holds each check's questions with their verdicts."""
    if not any(verdict.category in WRONG for pairs in answered.values() for _, verdict in pairs):
        return ()  # no wrong answer for any model to explain
    policy = grade.policy or Policy()
    said = []
    for signature in SIGNATURES:
        fit = signature.fit(answered, policy)
        if fit is not None and fit.holds:
            said.append(f"{signature.name}: {signature.says} ({fit})")
    return tuple(said)


def tally(answered: Answered, checks: Iterable[str], expect: Expect,
          first_answers: bool = False) -> Fit | None:
    """The fit of `expect` on `checks` (those asked); None as soon as it fails, or when they
    have no wrong answer to explain. With `first_answers`, a fault of the answers after the
    first counts as a right first answer."""
    asked = tuple(check for check in checks if check in answered)
    if not any(verdict.category in WRONG for check in asked for _, verdict in answered[check]):
        return None
    wrong = explained = right = 0
    for check in asked:
        for question, verdict in answered[check]:
            category = verdict.category
            if category in SILENT or category.kind is Kind.NOTE:
                continue
            predicted = expect(question, verdict)
            if category.kind is Kind.FAULT and not (first_answers and category in ON_BACKTRACKING):
                if predicted is None or not predicted(verdict):
                    return None  # a wrong answer the bug does not give
                wrong += 1
                explained += 1
            else:
                if predicted is not None:
                    return None  # a right answer the bug would have got wrong
                right += 1
    return Fit(asked, wrong, explained, right, 0)


# --- the lab's bugs: the lab's recursion with the bug in it ---------------------------------

def _other(player: Player) -> Player:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


def _has_line(state: State, player: Player) -> bool:
    return any(all(state[cell - 1] == player for cell in line) for line in GAME.lines)


def lab_terminal(state: State, player: Player) -> int | None:
    """terminal_state as the lab writes it: 1, -1, 0 on a full board, else no answer."""
    if _has_line(state, player):
        return 1
    if _has_line(state, _other(player)):
        return -1
    return 0 if BLANK not in state else None


def no_draw_terminal(state: State, player: Player) -> int | None:
    """terminal_state without its draw clause."""
    value = lab_terminal(state, player)
    return None if value == 0 else value


def other_side_terminal(state: State, player: Player) -> int | None:
    """terminal_state with the winner's value from the other side."""
    value = lab_terminal(state, player)
    return None if value is None else -value


class BuggedLab:
    """The lab's predicates as the lab's clauses compute them (logic/prolog/lab.pl), with a bug:
    `terminal` for terminal_state, min_value moving the agent (`min_moves_agent`), or the
    last of the optimal successors kept (`last`). None is no answer. A question judged on its
    own clauses gets one level of the bugged clauses, the lab's answers below it."""

    def __init__(self, terminal: Callable[[State, Player], int | None] = lab_terminal,
                 min_moves_agent: bool = False, last: bool = False) -> None:
        self.terminal = cache(terminal)
        self.min_moves_agent = min_moves_agent
        self.last = last
        self.max_value = cache(lambda state, player: self._max_value(state, player, self))
        self.min_value = cache(lambda state, player: self._min_value(state, player, self))

    def _successors(self, state: State, player: Player) -> list[State]:
        return [State(state[:cell] + player + state[cell + 1:])
                for cell in range(SIZE) if state[cell] == BLANK]

    def _pick(self, options: list[tuple[State, int]], best: int) -> tuple[State, int]:
        chosen = [option for option in options if option[1] == best]
        return chosen[-1] if self.last else chosen[0]

    def _max_value(self, state: State, player: Player,
                   below: BuggedLab) -> tuple[State, int] | None:
        value = self.terminal(state, player)
        if value is not None:
            return state, value
        options = [(after, found[1]) for after in self._successors(state, player)
                   if (found := below.min_value(after, player)) is not None]
        return self._pick(options, max(v for _, v in options)) if options else None

    def _min_value(self, state: State, player: Player,
                   below: BuggedLab) -> tuple[State, int] | None:
        value = self.terminal(state, player)
        if value is not None:
            return state, value
        mover = player if self.min_moves_agent else _other(player)
        options = [(after, found[1]) for after in self._successors(state, mover)
                   if (found := below.max_value(after, player)) is not None]
        return self._pick(options, min(v for _, v in options)) if options else None

    def answer(self, question: prolog.Question) -> Reply:
        """The bugged program's first answer to `question`, as the harness would send it."""
        terms = {"terminal_state": self._terminal_term, "max_value": self._max_term,
                 "min_value": self._min_term, "minimax_decision": self._decision_term}
        if question.check not in terms:
            return Reply((), "error")
        clauses = question.judged is Judged.CLAUSES
        term = terms[question.check](question.state, question.player, clauses)
        if term is None:
            return Reply((), "exhausted")
        return Reply((Proof(term, str(term)),), "exhausted")

    def _max(self, state: State, player: Player, clauses: bool) -> tuple[State, int] | None:
        """max_value: its own clause over the lab's answers below it, judged on its own
        clauses; else the bugged recursion all the way down."""
        return (self._max_value(state, player, _bugged("")) if clauses
                else self.max_value(state, player))

    def _terminal_term(self, state: State, player: Player, clauses: bool) -> object:
        return self.terminal(state, player)

    def _max_term(self, state: State, player: Player, clauses: bool) -> object:
        return _sv_term(self._max(state, player, clauses))

    def _min_term(self, state: State, player: Player, clauses: bool) -> object:
        return _sv_term(self._min_value(state, player, _bugged("")) if clauses
                        else self.min_value(state, player))

    def _decision_term(self, state: State, player: Player, clauses: bool) -> object:
        found = self._max(state, player, clauses)
        if found is None or found[0] == state:
            return None
        return {"f": "-", "args": [[player, prolog.marked(state, found[0])], found[1]]}


def _sv_term(found: tuple[State, int] | None) -> object:
    """`sv(Next, Value)` as the harness sends it, or no answer."""
    return None if found is None else {"f": "sv", "args": [list(found[0]), found[1]]}


LAB_CHECKS = tuple(name for name in prolog.PREDICATES if name != "successor")
"""The lab's predicates graded whose answers the bugged lab gives: all but successor, which
none of its bugs changes."""


@cache
def _bugged(bug: str) -> BuggedLab:
    return {"": BuggedLab(),
            "no draw clause": BuggedLab(no_draw_terminal),
            "values from the other side": BuggedLab(other_side_terminal),
            "min_value moves the agent": BuggedLab(min_moves_agent=True),
            "the last optimal move": BuggedLab(last=True)}[bug]


def lab_asked(answered: Answered) -> bool:
    """True when the lab's predicates were asked of a Prolog program (a Python function may
    bear one of their names, and is not modelled by the lab's clauses)."""
    return any(isinstance(question, prolog.Question)
               for check in LAB_CHECKS for question, _ in answered.get(check, ()))


def lab_model(bug: str) -> Callable[[Answered, Policy], Fit | None]:
    """The fit of the lab with `bug`: each question's first answer judged as the grader judges
    the program's."""
    def fit(answered: Answered, policy: Policy) -> Fit | None:
        if not lab_asked(answered):
            return None

        def expect(question: Any, verdict: Verdict) -> Callable[[Verdict], bool] | None:
            predicted = _predicted(bug, question, policy)
            if predicted is None:
                return None
            return lambda actual: actual.category is predicted

        return tally(answered, LAB_CHECKS, expect, first_answers=True)
    return fit


@cache
def _predicted(bug: str, question: prolog.Question, policy: Policy) -> Category | None:
    """The grader's verdict on the first answer of the lab with `bug` to `question`, where it
    is a fault; else None. Once per question: every submission of a class is fitted."""
    predicted = prolog.judge(question, _bugged(bug).answer(question), policy).category
    return predicted if predicted.kind is Kind.FAULT else None


def _no_guard(answered: Answered, policy: Policy) -> Fit | None:
    """max_value or min_value (or both) without `\\+ terminal_state` in its recursive clause:
    right first answers, and another on backtracking on a finished board with a blank cell."""
    if not lab_asked(answered):
        return None
    for unguarded in (("max_value",), ("min_value",), ("max_value", "min_value")):
        def expect(question: Any, verdict: Verdict,
                   unguarded: tuple[str, ...] = unguarded) -> Callable[[Verdict], bool] | None:
            state = question.state
            if question.check in unguarded and BLANK in state and (
                    lab_terminal(state, PLAYERS[0]) is not None):
                return lambda actual: actual.category is Category.WRONG_ON_BACKTRACKING
            return None
        fit = tally(answered, LAB_CHECKS, expect)
        if fit is not None and fit.holds:
            return fit
    return None


# --- bugs seen in behaviour, whatever the interface ------------------------------------------

def _last_optimal(answered: Answered, policy: Policy) -> Fit | None:
    """The last of the optimal moves kept, every time: the lab's recursion so bugged for the
    lab's predicates; for any check that answers moves (CS50's minimax, a declared function of
    any name), the highest optimal cell wherever moves tie."""
    if lab_asked(answered):
        return lab_model("the last optimal move")(answered, policy)
    moves = [check for check, pairs in answered.items()
             if any(verdict.judgement is not None for _, verdict in pairs)]

    def expect(question: Any, verdict: Verdict) -> Callable[[Verdict], bool] | None:
        judged = verdict.judgement
        if judged is None or policy.ties is not Ties.LOWEST:
            return None
        position = judged.answer.position
        values = truth(judged.objective or LAB).move_values(position)
        optimal = [cell for cell, value in values.items() if value == judged.expected.value]
        if len(optimal) < 2:
            return None
        return lambda actual: (actual.category is Category.OTHER_OPTIMAL
                               and actual.judgement is not None
                               and actual.judgement.answer.cell == max(optimal))
    return tally(answered, moves, expect)


def _changes_its_argument(answered: Answered, policy: Policy) -> Fit | None:
    """A function that changes the board it is given, on every call that returns (a taken
    cell, where `result` raises, changes nothing); the first such function whose answers fit
    (one that calls it, such as `minimax`, may change its board only where it calls it)."""
    def expect(question: Any, verdict: Verdict) -> Callable[[Verdict], bool] | None:
        cell = getattr(question, "cell", None)
        if cell is not None and question.state[cell - 1] != BLANK:
            return None
        return lambda actual: actual.category is Category.MUTATES

    for check, pairs in answered.items():
        if any(verdict.category is Category.MUTATES for _, verdict in pairs):
            fit = tally(answered, (check,), expect)
            if fit is not None and fit.holds:
                return fit
    return None


def _lines(rows: bool = True, columns: bool = True,
           diagonals: Sequence[int] = (0, 1)) -> list[tuple[int, int, int]]:
    """The board's lines (cells 1-9): rows, columns, and the diagonals chosen (0: the main)."""
    found = []
    if rows:
        found += [(r * SIDE + 1, r * SIDE + 2, r * SIDE + 3) for r in range(SIDE)]
    if columns:
        found += [(c + 1, c + 1 + SIDE, c + 1 + 2 * SIDE) for c in range(SIDE)]
    return found + [((1, 5, 9), (3, 5, 7))[d] for d in diagonals]


def _line_winner(state: State, lines: Sequence[tuple[int, int, int]]) -> str | None:
    for a, b, c in lines:
        if state[a - 1] != BLANK and state[a - 1] == state[b - 1] == state[c - 1]:
            return state[a - 1]
    return None


def _stops_at_a_blank_row(state: State) -> str | None:
    """winner as a program that gives up at the first row whose first cell is empty."""
    for row in range(SIDE):
        if state[row * SIDE] == BLANK:
            return None
        found = _line_winner(state, _lines(True, False, ())[row:row + 1])
        if found is not None:
            return found
    return _line_winner(state, _lines(False, True))


def winner_model(wrong_winner: Callable[[State], str | None]) -> Callable[[Answered, Policy],
                                                                          Fit | None]:
    """The fit of a `winner` that answers as `wrong_winner` does."""
    def fit(answered: Answered, policy: Policy) -> Fit | None:
        def expect(question: Any, verdict: Verdict) -> Callable[[Verdict], bool] | None:
            state = question.state
            if wrong_winner(state) == winner(state):
                return None
            return lambda actual: actual.category is Category.WRONG_ANSWER
        return tally(answered, ("winner",), expect)
    return fit


def _misses_a_diagonal(answered: Answered, policy: Policy) -> Fit | None:
    """winner without one diagonal, or without both: whichever fits."""
    for kept in ((1,), (0,), ()):
        lines = _lines(diagonals=kept)

        def without(state: State, lines: list[tuple[int, int, int]] = lines) -> str | None:
            return _line_winner(state, lines)

        fit = winner_model(without)(answered, policy)
        if fit is not None and fit.holds:
            return fit
    return None


def _draw(state: State) -> bool:
    return is_full(state) and winner(state) is None


SIGNATURES = (
    Signature("no draw clause",
              "terminal_state fails on full boards with no line, as if the clause for a "
              "draw (value 0) were missing", lab_model("no draw clause")),
    Signature("values from the other side",
              "terminal_state gives won boards the other side's value, as if its sign were "
              "flipped or the winner compared with the wrong player",
              lab_model("values from the other side")),
    Signature("min_value moves the agent",
              "min_value weighs the agent's moves instead of its adversary's, as if it called "
              "successor with Player instead of the other player",
              lab_model("min_value moves the agent")),
    Signature("no terminal guard",
              "a value predicate answers again on backtracking, on finished boards only, as "
              "if its recursive clause had no guard against a finished game", _no_guard),
    Signature("winner misses a diagonal",
              "winner misses only lines that are diagonals, as if a diagonal were missing "
              "from its lines", _misses_a_diagonal),
    Signature("winner stops at a blank row",
              "winner gives up at the first row that starts with an empty cell, as if an "
              "empty cell there meant nobody had won", winner_model(_stops_at_a_blank_row)),
    Signature("the last optimal move",
              "the move kept is the last of the optimal moves wherever moves tie, as if a "
              "later move of equal value replaced the first: the lab's tie rule takes the "
              "first, the lowest cell", _last_optimal),
    Signature("changes its argument",
              "a function changes the board it is given, as if it marked that board instead "
              "of a copy (copy.deepcopy)", _changes_its_argument),
)
