"""What `grade` says in text: a report per submission, the class's summary with its bugs, and
the text of one check for a course platform. Text a submission chose (its name, output,
messages, answers) is data: on one line, escaped (`one_line`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence

from minimax_lab.compare.grader.findings.groups import groups_report
from minimax_lab.compare.grader.interfaces.interface import UNDEFINED_CATEGORIES
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.results_json import load_status
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.results import CheckResult, Finding, SubmissionGrade, WrongCall
from minimax_lab.compare.judge.scores import CheckScore, Score
from minimax_lab.compare.judge.truth import policy_words
from minimax_lab.logic.quote import escaped, one_line
from minimax_lab.logic.state import draw_board, mark

SHOWN = 5
"""Findings listed per check and category in a submission's report."""


class Lab(str):
    """A line of the lab's own text (its clause), printed as it is: not data to escape."""


def text_of(lines: Sequence[str]) -> str:
    """Lines of a report as text: each on one line, escaped (`one_line`), but the lab's own
    (`Lab`), printed as Prolog prints them (only what a terminal would act on escaped)."""
    return "".join((escaped(line) if isinstance(line, Lab) else one_line(line)) + "\n"
                   for line in lines)


def summary_line(grade: SubmissionGrade) -> str:
    """`name: load ok; terminal_state 17066/17066, max_value 12872/12872, ... (95.1 s)`."""
    unasked = Category.NOT_ASKED
    parts = [f"{check} {result.correct}/{result.checked}"
             + (f" ({result.counts[unasked]} not asked)" if result.counts[unasked] else "")
             for check, result in grade.checks.items()]
    verdict = verdict_words(grade)
    return one_line(f"{grade.name}: load {load_status(grade)}; "
                    f"{', '.join(parts) or 'nothing checked'}; {verdict}{_points(grade)} "
                    f"({grade.seconds:.1f} s)")


def progress_line(grade: SubmissionGrade) -> str:
    """`ada: all right; score 100/100 (201.4 s)`: a submission as it is graded, on one line."""
    return one_line(f"{grade.name}: {verdict_words(grade)}{_points(grade)} "
                    f"({grade.seconds:.1f} s)")


def verdict_words(grade: SubmissionGrade) -> str:
    """`all right`, `faults found` (wrong answers), `answers right; loading had problems`, or
    `right as far as asked` (some questions not asked)."""
    if grade.clean:
        return "all right"
    if any(result.correct < result.checked for result in grade.checks.values()):
        return "faults found"
    if not grade.load.ok:
        return ("loading failed" if grade.load.problem is not None
                else "answers right; loading had problems")
    return "right as far as asked"


