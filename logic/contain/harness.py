"""A student's Prolog program, loaded by the harness (`logic/prolog/harness.pl`) in a sandbox
(`logic.contain.sandbox`) and asked one question at a time.

The program is loaded into a module of its own under SWI-Prolog's sandbox (`library(sandbox)`,
as SWISH loads a user's program): a directive or a predicate that could reach the harness, the
files, threads or other modules is refused. Its own output never mixes with its answers: the
harness captures it and sends a little of it with each answer. A question that outlives its
limits, or a program that dies, costs that question only: the program is started afresh for
the next one, up to `MOST_STARTS` starts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Protocol, TypeGuard, TypeVar, cast, runtime_checkable

from minimax_lab.logic.contain import sandbox, submission
from minimax_lab.logic.contain.contained import (
    GRACE,
    ContainedProgram,
    Died,
    OverCpu,
    ProgramError,
    new_id,
    reply_field,
    text_or_none,
)
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport
from minimax_lab.logic.contain.reading import Late
from minimax_lab.logic.contain.swipl import SWIPL, require
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import State

HELPER = "minimax_helper.pl"
"""The file of the lab's helper predicates, by the name students load it under."""
PROLOG_SUFFIXES = (".pl", ".p", ".pro", ".prolog")
"""The file names a main file named by `--main` (or a mapping's `file`) may have."""
STACK_LIMIT = "512m"
"""SWI-Prolog's stack limit for a student's program: deeper recursion is a resource error."""


ENDS = ("exhausted", "more", "error", "inferences")
"""Why the harness stopped asking a question, as it writes it (time is guarded from here)."""
SLOWEST_LIPS = 1e6
"""Inferences a second of the slowest machine graded on: a question's guard of CPU time,
measured outside the program, is its inference limit at this speed."""
CPU_SLACK = 0.05
"""CPU seconds a question may take beyond its count of inferences at `SLOWEST_LIPS` (reading,
writing, the clock's tick) before its CPU time, not its count, is taken as its work."""

T = TypeVar("T")

__all__ = ["ProgramError"]  # its home is logic.contain.contained; kept here for its users


@dataclass(frozen=True)
class Proof:
    """One answer: the template's value as JSON (`logic/prolog/harness.pl`), and as Prolog;
    how many characters the program had written by then."""

    term: object
    text: str
    output_at: int = 0


@dataclass(frozen=True)
class Reply:
    """What a question got: its answers in order, and why the asking stopped."""

    answers: tuple[Proof, ...]
    # exhausted (no more answers), more (as many as asked for), error (an exception, in
    # `error`), inferences (the inference limit), cpu (the guard of CPU time, measured outside
    # the program), time (the wall-clock guard), or died (the program ended or was killed;
    # `error` says how)
    end: str
    error: str | None = None
    error_term: str | None = None
    output: str = ""
    output_chars: int = 0
    seconds: float = 0.0
    work: float = 0.0
    """The inferences the question took (its limit, when the program was stopped)."""
    counted: float = 0.0
    """The inferences the harness counted (`work` is more where the CPU time measured outside
    shows more than they could take)."""
    made: tuple[Made, ...] = ()
    """The calls the goal's predicate made directly below it, where they were recorded
    (`Ask.record`), in order."""
    made_terms: tuple[MadeTerms, ...] = ()
    """The same of the predicates an `Ask.recorded` names, each with its arguments."""


@dataclass(frozen=True)
class Made:
    """A call the program made below a recorded question: its predicate (one of the lab's
    recursive predicates), board and player, and the Prolog text of its first answer (None:
    none, it failed or raised)."""

    call: str
    state: State
    player: str
    answer: str | None


@dataclass(frozen=True)
class MadeTerms:
    """A call of a predicate an `Ask.recorded` names, made below a recorded question: its
    name, its arguments as JSON when it was made (as an answer's term), and the Prolog text of
    each after its first answer (None: none, it failed or raised)."""

    call: str
    args: tuple[object, ...]
    answer: tuple[str, ...] | None


