"""How a contained program loaded (a student's Prolog or Python program, here or in a
browser): its messages, the names it defines, and the problem that stopped it. Below the
harnesses that fill it in and the grader that reports it, so both read one declaration (the
JSON `grade --json` writes of it is declared on its fields).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from minimax_lab.logic.json_fields import NOT_CARRIED, key

_PLACE = re.compile(r"(\d+(?::\d+)?): ")
"""A line, and maybe a column, as SWI-Prolog's message puts them after the file's name."""


@dataclass(frozen=True)
class LoadMessage:
    """An error or warning while loading, where it was."""

    kind: str
    file: str
    line: int
    text: str

    def heading(self) -> str:
        """`kind at file:line`, or `kind at file:line:column` where the text starts with that
        place (SWI-Prolog's syntax errors), said once."""
        return self.said()[0]

    def said(self) -> tuple[str, str]:
        """Its heading and its text, the place given once."""
        if self.file and self.text.startswith(f"{self.file}:"):
            found = _PLACE.match(self.text, len(self.file) + 1)
            if found:
                return (f"{self.kind} at {self.file}:{found[1]}",
                        self.text[found.end():])
        where = f" at {self.file}" + (f":{self.line}" if self.line else "") if self.file else ""
        return f"{self.kind}{where}", self.text

    def __str__(self) -> str:
        return ": ".join(self.said())


@dataclass
class LoadReport:
    """How loading went: messages, the predicates the program defines, and any problem that
    stopped it (it halted, never finished, or could not start)."""

    messages: list[LoadMessage] = field(default_factory=list)
    defined: list[str] = field(default_factory=list, metadata=NOT_CARRIED)
    output: str = field(default="", metadata=NOT_CARRIED)
    problem: str | None = field(default=None, metadata=key(spread=True, decode=lambda data: (
        data["problems"][0] if data["status"] == "failed" else None), encode=lambda _: {}))
    """Written as the first of `problems` under the status `failed` (`json_derived`)."""
    containment: str = ""
    notes: list[str] = field(default_factory=list)
    """What was decided about the submission's files that is no problem of its own (a backup
    left out)."""

    @property
    def ok(self) -> bool:
        """True when the program loaded with no error, warning or problem."""
        return self.problem is None and not self.messages

    @property
    def status(self) -> str:
        """`ok`, `problems` (it loaded, with errors or warnings) or `failed` (it did not
        load)."""
        if self.problem is not None:
            return "failed"
        return "ok" if self.ok else "problems"

    def json_derived(self, written: dict[str, Any]) -> None:
        """What its JSON says besides its fields: `ok`, its status, and every problem in
        words (the one that stopped it first, then each message)."""
        written.update(ok=self.ok, status=self.status, problems=(
            [self.problem] if self.problem is not None else [])
            + [str(message) for message in self.messages])