def points(value: float) -> str:
    """A score as people write it: `87.5`, `100`."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _points(grade: SubmissionGrade) -> str:
    score = grade.score
    if score is None:
        return ""
    unasked = f" ({points(score.unasked_points)} points not asked)" if score.unasked else ""
    return f"; score {points(score.score)}/{points(score.max_score)}{unasked}"


def unasked_words(score: Score | None) -> list[str]:
    """`not asked in this grading, so out of the maximum: max_value (15 points), ...`, or
    nothing: the checks of the assignment a run left out (`--predicates`)."""
    if score is None or not score.unasked:
        return []
    return ["not asked in this grading, so out of the maximum: " + ", ".join(
        f"{check.check} ({points(check.max_score)} points)" for check in score.unasked)]


def submission_report(grade: SubmissionGrade) -> str:
    """One submission's report: loading, each check's counts and first findings, the
    problems reported once per kind, and the answers on backtracking."""
    lines = [f"== {grade.name} ==", *load_report(grade)]
    if grade.score is not None:
        lines.append(f"score: {points(grade.score.score)} of {points(grade.score.max_score)}")
    lines += unasked_words(grade.score)
    lines += bug_report(grade)
    lines += problems_report(grade)
    for check, result in grade.checks.items():
        lines += ["", *check_report(check, result, grade)]
    if grade.log:
        said = (f"{grade.printed} questions printed something" if grade.printed
                else "loading printed something")
        lines += ["", f"output: {said}" + (OUTPUT_APART if grade.for_students else
                                           f"; --reports DIR keeps it in "
                                           f"DIR/{report_stem(grade)}.log")]
    return text_of(lines)


def load_report(grade: SubmissionGrade) -> list[str]:
    """How the submission loaded: its containment (not in a student view), ok or not, the
    messages, what was not checked and why."""
    students = grade.for_students
    lines = [] if students else [f"containment: {grade.load.containment or 'none'}"]
    if grade.policy is not None:
        lines.append(f"policy: {policy_words(grade.policy, options=not students)}")
    if grade.judged in JUDGED_WORDS:
        said = JUDGED_WORDS[grade.judged]
        if grade.judged != "whole" and not any(result.end_to_end
                                                for result in grade.checks.values()):
            said = said[:said.index("), and the whole") + 1]  # no sample was asked
            said += PLAY_WORDS if PLAY in grade.checks else ""
        lines.append(f"judged: {said.replace(WHOLE_OPTION, '') if students else said}")
    if grade.load.problem is not None:
        lines.append(f"load: FAILED: {grade.load.problem}")
    else:
        lines.append("load: ok" if grade.load.ok else "load: with problems")
    for message in grade.load.messages:  # SWI-Prolog's messages go on over indented lines
        heading, text = message.said()
        first, *rest = text.splitlines() or [""]  # (a file's name stays on its line)
        lines += [f"  {heading}: {first}", *(f"    {line.strip()}" for line in rest)]
    lines += [f"  note: {note}" for note in grade.load.notes]
    return lines + [f"  not checked: {reason}" for reason in grade.not_checked]


OUTPUT_APART = " (kept apart from this report)"
"""Where a student view's report says the program's output is."""
WHOLE_OPTION = "; --judged whole asks the whole program"
"""The option `judged:` names for the teacher, not in a student view."""
JUDGED_WORDS = {
    "clauses": "on its own clauses (each question's calls on the successors of its board got "
               f"the lab's answers{WHOLE_OPTION}), and the whole "
               "program end to end on a sample (the lab's cases, boards of each number of "
               "blanks)",
    "whole": "the whole program, every call below a question answered by its own code",
    "functions": "on its own functions (each question's calls to the recursive functions its "
                 "mapping names, on the successors of its board, got the lab's answers"
                 f"{WHOLE_OPTION}), and the whole program end to end on "
                 "a sample (the lab's cases, boards of each number of blanks), asked first",
}
"""What `judged:` says of a grade's mode: a Prolog program's (`clauses`, `whole`), or a
Python program's whose mapping names its recursive functions (`functions`, `whole`)."""
PLAY_WORDS = (", and the whole program, in a process never given a lab answer, played every "
              "game it can be asked from the empty board and from the lab's cases, asked first")
"""How the whole program was judged where the play check stands for the end-to-end sample."""


def wrong_call_report(wrong: WrongCall) -> list[str]:
    """Where the smallest wrong answer goes wrong: the first wrong call with its board, the
    calls below it (all right), the lab's clause to read beside it (for Prolog)."""
    call = wrong.call
    if call.position is None and not call.detail:  # a student view that names only where
        return [f"  first wrong call: in {call.asked}"]
    lines = [f"  first wrong call: {call.asked}: {call.detail}", *drawn(call)]
    if wrong.below:
        lines.append("    the calls it makes below are right:")
        lines += [f"      {below.asked}: {below.detail}" for below in wrong.below]
    else:
        lines.append("    it makes no call below that the grader asks")
    if not wrong.concluded:
        lines.append(f"    (the walk did not conclude: {wrong.why}; the fault may lie deeper)")
    else:
        lines.append("    so it goes wrong there itself"
                     + ("; the lab's clause:" if wrong.clause else ""))
    lines += [Lab(f"      {line}") for line in wrong.clause.split("\n") if line]
    return lines


def check_text(grade: SubmissionGrade, check: str) -> str:
    """One check's part of the report, as text for a course platform: its lines, or why it
    was not graded."""
    result = grade.checks.get(check)
    if result is not None:
        lines = check_report(check, result, grade)
    else:
        lines = [f"-- {check}: not checked",
                 *(f"  {reason}" for reason in grade.not_checked if reason.startswith(check)),
                 *([f"  load: FAILED: {grade.load.problem}"] if grade.load.problem else [])]
    return text_of(lines)


