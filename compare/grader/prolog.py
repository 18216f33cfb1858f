"""What `grade` asks a student's Prolog program, and how each answer is judged.

Each predicate the lab asks for is asked on every state it applies to (see `questions`), and
its first answer judged against the reference (`logic/reference.py`, the lab's objective): the
value, and for `max_value`/`min_value` the successor kept in `sv`, under a grading policy
(`--ties`, `--values`). Answers offered on backtracking are judged apart: the same again and
other optimal answers are notes, anything else a wrong answer on backtracking.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from compare.grader.assignment import DEFAULT_WORK, WorkLimits
from compare.grader.interface import Options, did_you_mean, refuse_python_options
from compare.judge.categories import Category
from compare.judge.results import Problem, Verdict
from compare.judge.truth import Answer, Policy, lab_words, truth
from logic import reference
from logic.contain.harness import Reply, StudentProgram, answer_state, is_integer
from logic.contain.sandbox import SWIPL
from logic.errors import LabError
from logic.objective import LAB
from logic.positions import all_positions, fullest_first, game_tree_size, reachable_states
from logic.state import PLAYERS, Player, State, is_terminal, to_prolog

PREDICATES = ("terminal_state", "max_value", "min_value", "minimax_decision", "successor")
"""The lab's predicates a submission is checked on, in the order they are reported."""

ARITY = {"terminal_state": 3, "max_value": 3, "min_value": 3, "minimax_decision": 4,
         "successor": 3}
HELPERS = ("successor/3", "other_player/2", "list_replace/4", "get_action/3", "find_max_sv/2",
           "find_min_sv/2", "winning_config/2")
"""The lab's helper predicates, named when a program calls a near name that does not exist."""


@dataclass(frozen=True)
class Question:
    """One question: a predicate asked of a state with a player (the agent, or the mover)."""

    check: str
    state: State
    player: Player

    @property
    def goal(self) -> str:
        """The Prolog goal, with its answer variable `A`."""
        state = to_prolog(self.state)
        if self.check == "terminal_state":
            return f"terminal_state({state}, {self.player}, A)"
        if self.check in ("max_value", "min_value"):
            return f"{self.check}({state}, {self.player}, A)"
        if self.check == "minimax_decision":
            return f"minimax_decision({state}, {self.player}, Action, Value), A = Action-Value"
        return f"findall(N, successor({state}, {self.player}, N), A)"

    def __str__(self) -> str:
        return f"{self.check}({to_prolog(self.state)}, {self.player}, ...)"


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


LAB_BASE = 50_000
LAB_PER_NODE = 300
"""The lab's own cost of a question, in inferences, at most: `LAB_BASE` plus `LAB_PER_NODE`
for each node of the game tree the lab's recursion visits below it (a solution in the lab's
style stays within it on every question, as the tests check)."""


def lab_cost(question: Question) -> int:
    """The inferences the lab's own solution takes for `question`, at most: the measure of
    the inference limits (`--inference-ratio`, `--inference-budget`)."""
    if question.check in ("max_value", "minimax_decision"):
        nodes = game_tree_size(question.state, question.player)
    elif question.check == "min_value":  # its adversary moves
        nodes = game_tree_size(question.state, reference.other_player(question.player))
    else:
        nodes = 1
    return LAB_BASE + LAB_PER_NODE * nodes


@cache
def lab_clauses(predicate: str) -> str:
    """The lab's clauses for `predicate`, as this project states the lab in Prolog
    (`logic/prolog/lab.pl`): from its first clause to the blank line after its last."""
    lines = (resources.files("logic.prolog") / "lab.pl").read_text(encoding="utf-8").split("\n")
    start = next((number for number, line in enumerate(lines)
                  if line.startswith(f"{predicate}(")), len(lines))
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return "\n".join(lines[start:end])


def calls_below(question: Question) -> list[Question]:
    """The calls the lab's clauses make for `question` (docs/lab.md): `minimax_decision`
    calls `max_value` on its state; `max_value` and `min_value` call `terminal_state`, then,
    where the game goes on, `min_value` (after the player's moves) or `max_value` (after its
    adversary's) on each successor, in cell order; `terminal_state` and `successor` call
    nothing the grader asks."""
    state, player = question.state, question.player
    if question.check == "minimax_decision":
        return [Question("max_value", state, player)]
    if question.check not in ("max_value", "min_value"):
        return []
    calls = [Question("terminal_state", state, player)]
    if is_terminal(state):
        return calls
    if question.check == "max_value":
        return calls + [Question("min_value", next_state, player)
                        for next_state in reference.successor(state, player)]
    other = reference.other_player(player)
    return calls + [Question("max_value", next_state, player)
                    for next_state in reference.successor(state, other)]


