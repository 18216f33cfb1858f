"""A student's Prolog program loaded by the harness (`logic/prolog/harness.pl`) in an SWI-Prolog
that a host runs in this process, with no subprocess to contain it: SWI-Prolog compiled to
WebAssembly beside Pyodide in a browser's worker (the site's check, `docs/site.md`).

The harness is the same: the program is loaded in its own module under library(sandbox), its
output captured, and each question asked within an inference limit. What the host cannot give
is a guard from outside (CPU time, the wall clock, a kill): a program that is stopped (its
worker ended) takes the check with it, so the page that runs it offers to stop it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Protocol, cast
from weakref import WeakKeyDictionary

from minimax_lab.logic.contain.contained import Died, new_id
from minimax_lab.logic.contain.harness import WHOLE, Ask, Reply, read_loaded, read_reply
from minimax_lab.logic.contain.loading import LoadReport


class Host(Protocol):
    """An SWI-Prolog in this process with the harness consulted: `load` calls `host_load/4`,
    `answer` calls `host_answer/2`; each returns the harness's line (JSON), or raises."""

    folder: str
    """Where the program's file is, in the host's file system (left out of its messages)."""

    def load(self, number: int) -> str: ...

    def answer(self, question: str) -> str: ...


class PipedHost(Host, Protocol):
    """A `Host` whose SWI-Prolog is in a worker of its own: `post` sends it questions, which it
    asks in turn while this process goes on, and gives the first's number; `take` waits for
    the line it gave one (by its number)."""

    def post(self, questions: Sequence[str]) -> int: ...

    def take(self, number: int) -> str: ...


class Fresh(Protocol):
    """A second SWI-Prolog beside a `Host`'s, the harness and the same file loaded in it, that
    is never given a lab answer: it asks the questions of the whole program (`Ask.kind`
    `whole`, the end-to-end sample), so that a verdict on the whole program never comes from
    an SWI-Prolog that was given the lab's answers below other questions (the site's: in a
    worker of its own, asking them on another core meanwhile). `send` gives it questions, which
    it asks in turn; `reply` waits for the line it gave one, numbered in the order sent, across
    sends, or "error: ..." where it failed."""

    def send(self, questions: Sequence[str]) -> None: ...

    def reply(self, index: int) -> str: ...


