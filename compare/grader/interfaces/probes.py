"""The probe questions: a fixed set of each check's questions that every way of asking asks
(`grade` whatever its budget, a shard, the site's check whatever its sample), so that a bug is
named by its answers to the same questions everywhere (docs/grading-reference.md, "Bugs grouped").

They are `PROBES` questions of each check on boards with at least `FEWEST_MARKS` marks, spread
over every kind of board (its blanks, and whether it is won, drawn or open), as the site's
sample spreads its own: a sample of at least `PROBES` questions of each check holds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

from minimax_lab.logic.state import State, marks_made, result

PROBES = 20
"""Probe questions of each check (the fewest the site's check asks)."""
FEWEST_MARKS = 2
"""Marks on a probe's board, at least (the site's check asks no emptier board)."""


class Asked(Protocol):
    """A question as probes see it: its check and its board."""

    @property
    def check(self) -> str: ...

    @property
    def state(self) -> State: ...


Q = TypeVar("Q", bound=Asked)


def kinds(questions: Iterable[Q], check: str, fewest_marks: int) -> list[list[Q]]:
    """The questions of `check` (not of an end-to-end sample, not a game) on boards with at
    least `fewest_marks` marks, by kind of board, in their order."""
    found: dict[tuple[int, str], list[Q]] = {}
    for question in questions:
        if (question.check == check and marks_made(question.state) >= fewest_marks
                and not getattr(question, "sample", False)
                and not getattr(question, "played", False)):
            kind = (question.state.count("-"), result(question.state) or "open")
            found.setdefault(kind, []).append(question)
    return list(found.values())


def spread(kinds: Sequence[Sequence[Q]], most: int) -> list[Q]:
    """`most` questions (or all, if fewer) taken a kind at a time in turn, each kind's spread
    over it; the questions of a smaller `most` are among those of a larger one."""
    share = [0] * len(kinds)
    left = min(most, sum(map(len, kinds)))
    while left:
        for index, kind in enumerate(kinds):
            if left and share[index] < len(kind):
                share[index] += 1
                left -= 1
    return [kind[index] for kind, count in zip(kinds, share, strict=True)
            for index in _evenly(len(kind), count)]


def _evenly(length: int, count: int) -> list[int]:
    """`count` of the indices below `length`, each prefix of the order that yields them
    spread over it (halves, then quarters, ...: the van der Corput sequence)."""
    taken: dict[int, None] = {}
    step = 0
    while len(taken) < count:
        point, bits, weight = 0.0, step, 0.5
        while bits:
            point += weight * (bits & 1)
            bits >>= 1
            weight /= 2
        taken.setdefault(int(point * length), None)
        step += 1
    return list(taken)


def probes(questions: Sequence[Q]) -> frozenset[Q]:
    """The probe questions among `questions`, every question of their checks."""
    checks = dict.fromkeys(question.check for question in questions)
    return frozenset(question for check in checks
                     for question in spread(kinds(questions, check, FEWEST_MARKS), PROBES))


def key(question: object) -> str:
    """A question named by what it asks, the same on every machine and in every judging mode:
    its check, board, player and cell (where it has them)."""
    return "|".join(str(getattr(question, name, "")) for name in ("check", "state", "player",
                                                                    "cell"))
