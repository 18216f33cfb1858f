"""What `grade` asks a student's Prolog program, and how each answer is judged: one object per
predicate of the lab (its questions, its goal, its cost, how its first answer is judged, which
answers are right, the calls its clause makes below a question, the lab's clause).

Each predicate is asked on every state it applies to, and its first answer judged against the
reference (`logic/reference.py`, the lab's objective): the value, and for `max_value` and
`min_value` the successor kept in `sv`, under a grading policy (`--ties`, `--values`). Answers
offered on backtracking are judged apart: the same again and other optimal answers are notes,
anything else a wrong answer on backtracking.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import ClassVar

from minimax_lab.compare.grader.interfaces import lab_answers, sample
from minimax_lab.compare.grader.interfaces.ends import End
from minimax_lab.compare.grader.interfaces.interface import Check
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.sample import LAB_CASES, Judged
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Verdict, told
from minimax_lab.compare.judge.truth import Answer, Policy, Ties, lab_parts, truth
from minimax_lab.logic import reference
from minimax_lab.logic.contain.harness import Reply, is_integer
from minimax_lab.logic.contain.lab_goals import lab_goal, read_decision, read_states, read_sv
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import (
    all_positions,
    fullest_first,
    game_tree_size,
    reachable_states,
)
from minimax_lab.logic.predicates import (
    LAB_PREDICATES,
    graded_in_report_order,
    lab_program,
    recursion_top_down,
)
from minimax_lab.logic.state import BLANK, PLAYERS, Player, State, is_terminal, to_prolog
from minimax_lab.logic.terms import SV, whole

HELPERS = lab_program()
"""The lab's predicates and helpers (`logic/predicates.py`), named when a program calls a near
name that does not exist."""
LAB_BASE = 50_000
LAB_PER_NODE = 300
"""The lab's own cost of a question, in inferences, at most: `LAB_BASE` plus `LAB_PER_NODE`
for each node of the game tree the lab's recursion visits below it (a solution in the lab's
style stays within it on every question, as the tests check)."""
CLAUSE_BASE = 5_000
"""The lab's own cost of a question judged on its own clauses, at most: `CLAUSE_BASE` plus
`LAB_PER_NODE` for its board and each call below it the lab answers (one level of the
recursion; a solution in the lab's style stays within it, as the tests check)."""




@dataclass(frozen=True)
class Question:
    """One question: a predicate asked of a state with a player (the agent, or the mover),
    judged on the program's own clauses or as a whole; `sample` marks a question of the
    end-to-end sample of a grade judged on its own clauses."""

    check: str
    state: State
    player: Player
    judged: Judged = Judged.WHOLE
    sample: bool = False
    played: bool = False
    """A decision of the play check (`compare.grader.interfaces.play`): its first answer alone, the
    move it plays, asked of the whole program."""

    @property
    def goal(self) -> str:
        """The Prolog goal, with its answer variable `A`."""
        return CHECKS[self.check].goal(self)

    @property
    def below(self) -> str:
        """The lab's answers below the question, as the harness reads them ("none": the
        program answers every call itself; "memo", the sample's: every call itself, each of
        its own answers found once)."""
        if self.sample or self.played:
            return MEMO
        if self.judged is Judged.WHOLE or self.check == "successor":
            return "none"
        if self.check == "terminal_state":  # its clauses call none of the answers: none given
            return no_below(self.state)
        return lab_below(self.state)

    def __str__(self) -> str:
        said = f"{self.check}({to_prolog(self.state)}, {self.player}, ...)"
        return said + " (end to end)" if self.sample else said


MEMO = "memo"
"""The end-to-end sample's questions: the program's own max_value and min_value answers on
each board and player found once per question (logic/prolog/harness.pl, `memo`)."""


@cache
def lab_below(state: State) -> str:
    """The lab's answers on each successor of `state` (either player's move): terminal_state,
    max_value and min_value for x and for o, as `logic/prolog/harness.pl` reads them
    (`below/1`); computed by the reference (`logic/reference.py`)."""
    successors = [f"s({cell},{mark},{_lab_answers(State(state[:cell - 1] + mark + state[cell:]))})"
                  for cell, blank in enumerate(state, 1) if blank == BLANK for mark in PLAYERS]
    return f"below({to_prolog(state)},[{','.join(successors)}])"


@cache
def no_below(state: State) -> str:
    """No answers below `state`, as the harness reads them: the program's own clauses answer
    every call, as with "none", but the harness keeps its wrappers of the calls below (put
    back for the next question that has answers, they cost more than they save)."""
    return f"below({to_prolog(state)},[])"


@cache
def _lab_answers(state: State) -> str:
    """The lab's terminal_state, max_value and min_value on `state`, for x and for o."""
    answers = [_or_none(lab_answers.terminal_state(state, player)) for player in PLAYERS]
    answers += [_kept(state, lab_answers.max_value(state, player)) for player in PLAYERS]
    answers += [_kept(state, lab_answers.min_value(state, player)) for player in PLAYERS]
    return ",".join(answers)


def _or_none(value: int | None) -> str:
    return "none" if value is None else str(value)


def _kept(state: State, found: SV) -> str:
    return f"k({marked(state, found.state)},{whole(found.value)})"


@cache
def _states() -> tuple[tuple[State, tuple[Player, ...]], ...]:
    """Every reachable state, either player first, the fullest first, with the players who
    may move there."""
    movers: dict[State, list[Player]] = {}
    for state, player in all_positions():
        movers.setdefault(state, []).append(player)
    states = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]),
                    key=fullest_first)
    return tuple((state, tuple(movers.get(state, ()))) for state in states)