def main_file(folder: Path, main: str | None = None, name: str = "the submission") -> Path:
    """The file to load of a submission's copy (handed in as `name`): `main` by name, else the
    one that defines `minimax_decision/4` (a backup or a copy beside it left out), else the
    only Prolog file (`PROLOG_SUFFIXES`); `ProgramError` if none can be told."""
    files = prolog_files(folder)
    if main is not None:
        named = [file for file in files
                 if file.name in (main, *(f"{main}{suffix}" for suffix in PROLOG_SUFFIXES))]
        if not named:
            raise ProgramError(f"no file {quoted(main)} in the submission")
        return named[0]
    own = [file for file in files if file.name != HELPER]
    defining = [file for file in own if _defines_decision(file)]
    if len(defining) > 1:
        defining = [file for file in defining if not submission.looks_like_backup(file)]
    if len(defining) == 1 or (defining and len(own) == 1):
        return defining[0]
    if len(own) == 1:
        return own[0]
    if not own:
        raise ProgramError(f"no Prolog ({', '.join(PROLOG_SUFFIXES)}) file in the submission"
                           + submission.class_hint(folder, "*.pl", name))
    several = ", ".join(str(file.relative_to(folder)) for file in defining[:3])
    raise ProgramError("cannot tell the main file ("
                       + (f"{several} define minimax_decision/4" if defining
                          else "none defines minimax_decision/4")
                       + "); name it with --main (or main = \"NAME\" in the assignment)"
                       + submission.class_hint(folder, "*.pl", name))


def backups_beside(folder: Path, main: Path) -> list[str]:
    """Notes for the files that define `minimax_decision/4` beside `main` and were left out
    as backups or copies."""
    return [f"{file.relative_to(folder)} looks like a backup or a copy: not loaded (--main "
            "NAME loads another file)"
            for file in prolog_files(folder)
            if file != main and submission.looks_like_backup(file) and _defines_decision(file)]


def prolog_files(folder: Path) -> list[Path]:
    """The Prolog files of a submission's copy (`PROLOG_SUFFIXES`), hidden ones left out."""
    return sorted(file for file in folder.rglob("*") if file.suffix in PROLOG_SUFFIXES
                  and not file.name.startswith(".") and file.is_file())


def _defines_decision(file: Path) -> bool:
    return ("minimax_decision", 4) in clause_heads(submission.read_prefix(file))


def clause_heads(text: str) -> list[tuple[str, int]]:
    """The name and arity of each clause's head in Prolog `text`, in order: a fact, or the term
    before a rule's `:-` (a grammar rule's `-->` adds two arguments); a directive, and a goal
    called in a body, define nothing. Layout, comments and quoted text are read as Prolog reads
    them; a clause that is no callable term is passed over."""
    heads = []
    for clause in _clauses(_tokens(text)):
        head = _head(clause)
        if head is not None:
            heads.append(head)
    return heads


def atom_names(text: str) -> list[str]:
    """The unquoted names in Prolog `text` that are atoms (not variables or numbers), in
    order, comments and quoted text left out."""
    return [text for kind, text, _ in _tokens(text)
            if kind == "name" and text[0].isalpha() and text[0].islower()]


def module_exports(text: str) -> tuple[str | None, list[tuple[str, int]]]:
    """The module Prolog `text` declares by `:- module(Name, [Name/Arity, ...])`, and what it
    exports; (None, []) for a file that is no module."""
    for clause in _clauses(_tokens(text)):
        words = [token[1] for token in clause]
        if words[:4] != [":-", "module", "(", words[3] if len(words) > 3 else ""] or len(
                words) < 6 or words[4] != "," or words[5] != "[":
            continue
        exports = [(words[at - 1], int(words[at + 1])) for at in range(6, len(words) - 1)
                   if words[at] == "/" and words[at + 1].isdigit()]
        return words[3], exports
    return None, []


_SYMBOL_CHARS = frozenset("+-*/\\^<>=~:.?@#&$")
_QUOTES = "'\"`"
_OPEN, _CLOSE = "([{", ")]}"
_Token = tuple[str, str, bool]
"""A token's kind (name, quoted, punct, symbol, end), its text (a quoted atom's text unquoted)
and whether layout or a comment came before it."""


