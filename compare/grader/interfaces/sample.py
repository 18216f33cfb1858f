"""How a grade judges a program: on its own clauses (Prolog) or functions (Python), each
question's calls on the successors of its board answered as the lab answers them, or as a
whole; and the end-to-end sample, the questions asked of the whole program in a grade judged
on its own clauses (docs/grading-reference.md, "Judged on its own clauses")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from minimax_lab.compare.grader.options.config import own
from minimax_lab.logic.positions import fullest_first
from minimax_lab.logic.state import BLANK, SIZE, Player, State, is_terminal


class Judged(StrEnum):
    """How a question is judged: on the program's own clauses or functions (`clauses`: the
    calls below it on the successors of its board answered as the lab answers them), or
    `whole`, the program answering every call itself; in a grade judged on its own clauses,
    the questions of the end-to-end sample are `whole`. Each member carries its words in
    `--judged`'s help (`said`); the option's help, words and check are made from them."""

    said: str

    def __new__(cls, value: str, said: str = "") -> Judged:
        member = str.__new__(cls, value)
        member._value_ = value
        member.said = said
        return member

    CLAUSES = ("clauses", "the calls below it on the successors of its board get the lab's "
               "answers, so each costs one level of the program's recursion: Prolog's "
               "max_value, min_value and terminal_state, or the recursive functions a Python "
               "mapping names; the whole program is asked a sample, --end-to-end")
    WHOLE = "whole", "the program answers every call itself"


JUDGED_DEFAULT = Judged.CLAUSES
"""How a question is judged where neither the option nor the assignment says."""
JUDGED = tuple(judged.value for judged in Judged)
"""`--judged`'s words."""
JUDGED_SAID = "is for Prolog submissions and Python functions a mapping names"
JUDGED_HELP = ("how each question is judged: "
               + " or ".join(f"{judged.value} ({judged.said})" for judged in Judged)
               + f" (default: the assignment's, else {JUDGED_DEFAULT.value})")
END_TO_END_SAID = "is for submissions judged on their own clauses"
END_TO_END_HELP = ("boards of each number of blanks (1 to 8) the whole program is asked "
                   "besides the lab's cases, when judged on its own clauses (default: the "
                   "assignment's, else 1)")
"""The options `--judged` and `--end-to-end`, as the interfaces that take them say them."""


def judged_check(value: object) -> object:
    """One of `Judged`'s words: clauses or whole."""
    if value not in JUDGED:
        raise ValueError(" or ".join(JUDGED))
    return value


def judged_option() -> Any:
    """The dataclass field of an interface that takes `--judged` (`config.own`)."""
    return own(JUDGED_DEFAULT.value, JUDGED_SAID, JUDGED_HELP, judged_check, metavar="HOW")


def sample_check(value: object) -> object:
    """A whole number from 0 to 100."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise ValueError("a whole number from 0 to 100")
    return value


LAB_CASES = (("o-x------", "o"), ("-x--o----", "o"), ("x--------", "o"), ("---------", "x"))
"""The lab's own cases: the three example queries of its code's comments, and the empty board
(docs/lab.md, "The lab's cases")."""

Q = TypeVar("Q")


def end_to_end(own: Sequence[Q], per_blanks: int,
               position: Callable[[Q], tuple[State, Player]],
               cases: Sequence[tuple[str, str]] = LAB_CASES) -> list[Q]:
    """Of one check's questions `own` (each at its `position`): the lab's `cases`, and
    `per_blanks` boards of each number of blanks from 1 to 8, evenly spread over the
    questions in their order; the fewest blanks first."""
    chosen = [question for case in cases for question in own if position(question) == case]
    sampled = []
    for blanks in range(1, SIZE):
        having = [question for question in own if position(question)[0].count(BLANK) == blanks
                  and question not in chosen and not is_terminal(position(question)[0])]
        count = min(per_blanks, len(having))
        sampled += [having[(2 * index + 1) * len(having) // (2 * count)]
                    for index in range(count)]
    return sorted(sampled + chosen, key=lambda question: fullest_first(position(question)[0]))