def judge(question: Question, reply: Reply, policy: Policy | None = None) -> Verdict:
    """The verdict on a question's reply under `policy` (the lab's, unless told): its first
    answer, then those on backtracking."""
    policy = policy or Policy()
    if reply.end == "died" and not reply.answers:
        return Verdict(Category.DIED, reply.error or "the program died")
    if reply.end == "inferences" and not reply.answers:
        return Verdict(Category.INFERENCE_LIMIT, "no answer within the inference limit")
    if reply.end == "cpu" and not reply.answers:
        return Verdict(Category.CPU_LIMIT, "no answer within the CPU time limit (all its "
                       "processes, measured outside the program)")
    if reply.end == "time" and not reply.answers:
        return Verdict(Category.TIME_LIMIT, "no answer within the time limit (wall clock)")
    if reply.end == "error" and not reply.answers:
        return Verdict(Category.EXCEPTION, reply.error or "an exception")
    if not reply.answers:
        if question.check == "terminal_state" and reference.terminal_state(
            question.state, question.player
        ) is None:
            return Verdict(Category.RIGHT)
        return Verdict(Category.NO_ANSWER, "the goal fails")
    first, *others = reply.answers
    verdict = _judge_first(question, first.term, first.text, policy)
    if not verdict.right or question.check == "successor":
        return verdict
    notes = []
    for other in others:
        if other.term == first.term:
            notes.append(Category.SAME_AGAIN)
            continue
        again = _judge_first(question, other.term, other.text, policy)
        if again.category in (Category.RIGHT, Category.OTHER_OPTIMAL_SUCCESSOR,
                              Category.OTHER_OPTIMAL):
            notes.append(Category.OTHER_OPTIMAL_AGAIN)
        else:
            return Verdict(Category.WRONG_ON_BACKTRACKING,
                           f"on backtracking it answers {other.text}: {again.detail}")
    if reply.end in ("error", "inferences", "cpu", "time", "died"):
        why = reply.error or {"inferences": "the inference limit ran out",
                              "cpu": "the CPU time limit ran out"}.get(
            reply.end, "the time limit ran out")
        return Verdict(Category.FAILS_ON_BACKTRACKING, f"asked for more answers: {why}")
    return Verdict(Category.RIGHT, notes=verdict.notes + tuple(notes))


def _judge_first(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    state, player = question.state, question.player
    if question.check == "terminal_state":
        expected = reference.terminal_state(state, player)
        if not is_integer(term):
            return Verdict(Category.UNREADABLE, f"answers {text}, not a value -1, 0 or 1")
        if expected is None:
            return Verdict(Category.ANSWER_NOT_OVER, f"answers {text}, but the game goes on")
        if term != expected:
            return Verdict(Category.WRONG_VALUE, f"answers {term}; the value is {expected}")
        return Verdict(Category.RIGHT)
    if question.check in ("max_value", "min_value"):
        return _judge_sv(question, term, text, policy)
    if question.check == "minimax_decision":
        return _judge_decision(question, term, text, policy)
    return _judge_successors(question, term, text)


def _judge_sv(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    """The value and the successor kept; with `--values none` the successor alone (is it an
    optimal one), with `--ties any` any optimal successor."""
    state, player = question.state, question.player
    read = _sv(term)
    if read is None:
        return Verdict(Category.UNREADABLE, f"answers {text}, not sv(State, Value)")
    kept, value = read
    maximising = question.check == "max_value"
    expected = (reference.max_value if maximising else reference.min_value)(state, player)
    graded = policy.values == "all"
    if graded and value != expected.value:
        return Verdict(Category.WRONG_VALUE, f"answers {text}; the value is {expected.value}")
    if kept == expected.state:
        return Verdict(Category.RIGHT)
    mover = player if maximising else reference.other_player(player)
    if is_terminal(state) or kept not in reference.successor(state, mover):
        where = ("the game is over, so sv's state is the state itself" if is_terminal(state)
                 else f"no move of {mover} leads there")
        return Verdict(Category.NOT_A_SUCCESSOR, f"answers {text}: {where}")
    worth = (reference.min_value if maximising else reference.max_value)(kept, player).value
    if worth != expected.value:
        return Verdict(Category.SUCCESSOR_OF_OTHER_VALUE,
                       f"answers {text}, but that successor is worth {worth}"
                       + ("" if graded else f", and the best is worth {expected.value}"))
    cell = next(number for number, (was, now) in enumerate(zip(state, kept, strict=True), 1)
                if was != now)
    if policy.ties == "any":
        return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,), cell=cell)
    return Verdict(Category.OTHER_OPTIMAL_SUCCESSOR,
                   f"answers {text}, optimal too; the lab keeps the first in cell order, "
                   f"{_state_text(expected.state)}", cell=cell)


