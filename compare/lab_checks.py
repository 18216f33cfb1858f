"""What `grade` asks a student's Prolog program, and how each answer is judged.

Each predicate the lab asks for is asked on every state it applies to (see `questions`), and
its first answer judged against the reference (`logic/reference.py`, the lab's objective): the
value, and for `max_value`/`min_value` the successor kept in `sv`, under a grading policy
(`--ties`, `--values`). Answers offered on backtracking are judged apart: the same again and
other optimal answers are notes, anything else a wrong answer on backtracking.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from compare.grading import OTHER_OPTIMAL, TIE_BREAK, WRONG_VALUE, Answer, Policy, Truth
from logic import reference
from logic.contain.harness import Reply, answer_state, is_integer
from logic.objective import LAB
from logic.positions import all_positions, fullest_first, reachable_states
from logic.state import PLAYERS, Player, State, is_terminal, to_prolog

PREDICATES = ("terminal_state", "max_value", "min_value", "minimax_decision", "successor")
"""The lab's predicates a submission is checked on, in the order they are reported."""

RIGHT = "right"
NO_ANSWER = "no answer"
ANSWER_NOT_OVER = "answers where the game goes on"
UNREADABLE = "unreadable answer"
NOT_A_SUCCESSOR = "not a successor"
SUCCESSOR_OF_OTHER_VALUE = "successor of another value"
OTHER_OPTIMAL_SUCCESSOR = "other optimal successor"
WRONG_SUCCESSORS = "wrong successors"
WRONG_ORDER = "successors out of cell order"
EXCEPTION = "exception"
TIME_LIMIT = "time limit"
DIED = "program died"
NOT_ASKED = "not asked"
UNDEFINED = "undefined predicate"
WRONG_ON_BACKTRACKING = "wrong answer on backtracking"
FAILS_ON_BACKTRACKING = "exception or time limit on backtracking"
SAME_AGAIN = "same answer again"
OTHER_OPTIMAL_AGAIN = "another optimal answer"
NOTES = (SAME_AGAIN, OTHER_OPTIMAL_AGAIN)
"""Answers on backtracking that are no fault, only reported."""


@dataclass(frozen=True)
class Question:
    """One question: a predicate asked of a state with a player (the agent, or the mover)."""

    predicate: str
    state: State
    player: Player

    @property
    def goal(self) -> str:
        """The Prolog goal, with its answer variable `A`."""
        state = to_prolog(self.state)
        if self.predicate == "terminal_state":
            return f"terminal_state({state}, {self.player}, A)"
        if self.predicate in ("max_value", "min_value"):
            return f"{self.predicate}({state}, {self.player}, A)"
        if self.predicate == "minimax_decision":
            return f"minimax_decision({state}, {self.player}, Action, Value), A = Action-Value"
        return f"findall(N, successor({state}, {self.player}, N), A)"

    def __str__(self) -> str:
        return f"{self.predicate}({to_prolog(self.state)}, {self.player}, ...)"


@dataclass(frozen=True)
class Verdict:
    """The judgement of one question's answers: the category, why, and notes on the answers
    offered on backtracking."""

    category: str
    detail: str = ""
    notes: tuple[str, ...] = ()

    @property
    def right(self) -> bool:
        return self.category == RIGHT


def questions(predicates: tuple[str, ...]) -> list[Question]:
    """Every question for `predicates`, the fullest boards first (they cost a program least),
    so that a time budget that runs out leaves the costliest unasked; within a state, the
    predicates in the lab's order."""
    positions = all_positions()
    states = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]),
                    key=fullest_first)
    movers: dict[State, list[Player]] = {}
    for state, player in positions:
        movers.setdefault(state, []).append(player)
    asked = []
    for state in states:
        over = is_terminal(state)
        for predicate in PREDICATES:
            if predicate not in predicates:
                continue
            if predicate == "terminal_state" or over and predicate in ("max_value", "min_value"):
                asked += [Question(predicate, state, player) for player in PLAYERS]
            elif not over and predicate == "min_value":
                asked += [Question(predicate, state, reference.other_player(player))
                          for player in movers[state]]
            elif not over and predicate != "min_value":
                asked += [Question(predicate, state, player) for player in movers[state]]
    return asked


def judge(question: Question, reply: Reply, policy: Policy | None = None) -> Verdict:
    """The verdict on a question's reply under `policy` (the lab's, unless told): its first
    answer, then those on backtracking."""
    policy = policy or Policy()
    if reply.end == "died" and not reply.answers:
        return Verdict(DIED, reply.error or "the program died")
    if reply.end == "time" and not reply.answers:
        return Verdict(TIME_LIMIT, "no answer within the time limit")
    if reply.end == "error" and not reply.answers:
        return Verdict(EXCEPTION, reply.error or "an exception")
    if not reply.answers:
        if question.predicate == "terminal_state" and reference.terminal_state(
            question.state, question.player
        ) is None:
            return Verdict(RIGHT)
        return Verdict(NO_ANSWER, "the goal fails")
    first, *others = reply.answers
    verdict = _judge_first(question, first.term, first.text, policy)
    if not verdict.right or question.predicate == "successor":
        return verdict
    notes = []
    for other in others:
        if other.term == first.term:
            notes.append(SAME_AGAIN)
            continue
        again = _judge_first(question, other.term, other.text, policy)
        if again.category in (RIGHT, OTHER_OPTIMAL_SUCCESSOR, OTHER_OPTIMAL):
            notes.append(OTHER_OPTIMAL_AGAIN)
        else:
            return Verdict(WRONG_ON_BACKTRACKING,
                           f"on backtracking it answers {other.text}: {again.detail}")
    if reply.end in ("error", "time", "died"):
        why = reply.error or "the time limit ran out"
        return Verdict(FAILS_ON_BACKTRACKING, f"asked for more answers: {why}")
    return Verdict(RIGHT, notes=verdict.notes + tuple(notes))


