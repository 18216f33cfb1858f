"""What judging gives, the result model: a verdict on one question, a finding placed at its
position, the result of one check (a predicate or a function) over every question asked of it,
and one submission's results. What `grade --json` writes of each field is declared on the
field (`logic.json_fields`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.scores import CheckScore, Score
from minimax_lab.compare.judge.truth import Answer, Judgement, Policy
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.engines import Turn
from minimax_lab.logic.json_fields import DEFAULT, NOT_CARRIED, from_json, key, to_json
from minimax_lab.logic.terms import Decision
from minimax_lab.logic.tools.beside import Call

KEEP_FINDINGS = 50
"""Findings a check keeps per category for the reports of `grade` (all are counted)."""
CATEGORIES = {category.key: category for category in Category}
"""Each category by its JSON key."""
BACKTRACKING = tuple(category for category in Category if category.on_backtracking)
"""The notes on answers a Prolog goal gives on backtracking, always counted in the JSON."""
FINISHED = "boards"
"""The key, among a check's counts on finished boards, of how many were asked."""


# --- how the fields below are written in JSON (`grade --json`, docs/grading.md) -----------

def _counts(counted: Counter[Category]) -> dict[str, int]:
    return {category.key: count for category, count in counted.items()}


def _read_counts(data: dict[str, int]) -> Counter[Category]:
    return Counter({CATEGORIES[name]: count for name, count in data.items()})


COUNTS = key(encode=_counts, decode=_read_counts)
"""Counts by category, each under its key."""
CATEGORY = key(encode=lambda category: category.key, decode=lambda name: CATEGORIES[name])
"""A category, as its key."""


def _position(position: Turn | None) -> dict[str, str | None]:
    state, player = position if position is not None else (None, None)
    return {"state": state, "player": player}


def _read_position(data: dict[str, Any]) -> Turn | None:
    return None if data["state"] is None else (data["state"], data["player"])


POSITION = key(spread=True, encode=_position, decode=_read_position)
"""A position, as its `state` and `player` (both null when not known)."""


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

    category: Category = field(metadata=CATEGORY)
    position: Turn | None = field(metadata=POSITION)
    detail: str
    line: int | None = field(default=None, metadata=NOT_CARRIED)
    answer: Answer | None = field(default=None, metadata=NOT_CARRIED)
    expected: Decision | None = field(default=None, metadata=NOT_CARRIED)
    move_values: dict[int, int] | None = field(default=None, metadata=NOT_CARRIED)
    asked: str | None = None
    moves: tuple[tuple[str, int], ...] = field(default=(), metadata=key(
        omit=lambda moves: not moves, absent=DEFAULT))
    """A game's moves from its position, each a mark and a cell (the play check's)."""
    lab: str | None = field(default="", metadata=key(omit=lambda lab: lab is None,
                                                     absent=None))
    """The end of `detail` that tells the lab's answer (None: not known, as in a JSON written
    before it was kept apart)."""


def _call(finding: Finding) -> dict[str, Any]:
    """A call of the walk to a wrong answer as JSON: the finding, its question as `call`."""
    written: dict[str, Any] = to_json(finding)
    written["call"] = written.pop("asked")
    return written


def _read_call(data: dict[str, Any], category: Category | None = None) -> Finding:
    return from_json(Finding, {**data, "asked": data["call"]},
                     **({} if category is None else {"category": category}))


def _below(below: tuple[Finding, ...]) -> list[dict[str, Any]]:
    return [{name: item for name, item in _call(call).items() if name != "category"}
            for call in below]


def _read_below(data: list[dict[str, Any]]) -> tuple[Finding, ...]:
    return tuple(_read_call(call, Category.RIGHT) for call in data)


@dataclass(frozen=True)
class WrongCall:
    """Where a wrong answer goes wrong in the program's own recursion: the first call found
    wrong while every call its clause makes below it is right (`below`, each a finding of
    category right whose detail is the answer), found with the reference as the oracle in
    `asked` questions; `concluded` is False, with `why`, when the walk stopped short."""

    call: Finding = field(metadata=key(spread=True, encode=_call, decode=_read_call))
    below: tuple[Finding, ...] = field(metadata=key(encode=_below, decode=_read_below))
    asked: int = field(metadata=key("questions"))
    concluded: bool = True
    why: str = ""
    clause: str = ""
    """The lab's own clause for the call's predicate, to read beside it."""
    checks: tuple[str, ...] | None = field(default=None, metadata=key(
        omit=lambda checks: checks is None, absent=DEFAULT))
    """The checks whose calls the walk asked, in the order first asked (None: not known, as
    in a JSON written before it was kept); a student view shows the walk only when all of
    them may be seen."""
    work: float = field(default=0.0, metadata=key(absent=DEFAULT))
    """The work its questions took, counted in its check's work too."""
    searches: tuple[Call, Call] | None = field(default=None, metadata=NOT_CARRIED)
    """The program's search at the call and the lab's, to draw side by side
    (`logic.tools.beside`); None where not drawn (a student view below `expected`)."""