def _tokens(text: str) -> Iterator[_Token]:
    """Prolog `text` as tokens; a clause's end is a `.` followed by layout, `%` or the end."""
    at, spaced = 0, True
    while at < len(text):
        char = text[at]
        if char.isspace() or char == "%" or text.startswith("/*", at):
            at, spaced = _after_layout(text, at), True
            continue
        if char in _QUOTES:
            end = _after_quoted(text, at)
            kind = "quoted" if char == "'" else "string"
            yield kind, text[at + 1:end - 1], spaced
        elif char.isdigit():
            end = _after_number(text, at)
            yield "name", text[at:end], spaced
        elif char.isalnum() or char == "_":
            end = at + 1
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            yield "name", text[at:end], spaced
        elif char in _SYMBOL_CHARS:
            end = at + 1
            while (end < len(text) and text[end] in _SYMBOL_CHARS
                   and not text.startswith("/*", end)):
                end += 1
            symbol = text[at:end]
            ends = symbol == "." and (end == len(text) or text[end].isspace() or text[end] == "%")
            yield ("end" if ends else "symbol"), symbol, spaced
        else:
            end = at + 1
            yield "punct", char, spaced
        at, spaced = end, False


def _after_layout(text: str, at: int) -> int:
    """Where the layout character or comment at `at` ends."""
    if text[at] == "%":
        end = text.find("\n", at)
        return len(text) if end < 0 else end
    if text.startswith("/*", at):
        end = text.find("*/", at + 2)
        return len(text) if end < 0 else end + 2
    return at + 1


def _after_quoted(text: str, at: int) -> int:
    """Where the quoted atom or string opening at `at` ends (a doubled quote and a backslash
    escape stay inside it; an unclosed one runs to the end)."""
    quote, end = text[at], at + 1
    while end < len(text):
        if text[end] == "\\":
            end += 2
        elif text[end] != quote:
            end += 1
        elif text.startswith(quote * 2, end):
            end += 2
        else:
            return end + 1
    return len(text)


def _after_number(text: str, at: int) -> int:
    """Where the number at `at` ends: digits, a character code (`0'c`), a fraction and an
    exponent."""
    if text.startswith("0'", at):
        escaped = text.startswith("\\", at + 2) or text.startswith("''", at + 2)
        return min(len(text), at + (4 if escaped else 3))
    end = at
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    if text.startswith(".", end) and end + 1 < len(text) and text[end + 1].isdigit():
        end += 1
        while end < len(text) and (text[end].isalnum()
                                   or (text[end] in "+-" and text[end - 1] in "eE")):
            end += 1
    return end


def _clauses(tokens: Iterable[_Token]) -> Iterator[list[_Token]]:
    """The tokens of each clause, its end left out (a last clause without one is kept)."""
    clause: list[_Token] = []
    for token in tokens:
        if token[0] == "end":
            yield clause
            clause = []
        else:
            clause.append(token)
    if clause:
        yield clause


def _head(clause: list[_Token]) -> tuple[str, int] | None:
    """The name and arity of a clause's head; None for a directive or a clause whose first term
    is no callable term followed by `:-`, `-->` or the clause's end."""
    if not clause or clause[0][0] not in ("name", "quoted"):
        return None
    name = clause[0][1]
    if clause[0][0] == "name" and (name[0] == "_" or name[0].isupper() or name[0].isdigit()):
        return None  # a variable or a number
    arity, rest = 0, 1
    if len(clause) > 1 and clause[1][:2] == ("punct", "(") and not clause[1][2]:
        arity, rest = _arguments(clause, 1)
    if rest >= len(clause):
        return (name, arity) if rest == len(clause) else None
    if clause[rest][:2] == ("symbol", ":-"):
        return name, arity
    if clause[rest][:2] == ("symbol", "-->"):
        return name, arity + 2
    return None


def _arguments(clause: list[_Token], opening: int) -> tuple[int, int]:
    """How many arguments the parenthesis at `opening` holds, and the token after its closing
    one (one past the clause's end, if it is never closed)."""
    depth, commas = 0, 0
    for at in range(opening, len(clause)):
        kind, text, _ = clause[at]
        if kind == "punct" and text in _OPEN:
            depth += 1
        elif kind == "punct" and text in _CLOSE:
            depth -= 1
            if depth == 0:
                return commas + 1, at + 1
        elif (kind, text, depth) == ("punct", ",", 1):
            commas += 1
    return commas + 1, len(clause) + 1


