"""The program's search at its first wrong call and the lab's, as the neutral trees of
`logic.tools.beside`: the first wrong call with the program's answer and the calls its own code
made below it (where recorded; else as the walk asked them), beside the same call with the
lab's answer and the calls the lab's clause makes below it in its own search, the lab's answers
from the check's right answers (the reference)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from minimax_lab.compare.grader.interfaces.interface import Question, Session
from minimax_lab.compare.judge.results import Finding
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.tools.beside import Call, bounded

GIVEN = "given the lab's answer"
"""What a call the program made below its first wrong call got, where the grader answered it."""
WRONG = "wrong: "
"""What begins the compared answer of a call the judge found wrong, so that it never equals
the lab's words."""


def searches(session: Session[Any, Any], question: Question, wrong: Finding,
             below: Sequence[tuple[Question, Finding]], policy: Policy,
             made: Sequence[tuple[Question, str | None]] | None = None) -> tuple[Call, Call]:
    """The program's tree and the lab's at the first wrong call `question` (`wrong`, its
    finding): below it, the calls its own code `made`, each with what it got (None: given
    the lab's answer), where they were recorded (Python judged on its own functions, Prolog
    in the lab's style), else the calls the walk asked below it (`below`, with their
    findings: all right); below the lab's, the calls its clause makes in its own search."""
    said = wrong.detail.removesuffix(wrong.lab) if wrong.lab else wrong.detail
    children = (tuple(Call(call.check, call.state, call.player, _lab(session, call, policy),
                           said=GIVEN if got is None else got) for call, got in made)
                if made is not None else
                tuple(Call(call.check, call.state, call.player, _lab(session, call, policy),
                           said=found.detail) for call, found in below))
    mine = Call(question.check, question.state, question.player, WRONG + said, children,
                said=said)
    lab = Call(question.check, question.state, question.player,
               _lab(session, question, policy),
               tuple(Call(call.check, call.state, call.player, _lab(session, call, policy))
                     for call in session.searched_below(question)))
    return bounded(mine), bounded(lab)


def _lab(session: Session[Any, Any], question: Question, policy: Policy) -> str:
    """The lab's answer to `question`, in words: the session's right answers to it."""
    return lab_words(session.lab_right(question, policy))


def lab_words(right: frozenset[Hashable]) -> str:
    """Right answers in words, each alone or joined by `or`: a move's cell and value, a
    board or boards, a value, or none."""
    words = sorted({_word(key) for key in right})
    return " or ".join(words) if words else "no answer the grader can name"


def _word(key: Hashable) -> str:
    if key is None:
        return "none"
    if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int):
        cell, value = key
        move = "the board itself" if cell == 0 else f"cell {cell}"
        return move if value is None else f"{move}, value {value}"
    if isinstance(key, tuple):
        return "[" + ", ".join(str(item) for item in key) + "]"
    return str(key)