class PrologCheck(Check[Question, Reply]):
    """One of the lab's predicates, as the grader asks it."""

    backtracking: ClassVar[bool] = True
    """Whether its answers on backtracking are judged."""

    @property
    def clause(self) -> str:
        """The lab's clauses, as its record gives them (`logic/predicates.py`)."""
        return LAB_PREDICATES[self.name].clause

    @property
    def indicator(self) -> str:
        """`name/arity`."""
        return LAB_PREDICATES[self.name].indicator

    def players(self, state: State, movers: tuple[Player, ...]) -> Sequence[Player]:
        """Who it is asked with on `state`, where `movers` may move."""
        return PLAYERS if is_terminal(state) else movers

    def questions(self) -> Sequence[Question]:
        return _questions(self)

    def goal(self, question: Question) -> str:
        """The Prolog goal, with its answer variable `A`."""
        return lab_goal(self.name, question.state, question.player)

    def nodes(self, question: Question) -> int:
        """The nodes of the game tree the lab's recursion visits for `question`."""
        return 1

    def fails(self, question: Question) -> Verdict:
        """The verdict on a goal that fails."""
        return Verdict(Category.NO_ANSWER, "the goal fails")

    def judge(self, question: Question, reply: Reply, policy: Policy) -> Verdict:
        return judge(question, reply, policy)

    def first(self, question: Question, term: object, text: str, policy: Policy) -> Verdict:
        """The verdict on the first answer, `term` as JSON and `text` as Prolog wrote it."""
        raise NotImplementedError


@cache
def _questions(check: PrologCheck) -> tuple[Question, ...]:
    return tuple(Question(check.name, state, player) for state, movers in _states()
                 for player in check.players(state, movers))


class TerminalState(PrologCheck):
    """`terminal_state(S, P, V)`: V from P's side where the game is over; no answer where it
    goes on. Asked on every reachable state, with both players."""

    name = "terminal_state"

    def players(self, state: State, movers: tuple[Player, ...]) -> Sequence[Player]:
        return PLAYERS

    def fails(self, question: Question) -> Verdict:
        if lab_answers.terminal_state(question.state, question.player) is None:
            return Verdict(Category.RIGHT)
        return super().fails(question)

    def first(self, question: Question, term: object, text: str, policy: Policy) -> Verdict:
        expected = lab_answers.terminal_state(question.state, question.player)
        if not is_integer(term):
            return Verdict(Category.UNREADABLE, f"answers {text}, not a value -1, 0 or 1")
        if expected is None:
            return Verdict(Category.ANSWER_NOT_OVER, f"answers {text}, but the game goes on")
        if term != expected:
            return told(Category.WRONG_VALUE, f"answers {term}", f"; the value is {expected}")
        return Verdict(Category.RIGHT)

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """The value, or None (no answer) where the game goes on."""
        return frozenset({lab_answers.terminal_state(question.state, question.player)})


