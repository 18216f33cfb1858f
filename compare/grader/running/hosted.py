"""A Prolog submission checked in a host's SWI-Prolog (`logic.contain.hosted`): the site's
"check my lab", judged by the same checks, walks and known bugs as `grade`.

Which questions are asked is a `Selection`: every one, as `grade` asks them, or an even
sample of them where a host is too slow for all (WebAssembly in a browser); judged on the
program's own clauses (the default, as `grade`'s) or as a whole program.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from minimax_lab.compare.grader.findings.groups import group_class
from minimax_lab.compare.grader.interfaces.interface import Options, Session
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.probes import kinds, probes, spread
from minimax_lab.compare.grader.interfaces.prolog import Question
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface, PrologSession
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.contain.harness import Reply
from minimax_lab.logic.contain.hosted import Fresh, Host, HostedProgram
from minimax_lab.logic.state import Player, State, marks_made


class Selection(Protocol):
    """Which of the questions `grade` would ask (the fullest boards first) are asked."""

    def select(self, questions: Sequence[Question]) -> list[Question]: ...


class Every:
    """Every question, as `grade` asks them."""

    def select(self, questions: Sequence[Question]) -> list[Question]:
        return list(questions)


@dataclass(frozen=True)
class Sample:
    """`per_check` questions of each check on boards with at least `fewest_marks` marks (the
    emptier boards cost most), spread over every kind of board (by its blanks, and whether it
    is won, drawn or open) so that a rare kind (a drawn full board) is asked too, in `grade`'s
    order; the probe questions (`compare.grader.interfaces.probes`), which name a bug as `grade`
    names it, among them; and the questions of the end-to-end sample on such boards."""

    per_check: int = 40
    fewest_marks: int = 2

    def select(self, questions: Sequence[Question]) -> list[Question]:
        chosen = set(probes(questions))
        chosen.update(question for question in questions if question.sample
                      and marks_made(question.state) >= self.fewest_marks)
        for check in dict.fromkeys(question.check for question in questions):
            chosen.update(spread(kinds(questions, check, self.fewest_marks), self.per_check))
        return [question for question in questions if question in chosen]


Progress = Callable[[int, int], object]
"""Told, now and then, how many of the questions planned were asked, and how many there are."""
PROGRESS_SECONDS = 0.5
"""Seconds between two tellings of the progress."""


class HostedSession(PrologSession):
    """A Prolog session in a host, asking only the questions its selection keeps, telling
    `progress` how far it got."""

    student: HostedProgram

    def __init__(self, program: HostedProgram, answers: int, options: Options,
                 selection: Selection, judged: Judged = Judged.CLAUSES,
                 end_to_end: int = 1, progress: Progress | None = None) -> None:
        super().__init__(program, answers, options.work, judged, end_to_end)
        self.selection = selection
        self.progress = progress
        self.asked, self.planned, self._told = 0, 0, 0.0
        self._probes: frozenset[Question] = frozenset()

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        every = super().questions(checks)
        self._probes = probes(every)
        chosen = self.follow(self.selection.select(every))
        self.planned = len(chosen)
        self.student.send_ahead(self._ask(question, round(self.work_limit(question)))
                               for question in chosen if question.sample)
        return chosen

    def probes(self, questions: Sequence[Question]) -> frozenset[Question]:
        """Those of every question `grade` would ask, which a selection keeps."""
        return self._probes

    def decision(self, state: State, player: Player) -> Question | None:
        """None: a host cannot start the program afresh, and the play check's searches are
        too slow for WebAssembly in a browser."""
        return None

    def base(self, check: str, policy: Policy) -> float:
        """None computed (0): a check in a host is no grade, and only a score counts above its
        base (`constant_share`, which would judge every question of the check to find it)."""
        return 0.0

    def ask(self, question: Question, seconds: float, work: float) -> Reply:
        reply = super().ask(question, seconds, work)
        self.asked += 1
        now = time.monotonic()
        if self.progress is not None and (now - self._told >= PROGRESS_SECONDS
                                          or self.asked == self.planned):
            self._told = now
            self.progress(min(self.asked, self.planned), self.planned)
        return reply


@dataclass(frozen=True)
class HostedInterface(PrologInterface):
    """The lab's predicates in a Prolog program run by `host`, its questions chosen by
    `selection`."""

    host: Host | None = field(default=None, compare=False)
    fresh: Fresh | None = field(default=None, compare=False)
    selection: Selection = field(default_factory=Every)
    progress: Progress | None = field(default=None, compare=False)

    def ready(self, paths: Sequence[Path]) -> None:
        """Nothing to find on the PATH: the host brings its SWI-Prolog."""

    def open(self, path: Path, options: Options) -> Session[Any, Any]:
        if self.host is None:
            raise ValueError("a hosted interface needs its host")
        return HostedSession(HostedProgram(self.host, self.fresh), self.answers, options,
                             self.selection, Judged(self.judged), self.end_to_end, self.progress)


def hosted_checks(checks: Sequence[str]) -> tuple[str, ...]:
    """The checks a check in a host asks of `checks`: all but the play check, whose games
    start the program afresh for each search (`HostedSession.decision`)."""
    return tuple(check for check in checks if check != PLAY)


def check_hosted(name: str, host: Host, selection: Selection | None = None,
                 progress: Progress | None = None, fresh: Fresh | None = None,
                 **options: Any) -> SubmissionGrade:
    """The grade of the program `host` has loaded, as `grade` judges it (`Options` from
    `options`), asking the questions `selection` keeps (default: every one), telling
    `progress` how far it got; those of the whole program asked of `fresh`, if given, a
    second SWI-Prolog never given a lab answer, as `grade` asks them of a fresh process."""
    interface = HostedInterface(host=host, fresh=fresh, selection=selection or Every(),
                                progress=progress)
    options.setdefault("checks", hosted_checks(interface.checks))
    options.setdefault("policy", interface.policy)
    grade = grade_submission(name, Path(host.folder), Options(interface, **options))
    group_class([grade])  # its bug's name and the known bugs it looks like, as grade says
    return grade
