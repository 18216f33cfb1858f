"""A class's bugs, grouped so that a teacher explains each once: two submissions share a bug
when they answer the probe questions (`compare.grader.interfaces.probes`) alike, wrong on the same
ones or as the same known bug; groups whose wrong answers are mostly the same are related, never
merged; a feedback file gives each group the teacher's explanation (docs/grading-reference.md, "Bugs
grouped").
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from minimax_lab.compare.grader.findings.signatures import SIGNATURES, Answered
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.probes import key
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.results import SubmissionGrade, Verdict
from minimax_lab.compare.judge.truth import Policy
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted

RELATED = 0.8
"""The share of wrong answers two groups have in common (of all either has), at least, to be
listed as related."""


class FeedbackError(LabError, ValueError):
    """A feedback file that cannot be read."""


@dataclass(frozen=True)
class Group:
    """Submissions with one bug: its fingerprint, its members (by name), the wrong answers per
    check, the related groups and the teacher's explanation."""

    fingerprint: str
    members: tuple[str, ...]
    wrong: dict[str, int]
    related: tuple[str, ...] = ()
    feedback: str = ""
    first_wrong: tuple[str, ...] = ()
    """The first wrong calls its first member's walks found, shared by the group."""
    hypotheses: tuple[str, ...] = ()
    """The known bugs its wrong answers look like."""


MACHINE = frozenset({Category.CPU_LIMIT, Category.TIME_LIMIT, Category.DIED})
"""Faults of the machine and the moment (a limit of time, a process that died) as much as of
the program: they name no bug."""
UNDEFINED = frozenset({Category.UNDEFINED, Category.UNDEFINED_FUNCTION})
"""A check the program does not define: its questions are never asked, and it names the bug."""


def fingerprint(grade: SubmissionGrade, answered: Answered,
                probed: Collection[object]) -> str | None:
    """`bug-` and 8 hex digits naming the submission's wrong answers to the probe questions
    `probed` (of its questions `answered`, each with its verdict): the known bugs whose models
    fit those answers, and the wrong ones of the checks no such model covers; the same on
    every machine, in every run, whatever else was asked. Where no probe is answered wrong,
    every wrong answer names it. None for a submission with no wrong answer (or one that did
    not load); the play check's games count for none."""
    if grade.load.problem is not None:
        return None
    asked = {check: [(question, verdict) for question, verdict in pairs if question in probed]
             for check, pairs in answered.items() if check != PLAY}
    said: list[str] = []
    covered: set[str] = set()
    for signature in SIGNATURES:
        fit = signature.fit(asked, grade.policy or Policy())
        if fit is not None and fit.holds:
            said.append(f"known bug: {signature.name}")
            covered.update(fit.checks)
    said += [key(question) for check, pairs in asked.items() if check not in covered
             for question, verdict in pairs if _wrong(verdict)]
    said += [f"{check}: undefined" for check, result in grade.checks.items()
             if check != PLAY and check not in answered
             and any(result.counts[category] for category in UNDEFINED)]
    if said:
        return _named(said)
    wrong = [key(question) for check, pairs in answered.items() if check != PLAY
             for question, verdict in pairs if _wrong(verdict)]
    return _named(["beyond the probes", *wrong]) if wrong else None


def _named(said: list[str]) -> str:
    return "bug-" + hashlib.sha256("\n".join(sorted(said)).encode()).hexdigest()[:8]


def _wrong(verdict: Verdict) -> bool:
    return verdict.category.kind is Kind.FAULT and verdict.category not in MACHINE


def group_class(grades: Sequence[SubmissionGrade],
                feedback: dict[str, str] | None = None) -> list[Group]:
    """The class's bugs (each grade's `bug`, named when it was graded), the most common
    first; each grade's `feedback` set."""
    feedback = feedback or {}
    members: dict[str, list[SubmissionGrade]] = {}
    for grade in grades:
        if grade.bug is not None:
            members.setdefault(grade.bug, []).append(grade)
            grade.feedback = feedback.get(grade.bug, "")
    masks = {bug: _union(group[0]) for bug, group in members.items()}
    groups = [
        Group(bug, tuple(grade.name for grade in group),
              {check: result.wrong.bit_count() for check, result in group[0].checks.items()
               if result.wrong},
              tuple(other for other in members if other != bug
                    and _overlap(masks[bug], masks[other]) >= RELATED),
              feedback.get(bug, ""),
              tuple(f"{result.first_wrong.call.asked}" for result in group[0].checks.values()
                    if result.first_wrong is not None),
              group[0].hypotheses)
        for bug, group in members.items()
    ]
    return sorted(groups, key=lambda group: (-len(group.members), group.fingerprint))


def _union(grade: SubmissionGrade) -> dict[str, int]:
    return {check: result.wrong for check, result in grade.checks.items() if result.wrong}


def _overlap(one: dict[str, int], other: dict[str, int]) -> float:
    both = sum((one.get(check, 0) & other.get(check, 0)).bit_count()
               for check in one.keys() | other.keys())
    either = sum((one.get(check, 0) | other.get(check, 0)).bit_count()
                 for check in one.keys() | other.keys())
    return both / either if either else 0.0


def read_feedback(path: str) -> dict[str, str]:
    """The teacher's explanations, from a TOML file of `bug-... = "text"` lines."""
    try:
        table = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise FeedbackError(f"cannot read the feedback {quoted(path)}: "
                            f"{error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise FeedbackError(f"feedback {quoted(path)} is not TOML: {error}") from None
    bad = [key for key, value in table.items() if not isinstance(value, str)]
    if bad:
        raise FeedbackError(f"feedback {quoted(path)}: {quoted(bad[0])} must be text: "
                            f'{bad[0]} = "what the bug is, and how to fix it"')
    return table


def groups_report(groups: Sequence[Group]) -> list[str]:
    """One section per bug: how many students, who, what is wrong, the related bugs, and the
    teacher's explanation (or where to write it)."""
    if not groups:
        return []
    lines = ["", f"== bugs: {len(groups)} ==",
             "(each group answers the probe questions alike; --feedback FILE explains one to "
             "all its members)"]
    for group in groups:
        wrong = ", ".join(f"{check} wrong on {count}" for check, count in group.wrong.items())
        lines += ["", f"-- {group.fingerprint}: {len(group.members)} of the class: "
                  + ", ".join(group.members), f"  {wrong}"]
        lines += [f"  first wrong call: {call}" for call in dict.fromkeys(group.first_wrong)]
        lines += [f"  this looks like {hypothesis}" for hypothesis in group.hypotheses]
        if group.related:
            lines.append(f"  related (most of the same wrong answers): {', '.join(group.related)}")
        lines.append(f"  feedback: {group.feedback}" if group.feedback
                     else f'  feedback: none yet ({group.fingerprint} = "..." in --feedback FILE)')
    return lines