class StudentProgram(ContainedProgram):
    """One submission's program, contained, loaded once and asked questions; loading may
    take `load_seconds` of CPU time."""

    def __init__(
        self, paths: list[Path], main: str | None = None,
        limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, load_seconds: float = 30.0,
    ) -> None:
        require("grading Prolog")
        missing = [path for path in paths if not os.path.lexists(path)]
        if missing:
            raise ProgramError(f"no file or folder {quoted(str(missing[0]))}")
        super().__init__(submission.take(paths), limits)
        try:
            self.main = main_file(self.taken.folder, main, paths[0].name)
        except ProgramError:
            self.close()
            raise
        self.notes = [] if main is not None else backups_beside(self.taken.folder, self.main)
        own = self.main.parent / HELPER  # a student's own copy: ours loads under another name
        self._helper = f".{HELPER}" if own.exists() else str(own.relative_to(self.workspace()))
        self.load_seconds = load_seconds
        self.report: LoadReport | None = None
        self._held = "none"
        self.kind = ""
        """What the live process has been asked: `whole` questions or questions with the
        lab's `answers` below them ("": neither yet); never both (`ask_many`)."""

    # --- the process -----------------------------------------------------------------------

    def load(self, within: float | None = None) -> LoadReport:
        """Start the program and load it (a restart `within` what is left of a question's
        seconds); the first load's report (kept in `report`)."""
        prolog = resources.files("minimax_lab.logic.prolog")
        self._release()
        self._held = "none"  # the lab's answers below that the harness keeps: none yet
        self.kind = ""
        helper = self.copy_in(Path(str(prolog / HELPER)), self._helper)
        harness = self.copy_in(Path(str(prolog / "harness.pl")), ".harness.pl")
        argv = [SWIPL, f"--stack-limit={STACK_LIMIT}", "--threads=false", "-q", "-f", "none",
                str(harness), "--", str(self.main), str(helper)]
        deadline, cpu, wall = self.load_guards(within)
        containment = self._launch(argv)
        report = LoadReport(containment=containment.describe(), notes=list(self.notes))
        report.messages = [LoadMessage("warning", path, 0, f"{why}, not taken (a submission "
                                       "is regular files and folders)")
                           for path, why in self.taken.skipped]
        try:
            read_loaded(self._loaded(deadline, cpu), report, f"{self.folder}/")
        except Died as died:
            self.stop()
            report = LoadReport(report.messages, containment=report.containment,
                                problem=f"the program {died} while loading",
                                notes=report.notes)
        except OverCpu:
            self.stop()
            report.problem = f"loading used more than {cpu:g} s of CPU time"
        except Late:
            self.stop()
            report.problem = (f"loading did not finish within {wall:g}"
                              " s of the wall clock (a guard against a program that waits)")
        if self.report is None:
            self.report = report
        return report

    def ask(self, goal: str, template: str, most: int, seconds: float,
            inferences: int | None = None, below: str = "none") -> Reply:
        """Prove `goal` at most `most` times within `inferences` (None: no limit), guarded
        from here by a limit of CPU time measured outside the program (`SLOWEST_LIPS`) and by
        `seconds` of the wall clock; the values of `template`. `below` is the lab's answers to
        the calls below the goal, as a Prolog list the harness reads ("none": the program
        answers them itself)."""
        return self.ask_many([Ask(goal, template, most, inferences, below)], seconds)[0]

    def ask_many(self, asks: Sequence[Ask], seconds: float) -> list[Reply]:
        """Ask each of `asks` in turn, as `ask` does, sent together to save the round trips:
        the replies in order, up to the first that stopped the program (the rest unasked).
        A question asked alone is weighed by its own CPU time, measured outside; questions
        sent together by their counts of inferences, where the CPU time of them all shows no
        more than their counts could take (each question's own would depend on when the
        grader got to read its answer, that is on the machine's load); where it shows more,
        each is asked again alone, so that only its own work is weighed.

        A process is asked whole questions or questions with the lab's answers below, never
        both: one asked the other kind is replaced by a fresh one first (not counted among
        the starts that give a program up), so that no whole-program verdict comes from a
        process that was ever given a lab answer, whatever the program keeps."""
        kinds = {ask.kind for ask in asks} - {""}
        if len(kinds) > 1:
            raise ValueError("whole questions and questions with answers are never sent "
                             "together")
        if kinds and self.kind not in ("", *kinds):
            self._release()
            self.starts -= 1  # a fresh process of the grader's choosing, not a restart
        if self.process is None or self.process.poll() is not None:
            begun = time.monotonic()
            self._release()
            problem = self.load(seconds).problem
            if problem is not None:
                return [Reply((), "died", problem)]
            seconds = max(0.1, seconds - (time.monotonic() - begun))  # the restart's, spent
        self.kind = next(iter(kinds), self.kind)
        numbers = [new_id() for _ in asks]
        lines = []
        for ask, number in zip(asks, numbers, strict=True):
            lines.append(ask.line(number, self._held))
            self._held = ask.below
        replies: list[Reply] = []
        self._cpu_at = begun_cpu = self.cpu_seconds()
        try:
            self._send(b"".join(lines), time.monotonic() + seconds + GRACE)
        except Died as died:
            self.stop()
            return [Reply((), "died", f"the program {died}", work=float(asks[0].inferences or 0))]
        alone = len(asks) == 1
        for ask, number in zip(asks, numbers, strict=True):
            replies.append(self._answer(ask, number, seconds, alone))
            if replies[-1].end not in ENDS:
                break
        answered = [reply for reply in replies if reply.end in ENDS]
        counted = sum(reply.counted for reply in answered)
        shown = self.cpu_seconds() - begun_cpu - CPU_SLACK * (len(answered) - 1)
        if alone or _work(int(counted), shown) <= counted:
            return replies
        return [self.ask(ask.goal, ask.template, ask.most, seconds, ask.inferences, ask.below)
                if reply.end in ENDS else reply
                for ask, reply in zip(asks, replies, strict=False)]

    def _answer(self, ask: Ask, number: int, seconds: float, alone: bool = True) -> Reply:
        """The reply to the question numbered `number`, sent already; weighed by its CPU time
        where it was asked `alone`, else by its count (`ask_many` weighs a batch whole)."""
        inferences = ask.inferences
        stopped = float(inferences or 0)
        cpu = seconds if inferences is None else GRACE + inferences / SLOWEST_LIPS
        try:
            reply = self._read(time.monotonic() + seconds + GRACE, number, cpu)
            now = self.cpu_seconds()  # the next question's CPU time is counted from here
            used, self._cpu_at = max(0.0, now - self._cpu_at), now
            return read_reply(reply, inferences, used if alone else 0.0, self.reply_bytes)
        except Died as died:
            self.stop()
            return Reply((), "died", f"the program {died}", work=stopped)
        except OverCpu:
            self.stop()
            return Reply((), "cpu", work=stopped)
        except Late:
            self.stop()
            return Reply((), "time", work=stopped)
        except BaseException:  # interrupted: no later question may read this one's answer
            self.stop()
            raise


