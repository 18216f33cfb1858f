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
from collections.abc import Mapping, Sequence
from typing import Protocol
from weakref import WeakKeyDictionary

from minimax_lab.logic.contain.contained import Died, new_id
from minimax_lab.logic.contain.harness import Ask, Reply, read_loaded, read_reply
from minimax_lab.logic.contain.loading import LoadReport


class Host(Protocol):
    """An SWI-Prolog in this process with the harness consulted: `load` calls `host_load/4`,
    `answer` calls `host_answer/2`; each returns the harness's line (JSON), or raises."""

    folder: str
    """Where the program's file is, in the host's file system (left out of its messages)."""

    def load(self, number: int) -> str: ...

    def answer(self, question: str) -> str: ...


class HostedProgram:
    """A student's program in a `Host`, loaded once and asked questions; the same replies as
    `logic.contain.harness.StudentProgram`, guarded by inference limits alone."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.report: LoadReport | None = None
        self._given_up: str | None = None

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
            if self._given_up is not None:
                replies.append(Reply((), "died", self._given_up))
                break
            held = _HELD.pop(self.host, "none")  # none held where the host failed
            try:
                reply = _line(self.host.answer(ask.text(new_id(), held)))
                replies.append(read_reply(reply, ask.inferences, 0.0))
                if reply.get("id") is not None:  # a question the harness read
                    _HELD[self.host] = ask.below
            except Died as died:
                self._given_up = f"the program {died}"
                replies.append(Reply((), "died", self._given_up,
                                     work=float(ask.inferences or 0)))
                break
        return replies

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