def bug_report(grade: SubmissionGrade) -> list[str]:
    """The submission's bug (the fingerprint of its wrong answers, shared with the others of
    its group), the known bugs it looks like and the teacher's explanation of it."""
    if grade.bug is None:
        return []
    return [f"bug: {grade.bug}",
            *(f"this looks like {hypothesis} (a guess from which answers are wrong)"
              for hypothesis in grade.hypotheses),
            *(f"feedback: {line}" for line in grade.feedback.splitlines())]


def problems_report(grade: SubmissionGrade) -> list[str]:
    """The problems reported once per kind, with how often and where first."""
    return [f"problem: {problem.message}" + (
        f" ({problem.count} times, first in {problem.first})" if problem.count > 1 else "")
        for problem in grade.problems]


def points_words(earned: CheckScore) -> str:
    """`; 9.83 of 10 points`, and where some but not all are right and one constant answer
    gets some right, that the points count only what is right above it."""
    said = f"; {points(earned.score)} of {points(earned.max_score)} points"
    if earned.constant and 0 < earned.right < earned.questions:
        said += (f" (points count the right answers above {earned.constant}, as many as one "
                 "constant answer gets right)")
    return said


def check_report(check: str, result: CheckResult, grade: SubmissionGrade) -> list[str]:
    """One check's lines of a report: right of checked (and its points), each category's
    count, the notes, and the first findings of each category, the first drawn."""
    earned = grade.score.of(check) if grade.score is not None else None
    lines = [f"-- {check}: {result.correct} of {result.checked} right"
             + (points_words(earned) if earned else "")]
    if result.end_to_end:
        lines.append(f"  end to end: {result.end_to_end_right} of {result.end_to_end} right "
                     "(the sample asked of the whole program)")
    if result.decisions:
        lines.append(decisions_words(result))
    if result.first_wrong is not None:
        lines += wrong_call_report(result.first_wrong)
        elsewhere = (result.first_wrong.call.asked or check).split("(", 1)[0]
        if elsewhere != check:
            lines.append(elsewhere_words(check, elsewhere, result))
    asked = sum(result.counts.values())
    for category, count in result.counts.most_common():
        if category != Category.RIGHT:
            on_finished = (result.finished[category]
                           if category is not Category.NOT_ASKED else 0)
            lines.append(f"  {category}: {count} of {asked}" + (
                f", on {on_finished} of the {result.finished['']} finished boards asked"
                if on_finished else "") + (
                f", {result.unasked}" if category is Category.NOT_ASKED and result.unasked
                and grade.load.problem is None else ""))  # else the load's line says why
    for note, count in result.notes.items():
        said = f"on backtracking, {note}" if note.on_backtracking else note
        lines.append(f"  ({said}: {count} questions)")
    order = [category for category, _ in result.counts.most_common()]
    findings = sorted(result.findings, key=lambda found: order.index(found.category))
    shown: Counter[Category] = Counter()
    for finding in findings:
        if finding.category in UNDEFINED_CATEGORIES:  # said once, as a problem
            continue
        shown[finding.category] += 1
        if shown[finding.category] > SHOWN:
            continue
        lines.append(f"  {finding.category}: {finding.asked}: {finding.detail}")
        if shown[finding.category] == 1:  # the first of each category drawn
            lines += drawn(finding)
    return lines


def elsewhere_words(check: str, elsewhere: str, result: CheckResult) -> str:
    """Why `check` lost points for a bug its first wrong call found in `elsewhere`, a
    predicate it calls (`max_value` answers on a finished board by `terminal_state`)."""
    faults = [category for category in result.counts if category.kind is Kind.FAULT]
    if faults and all(result.finished[category] == result.counts[category]
                      for category in faults):
        return (f"    (every wrong answer of {check} is on a finished board, where it answers "
                f"by calling {elsewhere}: its points are taken for {elsewhere}'s bug, where its "
                "first wrong call is)")
    return (f"    ({check} calls {elsewhere}, where its first wrong call is: some of its wrong "
            f"answers may come from {elsewhere}'s bug)")


