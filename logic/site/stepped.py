"""The tracer that steps, in a page: the page cannot wait inside a goal for a key, so a
stepped goal is run again from its start with every key typed so far, up to the port (or the
answer) that asks for the next one. The solver is deterministic, so each run shows what the
last one showed and one step more; what the page shows is the whole transcript of the goal."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from minimax_lab.logic.toplevel.repl import Session
from minimax_lab.logic.toplevel.stepper import SpyPoints

MAX_KEYS = 2000
"""The most keys one stepped goal takes; past them it is abandoned, as `a` (abort) would."""


class KeyWanted(BaseException):  # noqa: N818 - not an error: the goal waits for a key
    """The keys typed so far are used up: the goal waits at a port or after an answer."""


@dataclass
class TypedKeys:
    """The keys typed at a stepped goal's ports and answers, read in order
    (`logic.toplevel.repl.Keys`); past the last, the goal waits (`KeyWanted`)."""

    typed: str
    read_so_far: int = 0

    @contextmanager
    def answering(self) -> Iterator[None]:
        yield

    def read(self) -> str:
        if self.read_so_far == len(self.typed):
            raise KeyWanted
        self.read_so_far += 1
        return self.typed[self.read_so_far - 1]


@dataclass
class Stepped:
    """A goal being stepped in `session`: its text, the keys typed, and the session's trace
    state and spy points as they were when it was asked (each run starts from them)."""

    session: Session
    goal: str
    trace_next: bool
    spies: SpyPoints
    keys: str = ""
    done: bool = field(default=False, init=False)
    ended_session: bool = field(default=False, init=False)

    @classmethod
    def ask(cls, session: Session, goal: str) -> Stepped:
        spies = SpyPoints(set(session.spies.specs), session.spies.debugging)
        return cls(session, goal, session.trace_next, spies)

    def run(self) -> str:
        """The goal run from its start with the keys typed: what it has printed so far
        (`done` once it has ended, rather than waiting for a key)."""
        session = self.session
        out = io.StringIO()
        saved_out, saved_keys = session.out, session.keys
        session.out, session.keys, session.line_open = out, TypedKeys(self.keys), False
        session.trace_next = self.trace_next
        session.spies.specs = set(self.spies.specs)
        session.spies.debugging = self.spies.debugging
        try:
            self.ended_session = not session.handle(self.goal)
            self.done = True
        except KeyWanted:
            self.done = False
        finally:
            session.out, session.keys = saved_out, saved_keys
        return out.getvalue()

    def typed(self, key: str) -> str:
        """The goal run again with `key` typed after the others."""
        if len(self.keys) >= MAX_KEYS:
            self.done = True
            return f"% Execution Aborted: a stepped goal takes at most {MAX_KEYS} keys\n"
        self.keys += key[:1] or "\n"
        return self.run()


def stepped(session: Session, goal: str) -> bool:
    """True when the session's next goal, `goal`, is stepped: `trace.` was asked before it,
    or it runs in debug mode (`Session.leaps`)."""
    return session.trace_next or session.leaps(goal)