class HostedProgram:
    """A student's program in a `Host`, loaded once and asked questions; the same replies as
    `logic.contain.harness.StudentProgram`, guarded by inference limits alone; the questions
    of the whole program asked of `fresh` where there is one."""

    def __init__(self, host: Host, fresh: Fresh | None = None) -> None:
        self.host, self.fresh = host, fresh
        self.report: LoadReport | None = None
        self._given_up: str | None = None
        self._posted: dict[int, list[Ask]] = {}
        self.pipelined = callable(getattr(host, "post", None))
        """Whether it can be sent questions ahead (`post`): its host is a `PipedHost`."""
        self._sent: dict[Ask, list[int]] = {}
        self._count = 0
        """How many questions were sent to `fresh`."""

    def send_ahead(self, asks: Iterable[Ask]) -> None:
        """Send `fresh`, if any, the questions of the whole program among `asks`, which it
        starts on at once: asked later, each takes its reply."""
        if self.fresh is not None:
            self._send([ask for ask in asks if ask.kind == WHOLE])

    def _send(self, asks: list[Ask]) -> None:
        if asks and self.fresh is not None:
            for at, ask in enumerate(asks, self._count):
                self._sent.setdefault(ask, []).append(at)
            self._count += len(asks)
            self.fresh.send([ask.text(new_id()) for ask in asks])

    @property
    def given_up(self) -> str | None:
        """Why no more questions are asked (the program died), if so."""
        return self._given_up

    def load(self) -> LoadReport:
        """Load the program; how it went (kept in `report`)."""
        if self.report is not None:
            return self.report
        report = LoadReport(containment="SWI-Prolog in WebAssembly, in this browser: inference "
                            "limits, no limit of time from outside")
        try:
            read_loaded(_line(self.host.load(new_id())), report, f"{self.host.folder}/")
        except Died as died:
            report.problem = f"the program {died} while loading"
            self._given_up = report.problem
        self.report = report
        return report

    def ask(self, goal: str, template: str, most: int, seconds: float,
            inferences: int | None = None, below: str = "none") -> Reply:
        """Prove `goal` at most `most` times within `inferences`, the lab's answers `below`
        it given to the calls on its successors; the values of `template`. `seconds` cannot
        be guarded here (`Host`)."""
        return self.ask_many([Ask(goal, template, most, inferences, below)], seconds)[0]

    def ask_many(self, asks: Sequence[Ask], seconds: float) -> list[Reply]:
        """Ask each of `asks` in turn, as `StudentProgram.ask_many` does: the replies in
        order, up to the first that stopped the program."""
        replies: list[Reply] = []
        for ask in asks:
            if self._to_fresh(ask):
                reply, _ = self._read(ask, partial(self._fresh_line, ask))
            else:
                held = _HELD.pop(self.host, "none")  # none held where the host failed
                reply, read = self._read(ask, partial(self._answer, ask, held))
                if read:
                    _HELD[self.host] = ask.below
            replies.append(reply)
            if self._given_up is not None:
                break
        return replies

    def post(self, asks: Sequence[Ask]) -> int:
        """Send the host `asks` (none of the whole program) to ask in turn meanwhile, a board's
        answers below sent once for its questions (`same`, as `ask_many` sends them); their
        number, for `take`."""
        host = cast(PipedHost, self.host)
        held = _HELD.pop(self.host, "none")
        texts = []
        for ask in asks:
            texts.append(ask.text(new_id(), held))
            held = ask.below
        number = host.post(texts)
        _HELD[self.host] = held  # what the harness holds once it has read them (`take`)
        self._posted[number] = list(asks)
        return number

    def take(self, number: int) -> list[Reply]:
        """The replies to the questions posted as `number`, as `ask_many` gives them, up to
        one the harness could not read (after it, a question that said `same` had no answers
        held: those are asked again, their answers sent)."""
        host = cast(PipedHost, self.host)
        replies: list[Reply] = []
        for at, ask in enumerate(self._posted.pop(number), number):
            reply, read = self._read(ask, partial(host.take, at))
            replies.append(reply)
            if self._given_up is not None:
                break
            if not read:
                _HELD.pop(self.host, None)
                break
        return replies

    def _read(self, ask: Ask, line: Callable[[], str]) -> tuple[Reply, bool]:
        """The reply to `ask` on the host's `line`, and whether the harness read the question
        (its reply has an id); a died reply where the program stopped, now or before."""
        if self._given_up is not None:
            return Reply((), "died", self._given_up), False
        try:
            text = str(line())
            reply = _line(text)
            return (read_reply(reply, ask.inferences, 0.0, len(text)),
                    reply.get("id") is not None)
        except Died as died:
            self._given_up = f"the program {died}"
            return Reply((), "died", self._given_up, work=float(ask.inferences or 0)), False

    def _answer(self, ask: Ask, held: str) -> str:
        """The host's line answering `ask`, the harness holding the answers `held`."""
        return self.host.answer(ask.text(new_id(), held))

    def _to_fresh(self, ask: Ask) -> bool:
        """Whether `ask` goes to the fresh SWI-Prolog: a question of the whole program, where
        there is one."""
        return self.fresh is not None and ask.kind == WHOLE

    def _fresh_line(self, ask: Ask) -> str:
        """The fresh SWI-Prolog's line answering `ask` (sent now if it was not sent ahead)."""
        assert self.fresh is not None
        if not self._sent.get(ask):
            self._send([ask])
        return self.fresh.reply(self._sent[ask].pop(0))

    def stop(self) -> None:
        """Nothing to stop from here: the host's page ends its worker."""

    def close(self) -> None:
        """Nothing to release: the host's SWI-Prolog goes with its worker."""


_HELD: WeakKeyDictionary[Host, str] = WeakKeyDictionary()
"""The answers below the question a host's harness was asked last, which it keeps for a next
question that says `same` (`Ask.line`): a board's are sent and read once for its questions.
Kept for the host, not for a program, as every program (session) of a check asks one harness."""


def _line(text: object) -> Mapping[str, object]:
    """A line of the harness's, read; `Died` for anything else (the host failed)."""
    try:
        read = json.loads(str(text))
    except ValueError:
        raise Died(f"stopped the harness: {str(text)[:200]}") from None
    if not isinstance(read, dict):
        raise Died("wrote an answer that could not be read")
    return read