def decisions_words(result: CheckResult) -> str:
    """The play check's decisions: how many boards it decided, and how each was judged (as
    the interface's move is: Prolog's `minimax_decision`, CS50's `minimax`)."""
    decided = sum(count for category, count in result.decisions.items()
                  if category.kind is not Kind.UNASKED)
    wrong = ", ".join(f"{category}: {count}" for category, count in
                      result.decisions.most_common() if category.kind is Kind.FAULT)
    return (f"  games played against every reply, on {decided} boards decided by the whole "
            f"program ({result.decisions[Category.RIGHT]} right"
            + (f"; {wrong})" if wrong else ")"))


GAME_BOARDS = 5
"""Boards of a game drawn on one row of a report."""


def drawn(finding: Finding) -> list[str]:
    """The board a finding is about, drawn and indented (nothing if it names none); a game's
    boards move by move, a row of boards at a time."""
    if finding.position is None:
        return []
    if not finding.moves:
        return ["      " + row for row in draw_board(finding.position[0]).splitlines()]
    state, lines = finding.position[0], []
    states = []
    for mover, cell in finding.moves:
        state = mark(state, cell, mover)
        states.append((f"{mover} {cell}", state))
    for at in range(0, len(states), GAME_BOARDS):
        row = states[at:at + GAME_BOARDS]
        lines.append("      " + "".join(f"{said:<14}" for said, _ in row).rstrip())
        drawings = [draw_board(after).splitlines() for _, after in row]
        lines += ["      " + "".join(f"{drawing[line]:<14}" for drawing in drawings).rstrip()
                  for line in range(len(drawings[0]))]
    return lines


STEM_BYTES = 100
"""Bytes of a report's file name taken from the submission's name; a longer name is cut and
marked with a hash of the whole, so that no name is too long for a file system."""


def report_stem(grade: SubmissionGrade) -> str:
    """The name of a submission's files in `--reports DIR`: its name, on one line, cut to
    `STEM_BYTES` (with a hash of the whole) when longer."""
    stem = one_line(grade.name).replace("/", "_")
    if len(stem.encode()) <= STEM_BYTES and stem not in ("", ".", ".."):
        return stem
    digest = hashlib.sha256(grade.name.encode()).hexdigest()[:12]
    cut = stem.encode()[:STEM_BYTES - 13].decode("utf-8", errors="ignore")
    return f"{cut}-{digest}"


def output_log(grade: SubmissionGrade) -> str:
    """What the submission printed, escaped (`NAME.log` in `--reports DIR`)."""
    return escaped("\n".join(grade.log)) + "\n"


def class_summary(grades: Sequence[SubmissionGrade]) -> str:
    """The policy (for a class), one line per submission, then how many are right
    everywhere."""
    clean = sum(grade.clean for grade in grades)
    policies = {grade.policy for grade in grades if grade.policy is not None}
    head = (f"policy: {policy_words(policies.pop())}\n" if len(grades) > 1 and len(policies) == 1
            else "")
    return (head + "".join(summary_line(grade) + "\n" for grade in grades)
            + f"{clean} of {len(grades)} submissions right everywhere\n")


def summary(graded: Graded) -> str:
    """What `grade` prints: a lone submission's whole report, the class's summary, and, for a
    class, its bugs."""
    grades = graded.shown
    text = submission_report(grades[0]) + "\n" if len(grades) == 1 else ""
    text += class_summary(grades)
    if len(grades) > 1:
        text += text_of(groups_report(graded.shown_groups))
    return text


def merged_summary(graded: Graded, parts: int) -> str:
    """What `gradebook merge` prints: the parts, how many submissions are right everywhere,
    and the class's bugs."""
    clean = sum(grade.clean for grade in graded.grades)
    total = len(graded.grades)
    return (f"{parts} parts, {total} submissions; {clean} of {total} submissions right "
            f"everywhere\n" + text_of(groups_report(graded.groups)))
