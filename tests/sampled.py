"""Submissions graded as `grade` grades them, contained and judged alike, but asked only part of
their questions: Prolog ones an even spread, as a host's "check my lab" asks them
(`hosted.Sample`), for tests of what holds of every question asked, where a spread over every
kind of board shows it; mapped ones (`--interface predicate`) every `step`-th question."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from minimax_lab.compare.grader.interfaces import python
from minimax_lab.compare.grader.interfaces.interface import Options, Session
from minimax_lab.compare.grader.interfaces.predicate_interface import (
    PredicateInterface,
    PredicateSession,
)
from minimax_lab.compare.grader.interfaces.prolog import Judged, Question
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface, PrologSession
from minimax_lab.compare.grader.running.hosted import Sample


class SampledSession(PrologSession):
    """A contained Prolog session asked only `selection`'s questions, as `HostedSession`
    chooses them."""

    selection: Sample = Sample()

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        return self.follow(self.selection.select(super().questions(checks)))


@dataclass(frozen=True)
class SampledPrologInterface(PrologInterface):
    """`grade`'s Prolog interface, its submissions contained as `grade`'s, asked `selection`'s
    questions."""

    selection: Sample = Sample()

    def open(self, path: Path, options: Options) -> Session[Question, object]:
        whole = super().open(path, options)
        assert isinstance(whole, PrologSession)
        session = SampledSession(whole.student, self.answers, options.work,
                                 Judged(self.judged), self.end_to_end)
        session.selection = self.selection
        return session


@dataclass(frozen=True)
class SampledPredicate(PredicateInterface):
    """`grade --interface predicate`, contained as grade's, asked every `step`-th question."""

    step: int = 1

    def open(self, path: Path, options: Options) -> Session[python.Question, object]:
        session = super().open(path, options)
        assert isinstance(session, PredicateSession)
        session.questions = (  # type: ignore[method-assign]
            lambda checks, whole=session.questions: whole(checks)[::self.step])
        return session
