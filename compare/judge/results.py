"""What judging gives: a verdict on one question, a finding placed at its position, the
result of one check (a predicate or a function) over every question asked of it, and one
submission's results.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.scores import Score
from minimax_lab.compare.judge.truth import Answer, Judgement, Policy
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.engines import Turn
from minimax_lab.logic.terms import Decision

KEEP_FINDINGS = 50
"""Findings a check keeps per category for the reports of `grade` (all are counted)."""


@dataclass(frozen=True)
class Verdict:
    """The judgement of one question: its category, why (in the submission's notation), and
    notes (answers on backtracking, tie breaks, answers that differ when asked again)."""

    category: Category
    detail: str = ""
    notes: tuple[Category, ...] = ()
    judgement: Judgement | None = None
    """The move judged, where the answer is a move: what it marks, the reference's values."""
    cell: int | None = None
    """The cell the answer's move marks, where it keeps a successor (`max_value`'s sv)."""
    lab: str = ""
    """The end of `detail` that tells the lab's answer (`; the value is 1`): a student view
    leaves it out below the hint level `expected`."""

    @property
    def right(self) -> bool:
        return self.category is Category.RIGHT


def told(category: Category, said: str, lab: str, judgement: Judgement | None = None
         ) -> Verdict:
    """A verdict whose detail is what the program answered (`said`), then what the lab's
    answer is (`lab`), kept apart for a student view."""
    return Verdict(category, said + lab, judgement=judgement, lab=lab)


@dataclass(frozen=True)
class Finding:
    """One thing to report: its category, the position (if known), why, and where it was
    found: the question asked (`asked`, in the submission's notation) or a source's line."""

    category: Category
    position: Turn | None
    detail: str
    line: int | None = None
    answer: Answer | None = None
    expected: Decision | None = None
    move_values: dict[int, int] | None = None
    asked: str | None = None
    moves: tuple[tuple[str, int], ...] = ()
    """A game's moves from its position, each a mark and a cell (the play check's)."""
    lab: str | None = ""
    """The end of `detail` that tells the lab's answer (None: not known, as in a JSON written
    before it was kept apart)."""


@dataclass(frozen=True)
class WrongCall:
    """Where a wrong answer goes wrong in the program's own recursion: the first call found
    wrong while every call its clause makes below it is right (`below`, each a finding of
    category right whose detail is the answer), found with the reference as the oracle in
    `asked` questions; `concluded` is False, with `why`, when the walk stopped short."""

    call: Finding
    below: tuple[Finding, ...]
    asked: int
    concluded: bool = True
    why: str = ""
    clause: str = ""
    """The lab's own clause for the call's predicate, to read beside it."""
    checks: tuple[str, ...] | None = None
    """The checks whose calls the walk asked, in the order first asked (None: not known, as
    in a JSON written before it was kept); a student view shows the walk only when all of
    them may be seen."""
    work: float = 0.0
    """The work its questions took, counted in its check's work too."""


@dataclass
class CheckResult:
    """One check's questions (a predicate or a function; a source's decisions): how many were
    checked and right, by category, the notes, the findings (the first `keep` of each
    category, or all) and the faults found besides the questions."""

    checked: int = 0
    correct: int = 0
    counts: Counter[Category] = field(default_factory=Counter)
    notes: Counter[Category] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    finished: Counter[Category | str] = field(default_factory=Counter)
    """The categories of the questions on finished boards, and (under "") how many of them
    were asked."""
    keep: int | None = field(default=KEEP_FINDINGS, compare=False)
    """How many findings of each category it keeps (None: all): how it counts, not what."""
    work: float = 0.0
    """The work its questions took (inferences, CPU seconds)."""
    first_wrong: WrongCall | None = None
    """Where its smallest wrong answer goes wrong in the program's recursion, if walked."""
    wrong: int = 0
    """Which of its questions, in the order asked, were answered wrong: bit i, the i-th."""
    base: float = 0.0
    """The share of its questions one constant answer gets right (`compare.grader.checks`):
    only what is right above it earns points."""
    end_to_end: int = 0
    end_to_end_right: int = 0
    """Of the questions checked, those of the end-to-end sample of a grade judged on its own
    clauses (the whole program asked), and how many of them were right."""
    decisions: Counter[Category] = field(default_factory=Counter)
    """The play check's: its decisions (each board and player once) by category, judged as
    `minimax_decision`'s answers are; its questions are the games played."""
    unasked: str = ""
    """Why its first question left unasked was not asked, from which question on."""

    def judged(self, category: Category, notes: tuple[Category, ...] = (),
               finding: Finding | None = None, finished: bool = False) -> None:
        """Count one question's judgement and its notes; keep its finding (a wrong answer's)
        if it is among the first of its category, and mark a fault in `wrong`."""
        kind = category.kind
        if kind is Kind.FAULT:
            self.wrong |= 1 << sum(self.counts.values())
        self.counts[category] += 1
        if finished:
            self.finished[""] += kind is not Kind.UNASKED
            self.finished[category] += 1
        if notes:
            self.notes.update(notes)
        if kind is Kind.UNASKED:
            if finding is not None and not self.unasked:
                self.unasked = f"from {finding.asked} on: {finding.detail}"
            return
        self.checked += 1
        if category is Category.RIGHT:
            self.correct += 1
        elif finding is not None and (self.keep is None or self.counts[category] <= self.keep):
            self.findings.append(finding)

    def add(self, position: Turn, asked: str, verdict: Verdict, finished: bool) -> None:
        """Count a question's verdict; a wrong one is a finding at `position`, `asked` as the
        submission was asked."""
        finding = None if verdict.right else Finding(verdict.category, position,
                                                     verdict.detail, asked=asked,
                                                     lab=verdict.lab)
        self.judged(verdict.category, verdict.notes, finding, finished)

    def fault(self, finding: Finding) -> None:
        """Count and keep a fault found besides the questions (a source's row that is
        missing, duplicated or unreadable)."""
        self.counts[finding.category] += 1
        self.findings.append(finding)


@dataclass(frozen=True)
class Problem:
    """A fault reported once per kind: an exception or an undefined check, how often."""

    kind: str
    message: str
    first: str
    count: int = 1


@dataclass
class SubmissionGrade:
    """Everything found in one submission: how it loaded, each check's result, the problems,
    what it printed (`log`, and how many questions printed), the checks left out, and its
    score under the class's assignment."""

    name: str
    load: LoadReport
    checks: dict[str, CheckResult] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    printed: int = 0
    seconds: float = 0.0
    not_checked: list[str] = field(default_factory=list)
    score: Score | None = None
    bug: str | None = None
    """Its bug: the fingerprint of its wrong answers, shared by its group (`grader.groups`)."""
    feedback: str = ""
    """The teacher's explanation of its group's bug (`grade --feedback`)."""
    hypotheses: tuple[str, ...] = ()
    """The known bugs its wrong answers look like (`grader.signatures`): guesses, not verdicts."""
    policy: Policy | None = None
    """The policy it was graded under (the tie rule, whether values count)."""
    judged: str = ""
    """How its questions were judged, for Prolog (for a Python program whose mapping names
    its recursive functions, `functions` for `clauses`): `clauses` (each on the program's own
    clauses, the calls below answered as the lab does, and a sample end to end) or `whole`."""
    for_students: bool = False
    """True for a student view (`compare.grader.students`): its text names no option and
    says nothing of how the grader contains a program."""

    @property
    def faulty(self) -> bool:
        """True when loading had problems or a question asked was answered wrong."""
        return not self.load.ok or any(
            result.correct < result.checked for result in self.checks.values()
        )

    @property
    def clean(self) -> bool:
        """True when it loaded cleanly and every question asked was answered right."""
        return self.load.ok and all(
            result.correct == result.checked and not result.counts[Category.NOT_ASKED]
            for result in self.checks.values()
        )