WHOLE = "whole"
"""The kind of a question asked of the whole program (`Ask.kind`): a process asked one was
never given a lab answer."""


@runtime_checkable
class Pipelined(Protocol):
    """A program that can be sent questions before their replies are wanted, where
    `pipelined`: `post` sends a batch and gives its number, `take` waits for that batch's
    replies, as `ask_many` gives them (in order, up to the first that stopped the program)."""

    pipelined: bool

    def post(self, asks: Sequence[Ask]) -> int: ...

    def take(self, number: int) -> list[Reply]: ...


@dataclass(frozen=True)
class Ask:
    """One question for `StudentProgram.ask_many`: a goal proved at most `most` times within
    `inferences` (None: no limit), the values of `template`, the lab's answers `below` it."""

    goal: str
    template: str
    most: int
    inferences: int | None = None
    below: str = "none"
    record: int = 0
    """Calls made directly below the goal to record, at most (`Reply.made`; 0: none)."""
    recorded: str = ""
    """The predicates whose calls it records, a Prolog list of `Module:Name/Arity` (""
    the lab's recursive predicates, `Reply.made`; else `Reply.made_terms`)."""
    _line_rest: bytes = field(init=False, repr=False, compare=False)
    _line_head: bytes = field(init=False, repr=False, compare=False)
    _line_tail: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        limit = "none" if self.inferences is None else str(int(self.inferences))
        head = f", ({self.goal}), ({self.template}), {self.most}, {limit}, "
        listed = f", {self.recorded}" if self.recorded else ""
        tail = f", record({int(self.record)}{listed}))" if self.record > 0 else ")"
        rest = f"{head}{self.below}{tail}"
        object.__setattr__(self, "_line_rest", f"{rest}.\n".encode())  # made once: sent often
        object.__setattr__(self, "_line_head", head.encode())
        object.__setattr__(self, "_line_tail", f"{tail}.\n".encode())

    def text(self, number: int, held: str = "none") -> str:
        """The harness's question (`ask/6`), numbered `number`, without its final `.`; `held`
        as `line` takes it."""
        return self.line(number, held)[:-2].decode()

    def line(self, number: int, held: str = "none") -> bytes:
        """The question as the harness reads it from its pipe, numbered `number`; where the
        harness holds its answers below already (`held`, those of the question before), it
        is told to keep them (`same`) rather than sent them again."""
        if held == self.below and self.below.startswith("below("):
            return b"ask(%d%bsame%b" % (number, self._line_head, self._line_tail)
        return b"ask(%d%b" % (number, self._line_rest)

    @property
    def kind(self) -> str:
        """What it gives the program: `answers` (the lab's answers below it), `whole` (asked
        of the whole program, `memo`: the play check and the end-to-end sample), or ""
        (neither: a process of either kind may be asked it)."""
        if self.below == "memo":
            return WHOLE
        return "answers" if self.below.startswith("below(") and not self.below.endswith(
            ",[])") else ""

    @property
    def size(self) -> int:
        """The bytes of its line, whatever its number, at most."""
        return len(self._line_rest) + 24