def _judge_decision(question: Question, term: object, text: str, policy: Policy) -> Verdict:
    state, player = question.state, question.player
    read = _decision(term, player)
    if read is None:
        return Verdict(Category.UNREADABLE, f"answers {text}, not Action = [{player},Position] and "
                       "an integer Value")
    cell, value = read
    judgement = truth(LAB, policy).judge(Answer((state, player), cell, value))
    if judgement.right:
        return Verdict(Category.RIGHT, notes=(Category.TIE_BREAK,) * judgement.tie_break,
                       judgement=judgement)
    return Verdict(judgement.category, lab_words(judgement), judgement=judgement)


def _judge_successors(question: Question, term: object, text: str) -> Verdict:
    expected = reference.successor(question.state, question.player)
    answered = [answer_state(item) for item in term] if isinstance(term, list) else None
    if answered is None or None in answered:
        return Verdict(Category.UNREADABLE, f"answers {text}, not a list of states")
    if answered == expected:
        return Verdict(Category.RIGHT)
    if sorted(answered) == sorted(expected):
        return Verdict(Category.WRONG_ORDER, f"answers the right {len(expected)} successors, "
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
    return Verdict(Category.WRONG_SUCCESSORS,
                   f"answers {len(answered)} successors where there are {len(expected)}: "
                   + "; ".join(parts))


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


class PrologInterface:
    """The lab's own interface: a Prolog program defining the lab's predicates, each asked
    as a goal in a contained `swipl`, with up to `answers` answers on backtracking."""

    name = "prolog"
    checks = PREDICATES
    check_noun = "predicate"
    load_label = "loading"
    suffixes = (".pl", ".pro", ".prolog")
    policy = Policy("lowest", "all")
    """The lab's own rule: the first optimal successor in cell order, and values graded."""

    def __init__(self, answers: int = 3) -> None:
        self.answers = answers

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> PrologInterface:
        if shutil.which(SWIPL) is None:
            raise LabError(f"grade needs SWI-Prolog, and {SWIPL} is not on the PATH; install "
                           "swi-prolog-nox (Debian, Ubuntu)")
        refuse_python_options(args, cls.name)
        return cls(args.answers if args.answers is not None else 3)

    def open(self, path: Path, options: Options) -> PrologSession:
        program = StudentProgram([path], options.main, options.limits, options.load_seconds)
        return PrologSession(program, self.answers, options.work)


class PrologSession:
    """One Prolog submission: goals asked within inference limits, answers judged as the
    lab's predicates."""

    work_unit = "inferences"

    def __init__(self, program: StudentProgram, answers: int,
                 work: WorkLimits = DEFAULT_WORK) -> None:
        self.program = program
        self.answers = answers
        self.work = work

    def work_limit(self, question: Question) -> float:
        return round(self.work.ratio * lab_cost(question))

    def work_budget(self, questions: list[Question]) -> float:
        return round(self.work.budget_ratio * sum(lab_cost(question) for question in questions))

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        if "successor" in checks and "successor/3" not in defined:
            return (tuple(check for check in checks if check != "successor"),
                    ["successor/3: not defined by the submission (the lab's helper answers "
                     "it)"])
        return checks, []

    def defines(self, check: str, defined: set[str]) -> bool:
        return f"{check}/{ARITY[check]}" in defined

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        wanted = f"{check}/{ARITY[check]}"
        hint = did_you_mean(wanted, defined)
        return (Problem(Category.UNDEFINED, f"{wanted} is not defined{hint}", wanted),
                Verdict(Category.UNDEFINED, f"{check} is not defined"))

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        return questions(checks)

    def ask(self, question: Question, seconds: float, work: float) -> Reply:
        return self.program.ask(question.goal, "A", self.answers, seconds, round(work))

    def calls_below(self, question: Question) -> list[Question]:
        return calls_below(question)

    def said(self, reply: Reply) -> str:
        return f"answers {reply.answers[0].text}" if reply.answers else "no answer"

    def clause(self, check: str) -> str:
        return lab_clauses(check)

    def judge(self, question: Question, reply: Reply, policy: Policy) -> Verdict:
        return judge(question, reply, policy)

    def ask_again(self, question: Question, reply: Reply) -> bool:
        return False  # the answers on backtracking show the others

    def same(self, reply: Reply, again: Reply) -> bool:
        return reply.answers == again.answers

    def problem(self, question: Question, reply: Reply, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        if verdict.category not in (Category.EXCEPTION, Category.DIED) or not reply.error:
            return None
        kind, message = reply.error_term or verdict.category, reply.error
        if kind.startswith("existence_error(procedure,"):
            unknown = kind[len("existence_error(procedure,"):-1].split(":")[-1]
            message += did_you_mean(unknown, defined | set(HELPERS))
        return Problem(kind, message, str(question))