class ValueCheck(PrologCheck):
    """`max_value(S, P, SV)` or `min_value(S, P, SV)`: `SV = sv(Next, V)`, V the minimax value
    from P's side and Next the lab's successor (the first optimal in cell order; at a finished
    state, S itself); for `min_value` P's adversary moves."""

    maximising: ClassVar[bool]

    def mover(self, question: Question) -> Player:
        """Who moves: the agent for `max_value`, its adversary for `min_value`."""
        player = question.player
        return player if self.maximising else reference.other_player(player)

    def players(self, state: State, movers: tuple[Player, ...]) -> Sequence[Player]:
        if is_terminal(state) or self.maximising:
            return super().players(state, movers)
        return [reference.other_player(player) for player in movers]

    def nodes(self, question: Question) -> int:
        return game_tree_size(question.state, self.mover(question))

    def calls_below(self, question: Question) -> list[Question]:
        """`terminal_state` on its board; where the game goes on, `min_value` on each
        successor for `max_value`, `max_value` on each of the adversary's successors for
        `min_value`, in cell order (docs/lab.md). Judged on its own clauses, the calls on the
        successors got the lab's answers: only `terminal_state` is the program's own."""
        state, player = question.state, question.player
        calls = [Question("terminal_state", state, player, question.judged)]
        if is_terminal(state) or question.judged is Judged.CLAUSES:
            return calls
        below = "min_value" if self.maximising else "max_value"
        return calls + [Question(below, next_state, player)
                        for next_state in lab_answers.successors(state, self.mover(question))]

    def expected(self, question: Question) -> tuple[State, int]:
        """The lab's successor and value."""
        found = (lab_answers.max_value if self.maximising else lab_answers.min_value)(
            question.state, question.player)
        return found.state, whole(found.value)

    def worth(self, after: State, player: Player) -> int:
        """The value of the successor `after`, from `player`'s side."""
        return whole((lab_answers.min_value if self.maximising else lab_answers.max_value)(
            after, player).value)

    def first(self, question: Question, term: object, text: str, policy: Policy) -> Verdict:
        """The value and the successor kept; with `--values none` the successor alone (is it
        an optimal one), with `--ties any` any optimal successor."""
        state, player = question.state, question.player
        read = read_sv(term)
        if read is None:
            return Verdict(Category.UNREADABLE, f"answers {text}, not sv(State, Value)")
        kept, value = read
        lab_state, lab_value = self.expected(question)
        if policy.graded and value != lab_value:
            return told(Category.WRONG_VALUE, f"answers {text}", f"; the value is {lab_value}")
        if kept == lab_state:
            return Verdict(Category.RIGHT)
        mover = self.mover(question)
        if is_terminal(state) or kept not in lab_answers.successors(state, mover):
            where = ("the game is over, so sv's state is the state itself" if is_terminal(state)
                     else f"no move of {mover} leads there")
            return Verdict(Category.NOT_A_SUCCESSOR, f"answers {text}: {where}")
        worth = self.worth(kept, player)
        if worth != lab_value:
            return told(Category.SUCCESSOR_OF_OTHER_VALUE, f"answers {text}",
                        f", but that successor is worth {worth}"
                        + ("" if policy.graded else f", and the best is worth {lab_value}"))
        cell = marked(state, kept)
        if policy.ties is Ties.ANY:
            return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,), cell=cell)
        return replace(told(Category.OTHER_OPTIMAL_SUCCESSOR, f"answers {text}, optimal too",
                            "; the lab keeps the first in cell order, "
                            f"{to_prolog(lab_state)}"), cell=cell)

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """(the cell the successor kept marks, 0 for the state itself; its value, None where
        values are not graded) of each successor kept that is right."""
        state, player = question.state, question.player
        lab_state, lab_value = self.expected(question)
        value = lab_value if policy.graded else None
        if is_terminal(state) or policy.ties is Ties.LOWEST:
            return frozenset({(marked(state, lab_state), value)})
        return frozenset((cell, value) for cell, after in lab_answers.moves(state, self.mover(
            question)) if self.worth(after, player) == lab_value)


class MaxValue(ValueCheck):
    name = "max_value"
    maximising = True


class MinValue(ValueCheck):
    name = "min_value"
    maximising = False


class MinimaxDecision(PrologCheck):
    """`minimax_decision(S, P, A, V)`: A the lab's decision for P to move, V its value; asked
    on the 9040 positions."""

    name = "minimax_decision"

    def players(self, state: State, movers: tuple[Player, ...]) -> Sequence[Player]:
        return () if is_terminal(state) else movers

    def nodes(self, question: Question) -> int:
        return game_tree_size(question.state, question.player)

    def calls_below(self, question: Question) -> list[Question]:
        """`max_value` on its state, judged as the question is."""
        return [Question("max_value", question.state, question.player, question.judged)]

    def first(self, question: Question, term: object, text: str, policy: Policy) -> Verdict:
        state, player = question.state, question.player
        read = read_decision(term)
        if read is None or read[0] != player:
            return Verdict(Category.UNREADABLE, f"answers {text}, not Action = [{player},"
                           "Position] and an integer Value")
        _, cell, value = read
        judgement = truth(LAB, policy).judge(Answer((state, player), cell, value))
        if judgement.right:
            return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,) * judgement.tie_break,
                           judgement=judgement)
        return told(judgement.category, *lab_parts(judgement), judgement=judgement)

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """(cell, value: None where values are not graded) of each right decision."""
        judged_by = truth(LAB, policy)
        position = (question.state, question.player)
        decision = judged_by.decision(position)
        value = decision.value if policy.graded else None
        if policy.ties is Ties.LOWEST:
            return frozenset({(decision.action.cell, value)})
        return frozenset((cell, value) for cell, worth in judged_by.move_values(position).items()
                         if worth == decision.value)