def read_loaded(loaded: Mapping[str, object], report: LoadReport, inside: str) -> None:
    """Fill `report` from the harness's first line, `loaded`; `inside`, the folder the
    program was loaded from, is left out of the messages' text."""
    report.messages += [
        LoadMessage(reply_field(m, "kind", str, ""), reply_field(m, "file", str, ""),
                    reply_field(m, "line", int, 0),
                    reply_field(m, "text", str, "").replace(inside, ""))
        for m in reply_field(loaded, "messages", list, []) if _is_dict(m)]
    report.defined = [str(name) for name in reply_field(loaded, "defined", list, [])]
    report.output = reply_field(loaded, "output", str, "")


def read_reply(reply: Mapping[str, object], inferences: int | None, cpu: float,
               size: int | None = None) -> Reply:
    """The reply the harness wrote to a question asked within `inferences`, after `cpu`
    seconds of CPU time measured outside the program, read from a line of `size` bytes (None:
    not known); `Died` for one it could not write."""
    small = size is not None and size <= TEXT_LIMIT + 3  # no answer larger than it can hold
    answers = tuple(Proof(answer.get("term") if small else bounded(answer.get("term")),
                          _cut(_field(answer, "text", str, "")),
                          _field(answer, "output_at", int, 0))
                    for answer in _field(reply, "answers", list, [])
                    if _is_dict(answer))
    end = reply.get("end")
    if end not in ENDS:
        raise Died("wrote an answer that could not be read")
    counted = _field(reply, "inferences", int, 0)
    work = _work(counted, cpu)
    if inferences is not None and work > inferences and end != "inferences":
        answers, end = (), "inferences"
    error = error_term = None
    if "error" in reply or "error_term" in reply:
        error = _first_line(text_or_none(reply, "error"))
        error_term = text_or_none(reply, "error_term")
    return Reply(answers, str(end), error, error_term, _field(reply, "output", str, ""),
                 _field(reply, "output_chars", int, 0), _field(reply, "seconds", float, 0.0),
                 work, float(counted), *_made(_field(reply, "made", list, [])))