@dataclass
class CheckResult:
    """One check's questions (a predicate or a function; a source's decisions): how many were
    checked and right, by category, the notes, the findings (the first `keep` of each
    category, or all) and the faults found besides the questions."""

    checked: int = 0
    correct: int = 0
    counts: Counter[Category] = field(default_factory=Counter, metadata=COUNTS)
    notes: Counter[Category] = field(default_factory=Counter, metadata=COUNTS)
    findings: list[Finding] = field(default_factory=list)
    finished: Counter[Category | str] = field(default_factory=Counter, metadata=key(
        encode=lambda finished: {FINISHED if category == "" else Category(category).key: count
                                 for category, count in finished.items()},
        decode=lambda data: Counter({"" if name == FINISHED else CATEGORIES[name]: count
                                     for name, count in data.items()})))
    """The categories of the questions on finished boards, and (under "") how many of them
    were asked (under `boards` in JSON)."""
    keep: int | None = field(default=KEEP_FINDINGS, compare=False, metadata=NOT_CARRIED)
    """How many findings of each category it keeps (None: all): how it counts, not what."""
    work: float = 0.0
    """The work its questions took (inferences, CPU seconds)."""
    first_wrong: WrongCall | None = field(default=None, metadata=key(
        "first_wrong_call", omit=lambda wrong: wrong is None, absent=DEFAULT))
    """Where its smallest wrong answer goes wrong in the program's recursion, if walked."""
    wrong: int = field(default=0, metadata=key(encode=lambda wrong: f"{wrong:x}",
                                               decode=lambda bits: int(bits, 16)))
    """Which of its questions, in the order asked, were answered wrong: bit i, the i-th."""
    base: float = 0.0
    """The share of its questions one constant answer gets right (`compare.grader.checks`):
    only what is right above it earns points."""
    end_to_end: int = field(default=0, metadata=key("end_to_end.checked", absent=DEFAULT))
    end_to_end_right: int = field(default=0, metadata=key("end_to_end.correct",
                                                          absent=DEFAULT))
    """Of the questions checked, those of the end-to-end sample of a grade judged on its own
    clauses (the whole program asked), and how many of them were right."""
    decisions: Counter[Category] = field(default_factory=Counter, metadata=key(
        encode=_counts, decode=_read_counts, absent=DEFAULT))
    """The play check's: its decisions (each board and player once) by category, judged as
    `minimax_decision`'s answers are; its questions are the games played."""
    unasked: str = field(default="", metadata=key(omit=lambda why: not why, absent=DEFAULT))
    """Why its first question left unasked was not asked, from which question on."""

    def json_derived(self, written: dict[str, Any]) -> None:
        """Its JSON's notes on backtracking, each counted even when none was found."""
        written["backtracking"] = {note.key: self.notes[note] for note in BACKTRACKING}

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


def _score(score: Score | None) -> dict[str, Any]:
    if score is None:
        return {}
    return {"score": score.score, "max_score": score.max_score,
            "scores": to_json((*score.checks, *score.unasked))}


def _read_score(data: dict[str, Any]) -> Score | None:
    if "scores" not in data:
        return None
    scores = [from_json(CheckScore, check) for check in data["scores"]]
    return Score(tuple(check for check in scores if check.asked),
                 tuple(check for check in scores if not check.asked))


@dataclass
class SubmissionGrade:
    """Everything found in one submission: how it loaded, each check's result, the problems,
    what it printed (`log`, and how many questions printed), the checks left out, and its
    score under the class's assignment."""

    name: str
    load: LoadReport
    checks: dict[str, CheckResult] = field(default_factory=dict, metadata=key("predicates"))
    problems: list[Problem] = field(default_factory=list)
    log: list[str] = field(default_factory=list, metadata=NOT_CARRIED)
    printed: int = 0
    seconds: float = field(default=0.0, metadata=key(encode=lambda seconds: round(seconds, 3)))
    not_checked: list[str] = field(default_factory=list)
    score: Score | None = field(default=None, metadata=key(
        spread=True, encode=_score, decode=_read_score))
    """Written as `score`, `max_score` and `scores`, each check's in order, those not asked
    last."""
    bug: str | None = None
    """Its bug: the fingerprint of its wrong answers, shared by its group (`grader.groups`)."""
    feedback: str = ""
    """The teacher's explanation of its group's bug (`grade --feedback`)."""
    hypotheses: tuple[str, ...] = ()
    """The known bugs its wrong answers look like (`grader.signatures`): guesses, not verdicts."""
    policy: Policy | None = field(default=None, metadata=NOT_CARRIED)
    """The policy it was graded under (the tie rule, whether values count): its class's."""
    judged: str = field(default="", metadata=key(absent=DEFAULT))
    """How its questions were judged, for Prolog (for a Python program whose mapping names
    its recursive functions, `functions` for `clauses`): `clauses` (each on the program's own
    clauses, the calls below answered as the lab does, and a sample end to end) or `whole`."""
    for_students: bool = field(default=False, metadata=NOT_CARRIED)
    """True for a student view (`compare.grader.outputs.students`): its text names no option and
    says nothing of how the grader contains a program."""

    def json_derived(self, written: dict[str, Any]) -> None:
        """What its JSON says besides its fields: whether it is clean, and each check's points
        beside its counts."""
        written["clean"] = self.clean
        for check, data in written["predicates"].items():
            earned = self.score.of(check) if self.score is not None else None
            if earned is not None:
                data.update(score=earned.score, max_score=earned.max_score)

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
