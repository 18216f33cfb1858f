"""Keys typed at a terminal top level's tracer, from a script, for tests that step a goal
without a terminal."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable


class Keys:
    """Keys typed at the ports and after the answers, from a script; "" when it runs out
    (end of input: the tracer aborts)."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = list(keys)

    @contextlib.contextmanager
    def answering(self):
        yield

    def read(self) -> str:
        return self.keys.pop(0) if self.keys else ""