def _made(calls: list[object]) -> tuple[tuple[Made, ...], tuple[MadeTerms, ...]]:
    """The calls a recorded question made, as the harness wrote them: each with a board, a
    player and an answer's text (or null), or (of the predicates an `Ask.recorded` names) its
    arguments and their texts after its answer (or null); `Died` for anything else."""
    made, terms = [], []
    for each in calls:
        if not _is_dict(each):
            continue
        call = cast(dict[str, object], each)
        if "args" in call:
            terms.append(_made_terms(call))
            continue
        state = call.get("state")
        answer = call.get("answer")
        name, player = call.get("call"), call.get("player")
        if (not isinstance(state, str) or answer_state(list(state)) is None
                or not isinstance(name, str) or player not in ("x", "o")
                or not (answer is None or isinstance(answer, str))):
            raise Died("wrote an answer that could not be read")
        made.append(Made(name, State(state), str(player),
                         None if answer is None else _cut(answer)))
    return tuple(made), tuple(terms)


def _made_terms(call: dict[str, object]) -> MadeTerms:
    """A call of a predicate an `Ask.recorded` names, as the harness wrote it."""
    name, arguments, answer = call.get("call"), call.get("args"), call.get("answer")
    if (not isinstance(name, str) or not isinstance(arguments, list)
            or not (answer is None or isinstance(answer, list)
                    and all(isinstance(text, str) for text in answer))):
        raise Died("wrote an answer that could not be read")
    return MadeTerms(name, tuple(bounded(argument) for argument in arguments),
                     None if answer is None else tuple(_cut(text) for text in answer))


_FIELD_TYPES = {int: (int,), str: (str,), list: (list,), float: (float, int)}


def _field(reply: Mapping[str, object], name: str, kind: type[T], default: T) -> T:
    """`reply_field(reply, name, kind, default)`, with no more work than a look for a field
    that is absent, or of `kind` exactly and in range."""
    value = reply.get(name, default)
    if value is default:
        return default
    if type(value) in _FIELD_TYPES[kind] and (kind is str or kind is list
                                              or 0 <= cast(float, value) < 1e18):
        return cast(T, value if kind is not float else float(cast(float, value)))
    return reply_field(reply, name, kind, default)


def _work(counted: int, cpu: float) -> float:
    """A question's work: the inferences the harness counted, unless the CPU time measured
    outside shows more than they could take, which only a count changed inside explains."""
    shown = (cpu - CPU_SLACK) * SLOWEST_LIPS
    return float(counted) if shown <= counted else shown


TEXT_LIMIT = 300
"""Characters of an answer's Prolog text the harness sends (`text_limit/1`); more is cut."""
MOST_NODES = 2000
"""Terms in an answer's JSON at most (the harness sends 500: `node_limit/1`)."""


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT + 3 else text[:TEXT_LIMIT] + "..."


def bounded(term: object) -> object:
    """An answer's JSON as the harness writes it, no larger; `Died` for more, which only the
    program could have written."""
    if type(term) is int:
        return term
    nodes = 0
    todo = [term]
    while todo:
        item = todo.pop()
        nodes += 1
        kind = type(item)  # as json.loads makes them: no subclasses
        if kind is list:
            todo += cast(list[object], item)
        elif kind is dict:
            todo += cast(dict[str, object], item).values()
        elif kind is str and len(cast(str, item)) > TEXT_LIMIT + 3:
            raise Died("wrote an answer that could not be read")
        if nodes > MOST_NODES:
            raise Died("wrote an answer that could not be read")
    return term


def _is_dict(value: object) -> bool:
    """True for a JSON object; the harness writes nothing else where one is read."""
    if not isinstance(value, dict):
        raise Died("wrote an answer that could not be read")
    return True


def is_integer(term: object) -> TypeGuard[int]:
    """True for an integer in an answer's JSON (the atoms `true` and `false` come as JSON's
    booleans, which Python counts as integers: they are not)."""
    return isinstance(term, int) and not isinstance(term, bool)


_MARKS = frozenset(("x", "o", "-"))


def answer_state(term: object) -> State | None:
    """The state an answer's JSON spells, if it is a list of 9 marks; else None."""
    if type(term) is not list or len(term) != 9:
        return None
    try:
        marks = _MARKS.issuperset(term)
    except TypeError:  # a list or an object among the cells
        return None
    return State("".join(term)) if marks else None


def _first_line(value: object) -> str | None:
    """The first line of an error message (SWI-Prolog adds the stack and hints after it)."""
    return None if value is None else (str(value).strip().splitlines() or [""])[0]