class Play(MinimaxDecision):
    """The play check (`compare.grader.interfaces.play`): the whole program's `minimax_decision` as
    it plays every game of its strategy tree; its questions are asked as the games go."""

    name = PLAY

    @property
    def indicator(self) -> str:
        return "minimax_decision/4"

    @property
    def clause(self) -> str:
        return ""

    def questions(self) -> Sequence[Question]:
        return ()

    def calls_below(self, question: Question) -> list[Question]:
        return []


def decision(state: State, player: Player) -> Question:
    """The play check's question: the whole program's `minimax_decision` for `player` on
    `state`, each of its own answers found once (`MEMO`)."""
    return Question("minimax_decision", state, player, Judged.WHOLE, played=True)


class Successor(PrologCheck):
    """`successor(S, P, N)`: every successor, in cell order (`findall`), on the 9040
    positions."""

    name = "successor"
    backtracking = False

    def players(self, state: State, movers: tuple[Player, ...]) -> Sequence[Player]:
        return () if is_terminal(state) else movers

    def first(self, question: Question, term: object, text: str, policy: Policy) -> Verdict:
        expected = reference.successor(question.state, question.player)
        answered = read_states(term)
        if answered is None:
            return Verdict(Category.UNREADABLE, f"answers {text}, not a list of states")
        if answered == expected:
            return Verdict(Category.RIGHT)
        if sorted(answered) == sorted(expected):
            return Verdict(Category.WRONG_ORDER, f"answers the right {len(expected)} "
                           "successors, not in cell order")
        missing = [next_state for next_state in expected if next_state not in answered]
        extra = [next_state for next_state in answered if next_state not in expected]
        parts = []
        if missing:
            parts.append(f"{len(missing)} missing, e.g. {to_prolog(missing[0])}")
        if extra:
            parts.append(f"{len(extra)} not successors, e.g. {to_prolog(extra[0])}")
        if not parts:
            parts.append("some answered more than once")
        return Verdict(Category.WRONG_SUCCESSORS,
                       f"answers {len(answered)} successors where there are {len(expected)}: "
                       + "; ".join(parts))

    def right(self, question: Question, policy: Policy) -> frozenset[Hashable]:
        """The successors, in cell order."""
        return frozenset({tuple(reference.successor(question.state, question.player))})


def _in_report_order(checks: tuple[PrologCheck, ...]) -> dict[str, PrologCheck]:
    """`checks` by name, in the order the records report them (`logic/predicates.py`), the
    play check after the top of the lab's recursion, whose agent it plays."""
    named = {check.name: check for check in checks}
    ordered: dict[str, PrologCheck] = {}
    for name in graded_in_report_order():
        ordered[name] = named[name]
        if name == recursion_top_down()[0]:
            ordered[PLAY] = named[PLAY]
    if len(ordered) != len(named):
        raise ValueError(f"checks with no record graded: {sorted(set(named) - set(ordered))}")
    return ordered


CHECKS: dict[str, PrologCheck] = _in_report_order(
    (TerminalState(), MaxValue(), MinValue(), MinimaxDecision(), Play(), Successor()))
"""What a submission is checked on, in the order they are reported: the lab's predicates, and
the play check."""
PREDICATES = tuple(name for name in CHECKS if name != PLAY)
"""The lab's predicates graded, in the order they are reported: those whose record says so
(`logic/predicates.py`; tests/test_predicates.py holds the two alike)."""


def questions(predicates: tuple[str, ...]) -> list[Question]:
    """Every question for `predicates`, the fullest boards first (they cost a program least),
    so that a time budget that runs out leaves the costliest unasked; within a state, the
    predicates in the lab's order."""
    asked = [question for name in PREDICATES if name in predicates
             for question in CHECKS[name].questions()]
    return sorted(asked, key=lambda question: fullest_first(question.state))


@cache
def lab_cost(question: Question) -> int:
    """The inferences the lab's own solution takes for `question`, at most: the measure of
    the inference limits (`--inference-ratio`, `--inference-budget`)."""
    if question.judged is Judged.CLAUSES:
        return CLAUSE_BASE + LAB_PER_NODE * (1 + question.state.count(BLANK))
    return LAB_BASE + LAB_PER_NODE * CHECKS[question.check].nodes(question)