def _judge_first(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    state, player = question.state, question.player
    if question.predicate == "terminal_state":
        expected = reference.terminal_state(state, player)
        if not is_integer(term):
            return Verdict(UNREADABLE, f"answers {text}, not a value -1, 0 or 1")
        if expected is None:
            return Verdict(ANSWER_NOT_OVER, f"answers {text}, but the game goes on")
        if term != expected:
            return Verdict(WRONG_VALUE, f"answers {term}; the value is {expected}")
        return Verdict(RIGHT)
    if question.predicate in ("max_value", "min_value"):
        return _judge_sv(question, term, text, policy)
    if question.predicate == "minimax_decision":
        return _judge_decision(question, term, text, policy)
    return _judge_successors(question, term, text)


def _judge_sv(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    """The value and the successor kept; with `--values none` the successor alone (is it an
    optimal one), with `--ties any` any optimal successor."""
    state, player = question.state, question.player
    read = _sv(term)
    if read is None:
        return Verdict(UNREADABLE, f"answers {text}, not sv(State, Value)")
    kept, value = read
    maximising = question.predicate == "max_value"
    expected = (reference.max_value if maximising else reference.min_value)(state, player)
    graded = policy.values == "all"
    if graded and value != expected.value:
        return Verdict(WRONG_VALUE, f"answers {text}; the value is {expected.value}")
    if kept == expected.state:
        return Verdict(RIGHT)
    mover = player if maximising else reference.other_player(player)
    if is_terminal(state) or kept not in reference.successor(state, mover):
        where = ("the game is over, so sv's state is the state itself" if is_terminal(state)
                 else f"no move of {mover} leads there")
        return Verdict(NOT_A_SUCCESSOR, f"answers {text}: {where}")
    worth = (reference.min_value if maximising else reference.max_value)(kept, player).value
    if worth != expected.value:
        return Verdict(SUCCESSOR_OF_OTHER_VALUE,
                       f"answers {text}, but that successor is worth {worth}"
                       + ("" if graded else f", and the best is worth {expected.value}"))
    if policy.ties == "any":
        return Verdict(RIGHT, notes=(TIE_BREAK,))
    return Verdict(OTHER_OPTIMAL_SUCCESSOR,
                   f"answers {text}, optimal too; the lab keeps the first in cell order, "
                   f"{_state_text(expected.state)}")


def _judge_decision(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    state, player = question.state, question.player
    read = _decision(term, player)
    if read is None:
        return Verdict(UNREADABLE, f"answers {text}, not Action = [{player},Position] and "
                       "an integer Value")
    cell, value = read
    answer = Answer((state, player), cell, value)
    truth = _truth(policy)
    finding = truth.grade(answer)
    if finding is None:
        return Verdict(RIGHT, notes=(TIE_BREAK,) * truth.breaks_only_the_tie_rule(answer))
    return Verdict(finding.category, finding.detail)


def _judge_successors(question: Question, term: object, text: str) -> Verdict:
    expected = reference.successor(question.state, question.player)
    answered = [answer_state(item) for item in term] if isinstance(term, list) else None
    if answered is None or None in answered:
        return Verdict(UNREADABLE, f"answers {text}, not a list of states")
    if answered == expected:
        return Verdict(RIGHT)
    if sorted(answered) == sorted(expected):
        return Verdict(WRONG_ORDER, f"answers the right {len(expected)} successors, "
                       "not in cell order")
    missing = [next_state for next_state in expected if next_state not in answered]
    extra = [next_state for next_state in answered if next_state not in expected]
    parts = []
    if missing:
        parts.append(f"{len(missing)} missing, e.g. {_state_text(missing[0])}")
    if extra:
        parts.append(f"{len(extra)} not successors, e.g. {_state_text(extra[0])}")
    if not parts:
        parts.append("some answered more than once")
    return Verdict(WRONG_SUCCESSORS,
                   f"answers {len(answered)} successors where there are {len(expected)}: "
                   + "; ".join(parts))


@cache
def _truth(policy: Policy) -> Truth:
    return Truth(LAB, policy)


def _sv(term: object) -> tuple[State, int] | None:
    if isinstance(term, dict) and term.get("f") == "sv" and len(term.get("args", [])) == 2:
        state, value = term["args"]
        if answer_state(state) is not None and is_integer(value):
            return answer_state(state), value
    return None


def _decision(term: object, player: Player) -> tuple[int, int] | None:
    if isinstance(term, dict) and term.get("f") == "-" and len(term.get("args", [])) == 2:
        action, value = term["args"]
        if (isinstance(action, list) and len(action) == 2 and action[0] == player
                and is_integer(action[1]) and is_integer(value)):
            return action[1], value
    return None


def _state_text(state: State) -> str:
    return to_prolog(state)
