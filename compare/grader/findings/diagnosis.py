"""The first wrong call: for a wrong answer of a recursive check, the program's own computation
walked with the reference as the oracle (algorithmic debugging). The calls its clause makes
below a wrong call are asked of the program and judged; the walk descends into the first
wrong one, until a call is wrong while every call below it is right: there the program's
clause goes wrong (docs/grading-reference.md, "The first wrong call").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from minimax_lab.compare.grader.findings.beside import searches
from minimax_lab.compare.grader.interfaces.interface import Question, Session
from minimax_lab.compare.judge.categories import LIMITS, Category, Kind
from minimax_lab.compare.judge.results import Finding, Verdict, WrongCall
from minimax_lab.compare.judge.truth import Policy

MOST_CALLS = 100
"""Questions one walk asks at most; past them it says it could not conclude."""


def first_wrong_call(session: Session[Any, Any], wrong: Finding, question: Question,
                     ask: Callable[[Question], tuple[Any, Verdict] | str],
                     policy: Policy | None = None) -> WrongCall:
    """Walk down from `question`, whose answer was judged wrong (`wrong`), asking each call
    with `ask` (which says why instead when nothing more may be asked); the first call wrong
    with every call below it right, with its search and the lab's (under `policy`, if
    given) to draw side by side."""
    last, current, below = _walk(session, wrong, question, ask)
    if policy is None:
        return last
    made = None
    if (last.concluded and session.records_calls  # asked again for the calls it makes, but
            and last.call.category not in LIMITS):  # not into a bound the later walks need
        session.record_next()
        answered = ask(current)
        if not isinstance(answered, str):
            made = session.made(current, answered[0])
    return replace(last, searches=searches(session, current, last.call, below, policy, made))


def _walk(session: Session[Any, Any], wrong: Finding, question: Question,
          ask: Callable[[Question], tuple[Any, Verdict] | str]
          ) -> tuple[WrongCall, Question, list[tuple[Question, Finding]]]:
    """The walk, with the last call it reached and the calls asked below it."""
    current, asked = wrong, 0
    checks: dict[str, None] = {}
    while True:
        below: list[Finding] = []
        pairs: list[tuple[Question, Finding]] = []
        deeper = None
        for call in session.calls_below(question):
            if asked >= MOST_CALLS:
                stopped = WrongCall(current, tuple(below), asked, False,
                                    f"stopped after {MOST_CALLS} calls",
                                    session.clause(question.check), tuple(checks))
                return stopped, question, pairs
            checks[call.check] = None
            answered = ask(call)
            if isinstance(answered, str):
                stopped = WrongCall(current, tuple(below), asked, False, f"stopped: {answered}",
                                    session.clause(question.check), tuple(checks))
                return stopped, question, pairs
            reply, verdict = answered
            asked += 1
            position = (call.state, call.player)
            if verdict.category.kind is not Kind.RIGHT:
                deeper = Finding(verdict.category, position, verdict.detail, asked=str(call),
                                 lab=verdict.lab)
                question = call
                break
            below.append(Finding(Category.RIGHT, position, session.said(reply),
                                 asked=str(call)))
            pairs.append((call, below[-1]))
        if deeper is None:
            return WrongCall(current, tuple(below), asked, clause=session.clause(question.check),
                             checks=tuple(checks)), question, pairs
        current = deeper