def judged_questions(predicates: tuple[str, ...], judged: Judged,
                     per_blanks: int | None) -> list[Question]:
    """Every question for `predicates` (as `questions`), judged as told; judged on their own
    clauses, followed by the end-to-end sample (`end_to_end`; None: no sample), which a
    contained program answers in a process never given a lab answer (`StudentProgram`)."""
    return list(_judged_questions(predicates, judged, per_blanks))


@cache
def _judged_questions(predicates: tuple[str, ...], judged: Judged,
                      per_blanks: int | None) -> tuple[Question, ...]:
    asked = questions(predicates)
    if judged is Judged.WHOLE:
        return tuple(asked)
    sampled = [] if per_blanks is None else end_to_end(predicates, per_blanks)
    return tuple([Question(question.check, question.state, question.player, Judged.CLAUSES)
                  for question in asked] + sampled)


SAMPLED = recursion_top_down()
"""The checks the end-to-end sample may ask, the first of them graded: the lab's recursion,
from the top (`logic/predicates.py`)."""


def end_to_end(predicates: tuple[str, ...], per_blanks: int) -> list[Question]:
    """The questions asked of the whole program in a grade judged on its own clauses: the
    lab's cases, and `per_blanks` boards of each number of blanks from 1 to 8
    (`compare.grader.interfaces.sample`), asked of the first check of `SAMPLED` graded (none if none
    is); the fewest blanks first."""
    check = next((name for name in SAMPLED if name in predicates), None)
    if check is None:
        return []
    return [replace(question, sample=True) for question in sample.end_to_end(
        CHECKS[check].questions(), per_blanks, lambda question: (question.state,
                                                                 question.player), LAB_CASES)]


def calls_below(question: Question) -> list[Question]:
    """The calls the lab's clauses make for `question` (docs/lab.md)."""
    return CHECKS[question.check].calls_below(question)


LIMITS = {
    End.DIED: (Category.DIED, "the program died"),
    End.INFERENCES: (Category.INFERENCE_LIMIT, "no answer within the inference limit"),
    End.CPU: (Category.CPU_LIMIT, "no answer within the CPU time limit (all its processes, "
              "measured outside the program)"),
    End.TIME: (Category.TIME_LIMIT, "no answer within the time limit (wall clock)"),
    End.ERROR: (Category.EXCEPTION, "an exception"),
}
"""The verdict on a question that got no answer before it stopped, by how it stopped (the
error's own message, where there is one)."""
MORE_STOPPED = {End.INFERENCES: "the inference limit ran out",
                End.CPU: "the CPU time limit ran out", End.TIME: "the time limit ran out",
                End.DIED: "the program died", End.ERROR: "an exception"}
"""Why asking for more answers stopped, where it stopped without a message."""


def judge(question: Question, reply: Reply, policy: Policy | None = None) -> Verdict:
    """The verdict on a question's reply under `policy` (the lab's, unless told): its first
    answer, then those on backtracking."""
    policy = policy or Policy()
    check = CHECKS[question.check]
    end = End(reply.end)
    if not reply.answers:
        if end in LIMITS:
            category, said = LIMITS[end]
            keep_said = end in (End.INFERENCES, End.CPU, End.TIME)
            return Verdict(category, said if keep_said else reply.error or said)
        return check.fails(question)
    first, *others = reply.answers
    verdict = check.first(question, first.term, first.text, policy)
    if not verdict.right or not check.backtracking:
        return verdict
    notes = []
    for other in others:
        if other.term == first.term:
            notes.append(Category.SAME_AGAIN)
            continue
        again = check.first(question, other.term, other.text, policy)
        if again.category in (Category.RIGHT, Category.OTHER_OPTIMAL_SUCCESSOR,
                              Category.OTHER_OPTIMAL):
            notes.append(Category.OTHER_OPTIMAL_AGAIN)
        else:
            return Verdict(Category.WRONG_ON_BACKTRACKING, f"on backtracking it {again.detail}",
                           lab=again.lab)
    if end.stopped:
        return Verdict(Category.FAILS_ON_BACKTRACKING,
                       f"asked for more answers: {reply.error or MORE_STOPPED[end]}")
    return replace(verdict, notes=verdict.notes + tuple(notes)) if notes else verdict


def marked(state: State, after: State) -> int:
    """The cell `after` marks that `state` leaves blank; 0 when they are the same."""
    return next((number for number, (was, now) in enumerate(zip(state, after, strict=True), 1)
                 if was != now), 0)
